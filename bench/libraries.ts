// `npm run bench:libraries`: the hand-written parts that a well-kept library
// could do, against that library, on the same input in the same run (issue 31
// §4). Each comment that names a library choice in the code cites these ratios
// (ours ÷ the library's: below 1 is faster). Best of RUNS, the machine being
// shared. Prints one line per comparison, then the load.
//   - CSV: src/locations/csv.ts against csv-parse, on a CSV made from the
//     real stations of ../shared/corpus/ubi-copec (quotes, commas, accents);
//   - the packed R-tree build/geometry/box-tree.ts against flatbush: build,
//     then window queries, on random boxes;
//   - the identity stage's index build/identity/box-index.ts against flatbush
//     as it is used: one level's units indexed by their polygons' boxes, then
//     every unit of the next vintage asking which units its polygons meet;
//   - the map projections of build/geo/map-plane.ts against d3-geo's raw
//     functions: time, and the largest difference (d3-geo is the tests' oracle);
//   - the browser's MVT decoder src/client/mvt.ts against @mapbox/vector-tile
//     on every tile of the sample USA's archives, and the minified size of our
//     tile reading (PMTiles reader + decoder) against the pmtiles and
//     @mapbox/vector-tile packages bundled the same way.
import { VectorTile } from '@mapbox/vector-tile';
import { parse as parseCsv } from 'csv-parse/sync';
import { buildSync } from 'esbuild';
import { createRequire } from 'node:module';
import Flatbush from 'flatbush';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PbfReader } from 'pbf';
import { BoxTree } from '../build/geometry/box-tree.ts';
import { BoxIndex } from '../build/identity/box-index.ts';
import type { Box, Shape } from '../build/identity/shape.ts';
import { rawProjection } from '../build/geo/map-plane.ts';
import { CsvParser } from '../src/locations/csv.ts';
import { decodeTile } from '../src/client/mvt.ts';
import { Archive } from '../src/client/pmtiles-reader.ts';
import { seededRandom } from '../test/support/random.ts';

const RUNS = 5;
type Raw = (lambda: number, phi: number) => [number, number];
// d3-geo ships no types (the tests load it the same way: test/support/vintages.ts).
const d3 = createRequire(import.meta.url)('d3-geo') as {
  geoEqualEarthRaw: Raw;
  geoAzimuthalEqualAreaRaw: Raw;
  geoRotation: (angles: [number, number]) => (p: [number, number]) => [number, number];
};
const { geoAzimuthalEqualAreaRaw, geoEqualEarthRaw, geoRotation } = d3;
const ROOT = new URL('..', import.meta.url).pathname;

/** Returns the fastest of RUNS runs of `f`, in milliseconds. */
function best(f: () => unknown): number {
  let min = Infinity;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    f();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

async function bestAsync(f: () => Promise<unknown>): Promise<number> {
  let min = Infinity;
  for (let r = 0; r < RUNS; r++) {
    const t = performance.now();
    await f();
    min = Math.min(min, performance.now() - t);
  }
  return min;
}

const line = (name: string, ours: number, theirs: number, unit = 'ms', extra = '') =>
  console.log(
    `${name}: ours ${ours.toFixed(1)} ${unit}, library ${theirs.toFixed(1)} ${unit}: ${(ours / theirs).toFixed(2)}×${extra}`,
  );

function csv(): void {
  const stations = JSON.parse(
    readFileSync(join(ROOT, '../shared/corpus/ubi-copec/estaciones.json'), 'utf8'),
  ) as Record<string, unknown>[];
  const columns = Object.keys(stations[0]!);
  const cell = (v: unknown) => {
    const s = typeof v === 'string' ? v : JSON.stringify(v ?? '');
    return /[",\n]/.test(s) ? `"${s.replaceAll('"', '""')}"` : s;
  };
  const rows = stations.map((s) => columns.map((c) => cell(s[c])).join(','));
  const body = rows.join('\n');
  let text = columns.join(',');
  while (text.length < 50e6) text += `\n${body}`;
  const chunks: string[] = [];
  for (let i = 0; i < text.length; i += 65_536) chunks.push(text.slice(i, i + 65_536));
  let ourRows = 0;
  const ours = best(() => {
    const parser = new CsvParser();
    ourRows = 0;
    chunks.forEach((c, i) => (ourRows += parser.push(c, i === chunks.length - 1).length));
  });
  let theirRows = 0;
  const theirs = best(() => {
    theirRows = (parseCsv(text, { relax_quotes: true, relax_column_count: true }) as unknown[]).length;
  });
  if (ourRows !== theirRows) throw new Error(`CSV: ${ourRows} rows against csv-parse's ${theirRows}`);
  line(`CSV, ${(text.length / 1e6).toFixed(0)} MB, ${ourRows.toLocaleString('en-US')} rows`, ours, theirs);
}

function rtree(): void {
  const n = 1_000_000;
  const random = seededRandom(31);
  const boxes = new Float64Array(4 * n);
  for (let i = 0; i < n; i++) {
    const [x, y] = [random() * 1000, random() * 1000];
    const [w, h] = [random() * 2, random() * 2];
    boxes.set([x, y, x + w, y + h], 4 * i);
  }
  const windows = Array.from({ length: 100_000 }, () => {
    const [x, y] = [random() * 1000, random() * 1000];
    return [x, y, x + 3, y + 3] as const;
  });
  let tree: BoxTree | undefined;
  let index: Flatbush | undefined;
  const ourBuild = best(() => (tree = new BoxTree(boxes)));
  const theirBuild = best(() => {
    index = new Flatbush(n);
    for (let i = 0; i < n; i++)
      index.add(boxes[4 * i]!, boxes[4 * i + 1]!, boxes[4 * i + 2]!, boxes[4 * i + 3]!);
    index.finish();
  });
  let ourHits = 0;
  let theirHits = 0;
  const ourQuery = best(() => {
    ourHits = 0;
    for (const [a, b, c, d] of windows) ourHits += tree!.query(a, b, c, d);
  });
  const theirQuery = best(() => {
    theirHits = 0;
    for (const [a, b, c, d] of windows) theirHits += index!.search(a, b, c, d).length;
  });
  if (ourHits !== theirHits) throw new Error(`R-tree: ${ourHits} hits against flatbush's ${theirHits}`);
  line('R-tree build, 1,000,000 boxes', ourBuild, theirBuild);
  line(`R-tree, 100,000 window queries (${ourHits.toLocaleString('en-US')} hits)`, ourQuery, theirQuery);
}

/**
 * The index of build/identity/box-index.ts against flatbush, as matching two
 * vintages uses it: 50,000 units of one to four polygons each, in a 1000 ×
 * 1000 plane (about a county's size against a country's), indexed once, then
 * each unit of a slightly moved copy asks for the units its polygons meet,
 * each unit once.
 */
function boxIndex(): void {
  const random = seededRandom(47);
  const unit = (): Box[] =>
    Array.from({ length: 1 + Math.floor(random() * 4) }, () => {
      const [x, y] = [random() * 995, random() * 995];
      return [x, y, x + 0.5 + random() * 4, y + 0.5 + random() * 4];
    });
  const shapes = Array.from({ length: 50_000 }, () => ({ partBoxes: unit() }) as unknown as Shape);
  const next = shapes.map((s) =>
    s.partBoxes.map((b): Box => [b[0] + 0.1, b[1] + 0.1, b[2] + 0.1, b[3] + 0.1]),
  );
  let ours: BoxIndex | undefined;
  let index: Flatbush | undefined;
  let owner: Int32Array | undefined; // flatbush item → unit
  const ourBuild = best(() => (ours = new BoxIndex(shapes)));
  const theirBuild = best(() => {
    const parts = shapes.reduce((n, s) => n + s.partBoxes.length, 0);
    index = new Flatbush(parts);
    owner = new Int32Array(parts);
    shapes.forEach((s, i) => s.partBoxes.forEach((b) => (owner![index!.add(b[0], b[1], b[2], b[3])] = i)));
    index.finish();
  });
  let ourHits = 0;
  let theirHits = 0;
  const ourQuery = best(() => {
    ourHits = 0;
    for (const boxes of next) ourHits += ours!.query(boxes).length;
  });
  const theirQuery = best(() => {
    theirHits = 0;
    const seen = new Int32Array(shapes.length).fill(-1);
    next.forEach((boxes, u) => {
      for (const b of boxes) {
        for (const item of index!.search(b[0], b[1], b[2], b[3])) {
          const i = owner![item]!;
          if (seen[i] !== u) {
            seen[i] = u;
            theirHits++;
          }
        }
      }
    });
  });
  if (ourHits !== theirHits)
    throw new Error(`box index: ${ourHits} units found against flatbush's ${theirHits}`);
  line('identity box index build, 50,000 units', ourBuild, theirBuild);
  line(
    `identity box index, 50,000 units' queries (${ourHits.toLocaleString('en-US')} found)`,
    ourQuery,
    theirQuery,
  );
}

function projections(): void {
  const n = 2_000_000;
  const random = seededRandom(32);
  const lon = Float64Array.from({ length: n }, () => random() * 360 - 180);
  const lat = Float64Array.from({ length: n }, () => random() * 170 - 85);
  const out = new Float64Array(2);
  const cases = [
    {
      name: 'Equal Earth',
      ours: rawProjection({ name: 'equal-earth' }),
      theirs: geoEqualEarthRaw,
      rotate: [0, 0],
    },
    {
      name: 'Lambert azimuthal equal-area at (-71, -35)',
      ours: rawProjection({ name: 'laea', lon0: -71, lat0: -35 }),
      theirs: geoAzimuthalEqualAreaRaw,
      rotate: [71, 35],
    },
  ];
  const RAD = Math.PI / 180;
  for (const c of cases) {
    const rotation = geoRotation(c.rotate as [number, number]);
    let sum = 0;
    const ours = best(() => {
      for (let i = 0; i < n; i++) {
        c.ours(lon[i]!, lat[i]!, out);
        sum += out[0]!;
      }
    });
    let worst = 0;
    const theirs = best(() => {
      for (let i = 0; i < n; i++) {
        const [l, f] = rotation([lon[i]!, lat[i]!]);
        const [x, y] = c.theirs(l * RAD, f * RAD);
        sum += x;
        if (i % 97 === 0) {
          c.ours(lon[i]!, lat[i]!, out);
          if (Math.abs(x) < 10) worst = Math.max(worst, Math.abs(out[0]! - x), Math.abs(out[1]! - y));
        }
      }
    });
    void sum;
    line(
      `${c.name}, 2,000,000 points`,
      ours,
      theirs,
      'ms',
      `; largest difference ${worst.toExponential(1)} (unit sphere)`,
    );
  }
}

async function tiles(): Promise<void> {
  const tmp = mkdtempSync(join(tmpdir(), 'geoshelf-bench-libraries-'));
  try {
    // The sample's largest country (USA: ADM0–ADM2, 3,000+ counties), built alone.
    execFileSync('mkdir', ['-p', join(tmp, 'data/earth')]);
    execFileSync('cp', ['-r', join(ROOT, 'data/earth/USA'), join(tmp, 'data/earth/')]);
    execFileSync(
      process.execPath,
      [join(ROOT, 'bin/geoshelf.js'), 'build', '--root', tmp, '--out', join(tmp, 'dist')],
      {
        stdio: 'ignore',
        timeout: 600_000,
      },
    );
    const archives: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (name.endsWith('.pmtiles')) archives.push(path);
      }
    };
    walk(join(tmp, 'dist/earth'));
    const buffers: Uint8Array[] = [];
    for (const path of archives) {
      const bytes = readFileSync(path);
      const archive = new Archive((offset, length) =>
        Promise.resolve(bytes.buffer.slice(bytes.byteOffset + offset, bytes.byteOffset + offset + length)),
      );
      // Down the pyramid from 0/0/0: a tile's children are looked for only under a tile that exists.
      let level: [number, number, number][] = [[0, 0, 0]];
      while (level.length > 0) {
        const next: [number, number, number][] = [];
        for (const [z, x, y] of level) {
          const tile = await archive.tile(z, x, y);
          if (!tile) continue;
          buffers.push(tile);
          for (const [dx, dy] of [
            [0, 0],
            [1, 0],
            [0, 1],
            [1, 1],
          ] as const)
            next.push([z + 1, 2 * x + dx, 2 * y + dy]);
        }
        level = next;
      }
    }
    let points = 0;
    const ours = best(() => {
      for (const b of buffers) points += decodeTile(b).pieces.length;
    });
    const theirs = best(() => {
      for (const b of buffers) {
        const layer = new VectorTile(new PbfReader(b)).layers.units;
        for (let i = 0; i < (layer?.length ?? 0); i++) {
          // The same product as ours: SVG path data (relative moves), which the map draws.
          const d: string[] = [];
          for (const ring of layer!.feature(i).loadGeometry()) {
            d.push(`M${ring[0]!.x} ${ring[0]!.y}`);
            for (let k = 1; k < ring.length; k++)
              d.push(`l${ring[k]!.x - ring[k - 1]!.x} ${ring[k]!.y - ring[k - 1]!.y}`);
            d.push('z');
          }
          points += d.join('').length;
        }
      }
    });
    void points;
    const kb = buffers.reduce((n, b) => n + b.length, 0) / 1024;
    line(`MVT decode to SVG path data, ${buffers.length} tiles (${kb.toFixed(0)} KB)`, ours, theirs);
    await bestAsync(() => Promise.resolve());
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function bundles(): void {
  const size = (contents: string) => {
    const out = buildSync({
      stdin: { contents, resolveDir: ROOT, loader: 'ts' },
      bundle: true,
      minify: true,
      write: false,
      format: 'esm',
      platform: 'browser',
    }).outputFiles[0]!.contents;
    return gzipSync(out).length / 1024;
  };
  const ours = size(
    `export { Archive } from './src/client/pmtiles-reader.ts'; export { decodeTile } from './src/client/mvt.ts';`,
  );
  const theirs = size(
    `export { PMTiles } from 'pmtiles'; export { VectorTile } from '@mapbox/vector-tile'; export { PbfReader } from 'pbf';`,
  );
  line('tile reading in the browser, minified and gzipped', ours, theirs, 'KB');
}

if (!existsSync(join(ROOT, 'lib')))
  throw new Error('run through npm run bench:libraries (it compiles first)');
csv();
rtree();
boxIndex();
projections();
await tiles();
bundles();
console.log(
  `load average ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}`,
);
