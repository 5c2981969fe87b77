// Vitest: runs the test suite. (Vite bundles the catalogue's browser code from
// build/client-bundle.ts, with its own inline config: base, entry and cache there.)
import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
