// `npm run bench:preview`: times `preview` on a ~100 MB level with shared
// borders against (a) one simplification run at the threshold it ends on and
// (b) the usual naive loop that halves a percentage and re-runs everything.
// Each measurement runs in its own child process, so peak RSS is its own.
import { execFileSync } from 'node:child_process';
import { readFile, stat } from 'node:fs/promises';
import { availableParallelism, loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { fitBudget, PREVIEW_PROPERTIES } from '../build/preview/preview.ts';
import { decimalsFor, prepare, render, type Prepared } from '../build/preview/simplify.ts';
import { METRES_PER_DEGREE } from '../build/core/shared/crs.ts';
import { benchmarkLevel } from './preview-data.ts';
import type { GeoFeature } from '../build/geojson/level-features.ts';

const BUDGET = 2_097_152;
const METHOD = 'visvalingam';

interface Report {
  seconds: number; // wall clock
  cpuSeconds: number; // user + system CPU of the child: fairer than wall clock on a shared machine
  peakRssMb: number;
  bytes: number;
  passes: number;
  threshold?: number; // the weight threshold the run ended on (-1: none)
  toleranceM?: number;
  parseSeconds?: number;
  prepareSeconds?: number;
  searchSeconds?: number;
}

/** Reads, parses and prepares the level (the part every run has to do once). */
async function load(path: string): Promise<{ prepared: Prepared; parse: number; prep: number }> {
  const t0 = performance.now();
  const { features } = JSON.parse(await readFile(path, 'utf8')) as { features: GeoFeature[] };
  const t1 = performance.now();
  const prepared = prepare(
    path,
    features,
    METHOD,
    (key) => PREVIEW_PROPERTIES.has(key),
    METRES_PER_DEGREE.earth,
  );
  return { prepared, parse: (t1 - t0) / 1000, prep: (performance.now() - t1) / 1000 };
}

const peak = () => Math.round(process.resourceUsage().maxRSS / 1024);
const cpu = () => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1e6;
};

/** The phases, each run in a child: `preview`, `single THRESHOLD`, `naive`. */
async function phase(name: string, path: string, arg?: string): Promise<Report> {
  const start = performance.now();
  if (name === 'preview') {
    const { prepared, parse, prep } = await load(path);
    const t = performance.now();
    const result = fitBudget(path, prepared, { maxBytes: BUDGET, method: METHOD });
    const search = (performance.now() - t) / 1000;
    return {
      seconds: (performance.now() - start) / 1000,
      cpuSeconds: cpu(),
      peakRssMb: peak(),
      bytes: result.bytes,
      passes: result.passes,
      threshold: result.threshold,
      toleranceM: result.simplification.tolerance_m,
      parseSeconds: parse,
      prepareSeconds: prep,
      searchSeconds: search,
    };
  }
  if (name === 'single') {
    const threshold = Number(arg);
    const { prepared } = await load(path);
    const r = render(
      prepared,
      threshold,
      decimalsFor(threshold < 0 ? 0 : threshold, METRES_PER_DEGREE.earth),
    );
    return {
      seconds: (performance.now() - start) / 1000,
      cpuSeconds: cpu(),
      peakRssMb: peak(),
      bytes: r.bytes,
      passes: 1,
    };
  }
  // naive: keep 100 %, 50 %, 25 %… of the removable vertices, re-running everything each time.
  let percent = 100;
  for (let passes = 1; ; passes++) {
    const { prepared } = await load(path);
    const keep = Math.floor((prepared.keptAbove[0]! * percent) / 100);
    let k = 0;
    while (k < prepared.thresholds.length && prepared.keptAbove[k]! > keep) k++;
    const threshold = k === 0 ? -1 : prepared.thresholds[k - 1]!;
    const r = render(prepared, threshold, decimalsFor(k === 0 ? 0 : threshold, METRES_PER_DEGREE.earth));
    if (r.bytes <= BUDGET || k === prepared.thresholds.length) {
      return {
        seconds: (performance.now() - start) / 1000,
        cpuSeconds: cpu(),
        peakRssMb: peak(),
        bytes: r.bytes,
        passes,
        threshold,
      };
    }
    percent /= 2;
  }
}

function child(path: string, ...args: string[]): Report {
  const self = fileURLToPath(import.meta.url);
  const out = execFileSync(process.execPath, ['--import', 'tsx', self, '--phase', ...args, path], {
    encoding: 'utf8',
    maxBuffer: 1 << 20,
  });
  return JSON.parse(out.trim().split('\n').pop()!) as Report;
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--phase') {
    const path = argv[argv.length - 1]!;
    const report = await phase(argv[1]!, path, argv.length > 3 ? argv[2] : undefined);
    console.log(JSON.stringify(report));
    return;
  }
  const path = await benchmarkLevel();
  const size = (await stat(path)).size;
  console.log(`input: ${path}, ${(size / 1e6).toFixed(1)} MB; budget ${BUDGET} bytes; method ${METHOD}`);

  const load = () =>
    loadavg()
      .map((n) => n.toFixed(1))
      .join(' ');
  console.log(`load average before: ${load()} (${availableParallelism()} cores)`);
  const time = (r: Report) => `${r.seconds.toFixed(1)} s wall, ${r.cpuSeconds.toFixed(1)} s CPU`;
  const preview = child(path, 'preview');
  console.log(
    `preview: ${time(preview)} (parse ${preview.parseSeconds!.toFixed(1)} s, topology + weights ` +
      `${preview.prepareSeconds!.toFixed(1)} s, bisection ${preview.searchSeconds!.toFixed(2)} s), ${preview.passes} passes, ` +
      `${preview.bytes} bytes, tolerance ${preview.toleranceM} m, peak RSS ${preview.peakRssMb} MB`,
  );
  const single = child(path, 'single', String(preview.threshold));
  console.log(
    `one simplification run at the final threshold: ${time(single)}, ${single.bytes} bytes, peak RSS ${single.peakRssMb} MB`,
  );
  const naive = child(path, 'naive');
  console.log(
    `naive halving loop (full re-run per try): ${time(naive)}, ${naive.passes} passes, ${naive.bytes} bytes, peak RSS ${naive.peakRssMb} MB`,
  );
  const wall = preview.seconds / single.seconds;
  const cpuRatio = preview.cpuSeconds / single.cpuSeconds;
  console.log(
    `ratio preview / single run: ${wall.toFixed(2)} wall, ${cpuRatio.toFixed(2)} CPU (target ≤ 2: ` +
      `${Math.max(wall, cpuRatio) <= 2 ? 'met' : 'NOT met'}); naive / preview: ${(naive.seconds / preview.seconds).toFixed(2)} wall, ` +
      `${(naive.cpuSeconds / preview.cpuSeconds).toFixed(2)} CPU`,
  );
  console.log(`load average after: ${load()}`);
}

await main();
