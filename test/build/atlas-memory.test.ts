// The atlas reads a level's units one feature at a time (build/site/atlas.ts):
// its memory does not grow with the level (issue 28 §1). A child process
// reads the units of one level, 6 MiB and then 24 MiB of GeoJSON (under
// MAX_UNITS_FILE_BYTES, so the full file is the units' source; its preview
// is what the map draws), with V8's old generation capped below what the
// larger level's parsed tree needs. Before, the file was parsed whole and
// its tree kept until the country was done: the 24 MiB level then ran out
// of heap, and a generated 0.3 GiB catalogue's atlas held 574 MB of heap
// for 95 MB live (docs/benchmarks.md, bench:catalogue).
import { spawnSync } from 'node:child_process';
import {
  mkdirSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  writeSync,
  closeSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundled } from '../support/bundle.ts';

/** V8's old generation for the child, MiB: the 24 MiB level's parsed tree alone needs more. */
const HEAP_MB = 48;
/** A child that has not finished by then is stuck. */
const CHILD_BOUND_MS = 60_000;
const LEVEL = 'data/earth/AAA/AAA_ADM1.geojson';
const PREVIEW = 'data/earth/AAA/preview/AAA_ADM1.preview.geojson';

let module: string;
const roots: string[] = [];

beforeAll(async () => {
  module = await bundled(new URL('../../build/site/atlas.ts', import.meta.url).pathname);
});

afterAll(() => {
  rmSync(dirname(module), { recursive: true, force: true });
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

/** Returns a ring of `n` positions around (x, y), as GeoJSON text. */
function ring(x: number, y: number, n: number): string {
  const points: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = 0.4 + 0.05 * Math.sin(7 * a);
    points.push(`[${(x + r * Math.cos(a)).toFixed(9)},${(y + r * Math.sin(a)).toFixed(9)}]`);
  }
  return `[${points.join(',')},${points[0]}]`;
}

/** Writes a level of about `bytes` (features of 2,000 positions each) and its one-feature preview; returns the root. */
function levelRoot(bytes: number): { root: string; features: number } {
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-atlas-memory-'));
  roots.push(root);
  mkdirSync(join(root, dirname(PREVIEW)), { recursive: true });
  const fd = openSync(join(root, LEVEL), 'w');
  writeSync(fd, '{"type":"FeatureCollection","features":[\n');
  let features = 0;
  for (let written = 0; written < bytes; features++) {
    const text = `${features ? ',\n' : ''}{"type":"Feature","properties":{"shapeName":"Unit ${features}","shapeISO":"AA-${features}"},"geometry":{"type":"Polygon","coordinates":[${ring(features % 100, Math.floor(features / 100), 2000)}]}}`;
    written += writeSync(fd, text);
  }
  writeSync(fd, ']}\n');
  closeSync(fd);
  const preview = `{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"shapeName":"All"},"geometry":{"type":"Polygon","coordinates":[${ring(0, 0, 8)}]}}]}`;
  writeFileSync(join(root, PREVIEW), preview);
  return { root, features };
}

/** Reads the atlas of the one-level country under `root` in a child with HEAP_MB of old generation; returns its units, or how it failed. */
function unitsInChild(root: string): { status: number | null; units?: number; stderr: string } {
  const manifest = {
    iso_a3: 'AAA',
    name: { en: 'Aland' },
    body: 'earth',
    datasets: [{ level: 'ADM1', path: LEVEL, bytes: statSync(join(root, LEVEL)).size, preview: PREVIEW }],
  };
  const script = `
    const { readAtlas } = await import(${JSON.stringify(module)});
    const loaded = [{ file: 'data/earth/AAA/manifest.json', manifest: ${JSON.stringify(manifest)} }];
    const { atlas } = await readAtlas(${JSON.stringify(root)}, loaded);
    console.log(atlas.get('data/earth/AAA/manifest.json').levels[0].units.length);`;
  const child = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: CHILD_BOUND_MS },
  );
  return { status: child.status, units: Number(child.stdout.trim()), stderr: child.stderr.slice(-400) };
}

describe('the atlas reads units one feature at a time: its memory does not grow with the level', () => {
  it.each([6, 24])(`a %i MiB level gives every unit within ${HEAP_MB} MiB of old generation`, (mib) => {
    const { root, features } = levelRoot(mib * 2 ** 20);
    const read = unitsInChild(root);
    expect(read.stderr).toBe('');
    expect(read).toMatchObject({ status: 0, units: features });
  });
});
