// Vitest: runs the test suite. (Vite bundles the catalogue's browser code in
// the compile step, bin/compile.js, with its own inline config.)
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Compiles lib/ when the sources changed (bin/compile.js): the code under
    // test starts worker threads from their compiled scripts.
    globalSetup: ['test/support/compile.ts'],
    // Many files wait more than they compute (a browser, child processes, a
    // server shutting down, a file watcher): four workers overlap those waits
    // on 2 cores (docs/benchmarks.md, npm test), and no test asserts on time.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
