// The code the compile step (bin/compile.js) makes from these sources, in
// lib/ beside them: worker threads start from their compiled script, the
// manifest schema runs as generated code, the browser code is bundled. The
// binary checks lib/ is current before it runs; tests and benchmarks compile
// first (Vitest's global setup, the bench: scripts).
import { hash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PACKAGE_DIR } from './files.ts';

/** The compiled code's folder, e.g. "/work/geoshelf/lib". */
export const LIB_DIR = join(PACKAGE_DIR, 'lib');

/** Returns the compiled script of a source entry, e.g. "build/measure/worker.ts" → "<package>/lib/build/measure/worker.js". */
export function compiledScript(source: string): string {
  return join(LIB_DIR, source.replace(/\.ts$/, '.js'));
}

let version: { of: string | undefined } | undefined;

/**
 * Returns a hash of lib/sources.json, the compiled code's record of its
 * sources (undefined when there is none): what a cache of the code's own
 * results is kept with, so that other code works them out again.
 */
export function codeVersion(): string | undefined {
  if (!version) {
    try {
      version = { of: hash('sha256', readFileSync(join(LIB_DIR, 'sources.json')), 'hex') };
    } catch {
      version = { of: undefined };
    }
  }
  return version.of;
}
