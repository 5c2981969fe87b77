// `npm run bench:tiles-mercator`: the Web Mercator tiles (issue 30 §3)
// against the per-country tiles, in the same run. Target: "Web Mercator tiles
// for the sample's largest level: ≤ the time the existing per-country tiles
// take for it." The largest level is found by bytes among data/'s Earth
// levels; it is read once (both archives are cut from the same rings, as the
// tiles worker does), then each archive is cut REPEATS times (default 7),
// alternated, as CPU (user + system) and wall time, medians and the ratio.
// Then the archives' sizes over the whole sample, from a built dist/ when
// there is one (the catalogue's own map: docs/catalogue.md#web-map-tiles).
import { existsSync, readdirSync, statSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { OuterRings, planeOf } from '../build/geo/map-plane.ts';
import { levelArchive } from '../build/tiles/level-tiles.ts';
import { mercatorArchive } from '../build/tiles/mercator.ts';
import { readMercatorLevel } from '../build/tiles/mercator-level.ts';
import type { LevelRings } from '../build/tiles/level-rings.ts';

const REPEATS = Number(process.env.REPEATS ?? 7);
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

/** Returns the sample's largest Earth level file by bytes, e.g. "data/earth/USA/USA_ADM2.geojson". */
function largestLevel(): string {
  let best = ['', 0] as [string, number];
  for (const iso of readdirSync('data/earth')) {
    for (const f of readdirSync(join('data/earth', iso))) {
      const path = join('data/earth', iso, f);
      if (!/^[A-Z]{3}_ADM\d\.geojson$/.test(f)) continue;
      const size = statSync(path).size;
      if (size > best[1]) best = [path, size];
    }
  }
  return best[0];
}

/** Returns the plane the build would frame the level in: its outer rings' (as the tiles tests do). */
function planeFor(rings: LevelRings) {
  const outer = new OuterRings();
  for (let r = 0; r < rings.rings; r++) {
    if (rings.ringOuter.data[r] !== r) continue;
    const coordinates = [];
    for (let i = rings.ringStart.data[r]; i < rings.ringStart.data[r + 1]; i++)
      coordinates.push([rings.coords.data[2 * i], rings.coords.data[2 * i + 1]]);
    outer.add({ type: 'Polygon', coordinates: [coordinates] });
  }
  return planeOf(outer)!;
}

function measure(cut: () => { bytes: Buffer }): { cpu: number; ms: number; bytes: number } {
  const [cpu0, t0] = [process.cpuUsage(), performance.now()];
  const { bytes } = cut();
  const used = process.cpuUsage(cpu0);
  return { cpu: (used.user + used.system) / 1000, ms: performance.now() - t0, bytes: bytes.length };
}

console.log(`load average before: ${load()}`);
const path = largestLevel();
const { rings, properties } = await readMercatorLevel([path], {});
const plane = planeFor(rings);
console.log(`largest level: ${path} (${(statSync(path).size / 1e6).toFixed(2)} MB, ${rings.points} points)`);
const runs = { plane: [] as ReturnType<typeof measure>[], mercator: [] as ReturnType<typeof measure>[] };
measure(() => levelArchive(rings, plane, 'warm-up'));
measure(() => mercatorArchive(rings, properties, { name: 'warm-up' }));
for (let i = 0; i < REPEATS; i++) {
  for (const kind of i % 2 ? (['mercator', 'plane'] as const) : (['plane', 'mercator'] as const)) {
    runs[kind].push(
      kind === 'plane'
        ? measure(() => levelArchive(rings, plane, 'x'))
        : measure(() => mercatorArchive(rings, properties, { name: 'x' })),
    );
  }
}
const [p, m] = [runs.plane, runs.mercator].map((r) => ({
  cpu: median(r.map((x) => x.cpu)),
  ms: median(r.map((x) => x.ms)),
  bytes: r[0].bytes,
}));
console.log(
  `per-country tiles: ${p.cpu.toFixed(0)} ms CPU, ${p.ms.toFixed(0)} ms wall, ${(p.bytes / 1e6).toFixed(2)} MB (median of ${REPEATS})`,
);
console.log(
  `Web Mercator:      ${m.cpu.toFixed(0)} ms CPU, ${m.ms.toFixed(0)} ms wall, ${(m.bytes / 1e6).toFixed(2)} MB`,
);
console.log(
  `ratio:             ${(m.cpu / p.cpu).toFixed(2)}× CPU, ${(m.ms / p.ms).toFixed(2)}× wall (target ≤ 1)`,
);

if (existsSync('dist/earth')) {
  let [plain, merc, planeFiles, mercFiles] = [0, 0, 0, 0];
  for (const iso of readdirSync('dist/earth')) {
    for (const f of readdirSync(join('dist/earth', iso))) {
      const size = statSync(join('dist/earth', iso, f)).size;
      if (f.endsWith('.mercator.pmtiles')) [merc, mercFiles] = [merc + size, mercFiles + 1];
      else if (f.endsWith('.pmtiles')) [plain, planeFiles] = [plain + size, planeFiles + 1];
    }
  }
  const world = (f: string) => (existsSync(join('dist', f)) ? statSync(join('dist', f)).size / 1e6 : NaN);
  console.log(
    `dist/: per-country archives ${(plain / 1e6).toFixed(1)} MB in ${planeFiles}; Web Mercator ${(merc / 1e6).toFixed(1)} MB in ${mercFiles}`,
  );
  console.log(
    `dist/: world ${world('map-world.pmtiles').toFixed(2)} MB; Web Mercator world ${world('map-world.mercator.pmtiles').toFixed(2)} MB`,
  );
}
console.log(`load average after: ${load()}`);
