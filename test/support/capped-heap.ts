// What the tests that prove a stage's heap does not grow with the level
// share (test/build/atlas-memory.test.ts, test/simplify/copies-memory.test.ts,
// test/preview/preview-memory.test.ts; the long project runs them):
// a level of a given size written feature by feature into a fresh root, the
// module under test bundled for the children, and a child process with V8's
// old generation capped, running a script that prints one count.
import { spawnSync } from 'node:child_process';
import { closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { bundled } from './bundle.ts';

/** V8's old generation for the child, MiB: a 24 MiB level's parsed tree alone needs more. */
export const HEAP_MB = 48;
/** A child that has not finished by then is stuck. */
const CHILD_BOUND_MS = 60_000;

/** Returns a ring of `n` positions around (x, y), as GeoJSON text. */
export function ringText(x: number, y: number, n: number): string {
  const points: string[] = [];
  for (let i = 0; i < n; i++) {
    const a = (2 * Math.PI * i) / n;
    const r = 0.4 + 0.05 * Math.sin(7 * a);
    points.push(`[${(x + r * Math.cos(a)).toFixed(9)},${(y + r * Math.sin(a)).toFixed(9)}]`);
  }
  return `[${points.join(',')},${points[0]}]`;
}

/** Level roots made by levelRoot, removed by removeLevelRoots. */
const roots: string[] = [];

/**
 * Writes a level of about `bytes` at `path` (root-relative) in a new root,
 * features of 2,000 positions each; returns the root and its features.
 */
export function levelRoot(path: string, bytes: number): { root: string; features: number } {
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-capped-heap-'));
  roots.push(root);
  mkdirSync(join(root, dirname(path)), { recursive: true });
  const fd = openSync(join(root, path), 'w');
  writeSync(fd, '{"type":"FeatureCollection","features":[\n');
  let features = 0;
  for (let written = 0; written < bytes; features++) {
    const text = `${features ? ',\n' : ''}{"type":"Feature","properties":{"shapeName":"Unit ${features}","shapeISO":"AA-${features}"},"geometry":{"type":"Polygon","coordinates":[${ringText(features % 100, Math.floor(features / 100), 2000)}]}}`;
    written += writeSync(fd, text);
  }
  writeSync(fd, ']}\n');
  closeSync(fd);
  return { root, features };
}

/** Removes every root levelRoot made. */
function removeLevelRoots(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

/** Runs `script` (an ES module's text) in a child with HEAP_MB of old generation; returns the count it printed, or how it failed. */
export function countInCappedChild(script: string): { status: number | null; count: number; stderr: string } {
  const child = spawnSync(
    process.execPath,
    [`--max-old-space-size=${HEAP_MB}`, '--input-type=module', '-e', script],
    { encoding: 'utf8', timeout: CHILD_BOUND_MS },
  );
  return { status: child.status, count: Number(child.stdout.trim()), stderr: child.stderr.slice(-400) };
}

/**
 * Bundles the module `source` (a .ts file's path) for the children before
 * the file's tests, and removes it and every levelRoot after them; returns
 * the bundle's path once made.
 */
export function bundledForChildren(source: string): () => string {
  let module = '';
  beforeAll(async () => {
    module = await bundled(source);
  });
  afterAll(() => {
    if (module) rmSync(dirname(module), { recursive: true, force: true });
    removeLevelRoots();
  });
  return () => module;
}
