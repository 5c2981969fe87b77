// The code the compile step (bin/compile.js) makes from these sources, in
// lib/ beside them: worker threads start from their compiled script, the
// manifest schema runs as generated code, the browser code is bundled. The
// binary checks lib/ is current before it runs; tests and benchmarks compile
// first (Vitest's global setup, the bench: scripts).
import { join } from 'node:path';
import { PACKAGE_DIR } from './files.ts';

/** The compiled code's folder, e.g. "/work/geoshelf/lib". */
export const LIB_DIR = join(PACKAGE_DIR, 'lib');

/** Returns the compiled script of a source entry, e.g. "build/measure/worker.ts" → "<package>/lib/build/measure/worker.js". */
export function compiledScript(source: string): string {
  return join(LIB_DIR, source.replace(/\.ts$/, '.js'));
}
