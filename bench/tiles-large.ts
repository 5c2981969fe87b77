// `npm run bench:tiles-large`: what tiles cost on a large level (issue 19:
// tiles add ≤ 25 % to a cold build). A real-shaped tree (test/support/
// synthetic-tree.ts) with a one-line ADM1 of SIZE_MB (default 200) MB beside a
// small ADM0, and its preview, is built cold (caches and dist/ removed) with and without tiles,
// alternated, each build in its own process so its peak RSS is its own:
// wall time, CPU seconds (user + system, worker threads included), peak RSS.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildCatalogue } from '../build/build.ts';
import { cli } from '../test/support/cli.ts';
import { writeTree } from '../test/support/synthetic-tree.ts';

interface Run {
  ms: number;
  cpu: number;
  rssMB: number;
}

if (process.argv[2] === '--one-build') {
  // The child: one cold build of the tree at argv[3], tiles on or off (argv[4]).
  const root = process.argv[3];
  rmSync(join(root, '.cache'), { recursive: true, force: true });
  rmSync(join(root, 'dist'), { recursive: true, force: true });
  const t0 = performance.now();
  const result = await buildCatalogue({ root, out: join(root, 'dist'), tiles: process.argv[4] === 'tiles' });
  const ms = performance.now() - t0;
  if (!result.ok) throw new Error('build failed');
  const usage = process.resourceUsage();
  const run: Run = { ms, cpu: (usage.userCPUTime + usage.systemCPUTime) / 1e6, rssMB: usage.maxRSS / 1024 };
  console.log(JSON.stringify(run));
} else {
  const SIZE_MB = Number(process.env.SIZE_MB ?? 200);
  const REPEATS = Number(process.env.REPEATS ?? 1);
  const load = () =>
    loadavg()
      .map((l) => l.toFixed(1))
      .join(' ');
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-bench-tiles-large-'));
  try {
    writeTree(root, [
      {
        iso: 'BIG',
        levels: [
          { level: 'ADM0', bytes: 200_000, layout: 'one-line' },
          { level: 'ADM1', bytes: SIZE_MB * 2 ** 20, layout: 'one-line' },
        ],
      },
    ]);
    // The ADM1 gets a preview, as a level this size would: the atlas draws it, and the tiles upgrade it.
    for (const args of [['manifest'], ['preview']]) {
      const done = await cli(...args, '--root', root);
      if (done.code !== 0) throw new Error(done.stderr);
    }
    console.log(`load average before: ${load()}`);
    const build = (tiles: boolean): Run => {
      const child = spawnSync(
        process.execPath,
        ['--import', 'tsx', import.meta.filename, '--one-build', root, tiles ? 'tiles' : 'none'],
        { encoding: 'utf8', timeout: 30 * 60_000 },
      );
      if (child.status !== 0) throw new Error(child.stderr);
      return JSON.parse(child.stdout.trim().split('\n').at(-1)!) as Run;
    };
    const runs: Record<'with' | 'without', Run[]> = { with: [], without: [] };
    for (let i = 0; i < REPEATS; i++) {
      for (const tiles of i % 2 ? [true, false] : [false, true]) {
        runs[tiles ? 'with' : 'without'].push(build(tiles));
        console.log(
          `  ${tiles ? 'with tiles:   ' : 'without tiles:'} ${JSON.stringify(runs[tiles ? 'with' : 'without'].at(-1))} (load ${load()})`,
        );
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const [w, wo] = [runs.with, runs.without].map((r) => ({
      ms: median(r.map((x) => x.ms)),
      cpu: median(r.map((x) => x.cpu)),
      rss: median(r.map((x) => x.rssMB)),
    }));
    const pct = (a: number, b: number) => `${(((a - b) / b) * 100).toFixed(1)}%`;
    console.log(`${SIZE_MB} MB one-line ADM1, cold build (median of ${REPEATS}):`);
    console.log(
      `  without tiles: ${(wo.ms / 1000).toFixed(1)} s wall, ${wo.cpu.toFixed(1)} s CPU, ${wo.rss.toFixed(0)} MB peak RSS`,
    );
    console.log(
      `  with tiles:    ${(w.ms / 1000).toFixed(1)} s wall, ${w.cpu.toFixed(1)} s CPU, ${w.rss.toFixed(0)} MB peak RSS`,
    );
    console.log(
      `  tiles add:     ${pct(w.ms, wo.ms)} wall (target ≤ 25%), ${pct(w.cpu, wo.cpu)} CPU, ${pct(w.rss, wo.rss)} peak RSS`,
    );
    console.log(`load average after: ${load()}`);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
