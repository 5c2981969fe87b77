// The tree `npm run bench:formats` builds: one country shaped like a real
// one (a small ADM0, a large ADM1 published as a single line, an ADM2 level
// with one feature per line split into parts by `geoshelf split`, previews
// by `geoshelf preview`), generated deterministically and kept in /tmp
// between runs (the generation and the two commands are setup, not timed).
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { measureGeoJSON } from '../build/measure/measure.ts';
import type { Manifest } from '../build/core/shared/manifest.ts';
import { seededRandom } from '../test/support/random.ts';
import { wigglyEdge } from './preview-data.ts';

type Point = [number, number];

const REPO = new URL('..', import.meta.url).pathname;
/** Bump when the generated tree changes, so a cached copy is remade. */
const TREE_VERSION = 1;
export const TREE = `/tmp/geoshelf-bench-formats/tree-v${TREE_VERSION}`;
const ISO3 = 'BEN';
const FOLDER = `data/earth/${ISO3}`;
/** Setup commands (split, preview) must finish within this, or the benchmark stops. */
const SETUP_TIMEOUT_MS = 15 * 60_000;

interface Grid {
  columns: number;
  rows: number;
  cell: [number, number]; // degrees, e.g. [1, 1]
  pointsPerEdge: number;
  seed: number;
}

/** Returns the cells' rings (counter-clockwise, closed) of a jittered grid over (-70, -40) with shared wiggly edges. */
function gridRings(grid: Grid): Point[][][] {
  const { columns, rows, cell, pointsPerEdge } = grid;
  const rand = seededRandom(grid.seed);
  const corners: Point[][] = [];
  for (let r = 0; r <= rows; r++) {
    corners.push([]);
    for (let c = 0; c <= columns; c++) {
      const jitter = r > 0 && r < rows && c > 0 && c < columns ? 0.3 : 0;
      corners[r].push([
        -70 + (c + (rand() - 0.5) * jitter) * cell[0],
        -40 + (r + (rand() - 0.5) * jitter) * cell[1],
      ]);
    }
  }
  const edge = (a: Point, b: Point) => wigglyEdge(a, b, pointsPerEdge, rand);
  const horizontal = corners.map((row) => row.slice(0, columns).map((_, c) => edge(row[c], row[c + 1])));
  const vertical = corners.slice(0, rows).map((row, r) => row.map((_, c) => edge(row[c], corners[r + 1][c])));
  const cells: Point[][][] = [];
  for (let r = 0; r < rows; r++) {
    cells.push([]);
    for (let c = 0; c < columns; c++) {
      cells[r].push([
        ...horizontal[r][c],
        ...vertical[r][c + 1].slice(1),
        ...horizontal[r + 1][c].slice().reverse().slice(1),
        ...vertical[r][c].slice().reverse().slice(1),
      ]);
    }
  }
  return cells;
}

/** An ADM1 code of the generated country, e.g. "BJ-C4" for the block in row 2, column 4. */
const adm1Code = (r: number, c: number) => `BJ-${String.fromCharCode(65 + r)}${c}`;

/** Returns one geoBoundaries-like feature as JSON text. */
function feature(level: string, n: number, name: string, extra: object, polygons: Point[][][]): string {
  return JSON.stringify({
    type: 'Feature',
    id: `${ISO3}:${level}:${n}`,
    properties: {
      shapeName: name,
      ...extra,
      shapeGroup: ISO3,
      shapeType: level,
      shapeID: `${ISO3}-${level}-${n}`,
    },
    geometry:
      polygons.length === 1
        ? { type: 'Polygon', coordinates: polygons[0] }
        : { type: 'MultiPolygon', coordinates: polygons },
  });
}

/** A small island south-west of (x, y): a 40-point circle. */
function island(x: number, y: number, radius: number, rand: () => number): Point[][] {
  const ring: Point[] = [];
  for (let i = 0; i < 40; i++) {
    const angle = (-i / 40) * 2 * Math.PI;
    const r = radius * (1 + 0.3 * rand());
    ring.push([
      Math.round((x + r * Math.cos(angle)) * 1e6) / 1e6,
      Math.round((y + r * Math.sin(angle)) * 1e6) / 1e6,
    ]);
  }
  ring.push(ring[0]);
  return [ring];
}

/**
 * Returns the three levels' text: ADM0 (one feature, ~2 MB), ADM1 (30
 * units over 6° × 5°, densely sampled borders and islands, ~100 MB, the
 * whole FeatureCollection on one line) and ADM2 (3,000 units, ~55 MB, one
 * feature per line, each naming its ADM1 in parentISO).
 */
function levels(): Record<'ADM0' | 'ADM1' | 'ADM2', string> {
  const rand = seededRandom(7);
  const adm0 = gridRings({ columns: 1, rows: 1, cell: [6, 5], pointsPerEdge: 20_000, seed: 1 });
  const adm0Text = feature('ADM0', 0, 'Benchmark', { shapeISO: ISO3 }, [[adm0[0][0]]]);
  const adm1 = gridRings({ columns: 6, rows: 5, cell: [1, 1], pointsPerEdge: 34_000, seed: 2 });
  const adm1Lines = adm1.flatMap((row, r) =>
    row.map((ring, c) => {
      const n = r * 6 + c;
      const [x, y] = ring[0];
      const islands =
        n % 3 === 0 ? [island(x + 0.05, y - 0.3, 0.01, rand), island(x + 0.2, y - 0.35, 0.004, rand)] : [];
      return feature('ADM1', n, `Region ${adm1Code(r, c)}`, { shapeISO: adm1Code(r, c) }, [
        [ring],
        ...islands,
      ]);
    }),
  );
  const adm2 = gridRings({ columns: 60, rows: 50, cell: [0.1, 0.1], pointsPerEdge: 190, seed: 3 });
  const adm2Lines = adm2.flatMap((row, r) =>
    row.map((ring, c) => {
      const n = r * 60 + c;
      const [x, y] = ring[0];
      const polygons = n % 7 === 0 ? [[ring], island(x + 0.005, y - 0.03, 0.004, rand)] : [[ring]];
      const parent = adm1Code(Math.floor(r / 10), Math.floor(c / 10));
      return feature('ADM2', n, `District ${r}-${c}`, { shapeISO: '', parentISO: parent }, polygons);
    }),
  );
  return {
    ADM0: `{"type":"FeatureCollection","features":[\n${adm0Text}\n]}\n`,
    ADM1: `{"type":"FeatureCollection","features":[${adm1Lines.join(',')}]}`, // one line, as many published files are
    ADM2: `{"type":"FeatureCollection","features":[\n${adm2Lines.join(',\n')}\n]}\n`,
  };
}

/** Runs `geoshelf ARGS…` as a child process; throws when it fails or outlives `timeoutMs` (killed). */
export function geoshelf(args: string[], timeoutMs: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('node', [join(REPO, 'bin/geoshelf.js'), ...args], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else
        reject(
          new Error(
            signal
              ? `geoshelf ${args.join(' ')}: killed after ${timeoutMs / 1000} s (a hang?)`
              : `geoshelf ${args.join(' ')}: exit ${code}: ${stderr}`,
          ),
        );
    });
  });
}

/**
 * Returns the root of the benchmark tree (data/earth/BEN/ with its
 * manifest, levels, ADM2 parts and previews), made on first use. Cached
 * conversions and builds are the caller's to remove.
 */
export async function benchmarkTree(): Promise<string> {
  const done = join(TREE, '.complete');
  if (existsSync(done)) return TREE;
  await rm(TREE, { recursive: true, force: true });
  await mkdir(join(TREE, FOLDER), { recursive: true });
  const text = levels();
  const datasets = [];
  for (const level of ['ADM0', 'ADM1', 'ADM2'] as const) {
    const path = `${FOLDER}/${ISO3}_${level}.geojson`;
    await writeFile(join(TREE, path), text[level]);
    const stats = await measureGeoJSON(join(TREE, path));
    datasets.push({
      level,
      path,
      bytes: stats.bytes,
      sha256: stats.sha256,
      features: stats.features,
      bbox: stats.bbox,
      geometry_types: stats.geometry_types,
      properties: stats.properties,
      license: 'public-domain',
    });
  }
  const manifest = {
    schema_version: 1,
    body: 'earth',
    iso_a3: ISO3,
    name: { en: 'Benchmark', es: 'Benchmark' },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: 'ok',
    source: {
      name: 'generated',
      url: 'https://example.org/',
      license: 'public-domain',
      retrieved: '2026-11-24',
    },
    datasets,
  };
  await writeFile(join(TREE, FOLDER, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  await geoshelf(['split', '--level', 'ADM2', '--root', TREE, ISO3], SETUP_TIMEOUT_MS);
  await geoshelf(['preview', '--root', TREE, ISO3], SETUP_TIMEOUT_MS);
  await writeFile(done, '');
  return TREE;
}

/** Returns every file the build converts (levels and parts, root-relative), from the tree's manifest. */
export function convertedFiles(root: string): string[] {
  const manifest = JSON.parse(readFileSync(join(root, FOLDER, 'manifest.json'), 'utf8')) as Manifest;
  return manifest.datasets.flatMap((d) => [
    ...(d.path ? [d.path] : []),
    ...(d.parts ?? []).map((p) => p.path),
  ]);
}
