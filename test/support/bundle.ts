// A module of the sources bundled into plain JavaScript by esbuild (as
// bin/compile.js compiles lib/), for a child process a test starts: under
// tsx a child spent 0.5–1 s of CPU transforming before its first line.
import { build } from 'esbuild';
import { mkdirSync, mkdtempSync } from 'node:fs';
import { join } from 'node:path';

const PACKAGE = new URL('../../', import.meta.url).pathname;

/**
 * Returns the path of `source` (a .ts file of the repository) bundled into
 * one ES module, node_modules and Node's built-ins left as imports. Written
 * under node_modules/.cache/ in the package, since modules of build/core/
 * find the package by walking up from where they are; the caller removes
 * its folder (dirname of the path) when done.
 */
export async function bundled(source: string): Promise<string> {
  const dir = join(PACKAGE, 'node_modules/.cache/geoshelf/test-bundles');
  mkdirSync(dir, { recursive: true });
  const outfile = join(mkdtempSync(join(dir, 'bundle-')), 'module.mjs');
  await build({
    entryPoints: [source],
    bundle: true,
    packages: 'external',
    platform: 'node',
    format: 'esm',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}
