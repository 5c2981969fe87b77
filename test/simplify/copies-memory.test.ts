// A country's simplified copies (build/simplify/copies.ts) read their levels
// one feature at a time: the rings go into the arc builder and only the
// properties are kept, so the heap does not grow with the levels (issue 28
// §1). A child process writes the copies of one level, 6 MiB and then 24 MiB
// of GeoJSON, with V8's old generation capped below what the larger level's
// parsed tree needs. Before, every level of the country was parsed whole and
// kept until the copies were written: the 24 MiB level then ran out of heap,
// and bench:formats' country (154 MB of levels) took 1.2 GB for its copies.
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundled } from '../support/bundle.ts';

/** V8's old generation for the child, MiB: the 24 MiB level's parsed tree alone needs more. */
const HEAP_MB = 48;
/** A child that has not finished by then is stuck. */
const CHILD_BOUND_MS = 60_000;
const LEVEL = 'data/earth/AAA/AAA_ADM1.geojson';

let module: string;
const roots: string[] = [];

beforeAll(async () => {
  module = await bundled(new URL('../../build/simplify/copies.ts', import.meta.url).pathname);
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

/** Writes a level of about `bytes` (features of 2,000 positions each); returns the root. */
function levelRoot(bytes: number): { root: string; features: number } {
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-copies-memory-'));
  roots.push(root);
  mkdirSync(join(root, dirname(LEVEL)), { recursive: true });
  const fd = openSync(join(root, LEVEL), 'w');
  writeSync(fd, '{"type":"FeatureCollection","features":[\n');
  let features = 0;
  for (let written = 0; written < bytes; features++) {
    const text = `${features ? ',\n' : ''}{"type":"Feature","properties":{"shapeName":"Unit ${features}","shapeISO":"AA-${features}"},"geometry":{"type":"Polygon","coordinates":[${ring(features % 100, Math.floor(features / 100), 2000)}]}}`;
    written += writeSync(fd, text);
  }
  writeSync(fd, ']}\n');
  closeSync(fd);
  return { root, features };
}

/** Writes the simplified copies of the level under `root` in a child with HEAP_MB of old generation; returns the features of its finest copy, or how it failed. */
function copiesInChild(root: string): { status: number | null; features?: number; stderr: string } {
  const script = `
    const { writeSimplifiedCopies } = await import(${JSON.stringify(module)});
    const { readFileSync } = await import('node:fs');
    const dir = ${JSON.stringify(join(root, 'copies'))};
    const made = await writeSimplifiedCopies(${JSON.stringify(root)}, [{ level: 'ADM1', stem: 'AAA_ADM1', sources: [${JSON.stringify(LEVEL)}] }], dir, 6371008.8);
    console.log(JSON.parse(readFileSync(dir + '/' + made[0].file, 'utf8')).features.length);`;
  const child = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: CHILD_BOUND_MS },
  );
  return { status: child.status, features: Number(child.stdout.trim()), stderr: child.stderr.slice(-400) };
}

describe('the simplified copies read their levels one feature at a time: the heap does not grow with the level', () => {
  it.each([6, 24])(`a %i MiB level gives its copies within ${HEAP_MB} MiB of old generation`, (mib) => {
    const { root, features } = levelRoot(mib * 2 ** 20);
    const made = copiesInChild(root);
    expect(made.stderr).toBe('');
    expect(made).toMatchObject({ status: 0, features });
  });
});
