// Vitest: runs the test suite. (Vite bundles the catalogue's browser code in
// the compile step, bin/compile.js, with its own inline config.)
//
// Two projects. `quick` (`npm test`) is the loop a developer runs after each
// change. `long` (`npm run test:long`) holds what takes minutes: every page
// in Chromium, commands on real-sized trees, and the sweeps that compare us
// with GDAL and GEOS file by file. CI runs both (`npm run test:full`).
import { defineConfig } from 'vitest/config';

/** Files of the long project: each takes tens of seconds or more on 2 cores. */
const LONG = [
  'test/e2e/**/*.test.ts', // Chromium on built catalogues, and commands on 8–32 MiB trees
  'test/formats/readback.test.ts', // GDAL reads back every format for every hostile input
  'test/geometry/differential.test.ts', // GEOS judges every feature of data/ and the corpus
  'test/measure/differential.test.ts', // 300 generated files measured two ways (JSON.parse + turf)
  'test/geometry/adversarial.test.ts', // GEOS on 9 adversarial shapes; the indexes on 1,200 random geometries
  'test/identity/match.test.ts', // two vintages of the 3,142 U.S. counties matched, GEOS checking the areas
  'test/identity/overlap.test.ts', // the overlap kernel against GEOS on real and random pairs
  'test/coverage/oracle.test.ts', // GEOS (shapely ≥ 2.1) judges the coverage of real levels, clean and with defects injected
  'test/identity/nesting-oracle.test.ts', // GEOS checks the share of every unit outside its parent, real levels
  'test/tiles/tiles.test.ts', // real levels tiled, read back by the reference reader, every view's bytes
  'test/tiles/mercator-oracle.test.ts', // every Web Mercator tile of three real levels against the source: vertices, shared borders
  'test/compile.test.ts', // compiles lib/ again several times (esbuild and vite)
  'test/package.test.ts', // npm pack, npm install of the tarball, then validate/build/release/serve from it
  'test/release/copies.test.ts', // two releases, three runs of scripts/publish-cdn.sh against a stand-in rclone
  'test/release/unit-ids.test.ts', // builds released catalogues and reads every download's unit_id back with GDAL
  'test/simplify/oracle.test.ts', // GEOS judges the simplified U.S. counties and sample countries at every tolerance
  'test/repair/oracle.test.ts', // GEOS (shapely ≥ 2.1) judges repair's copy of a level with defects injected
  'test/release/model/model-fresh.test.ts', // 1,200 random edit scripts from a fresh seed, each feed against its truth
  'test/release/kill.test.ts', // release killed with SIGKILL at 20 moments of its run, each in a fresh child
  'test/release/model/tree-model-fresh.test.ts', // 640 tree scripts from a fresh seed, 40 of them through release itself
  'test/e2e/ledger-fuzz.test.ts', // every kind of ledger damage with 4 seeds, 40 random from a fresh seed, pages in Chromium
  'test/core/races-long.test.ts', // 5 races of two commands on one root, 10 runs each with random delays
  'test/locations/import-interrupted.test.ts', // imports killed at 5 moments, a read-only folder, a full disk: child processes
  'test/server/static-aborts-many.test.ts', // 1,000 downloads hung up mid-file (the quick project: 100)
  'test/server/linear-regex-tree.test.ts', // ESLint's regexp rules over src/server/ and src/locations/ (npm test's lint runs them too)
  'test/core/races.test.ts', // 3 races as real processes, each against its serial orders (the lock in process: core/lock.test.ts)
  'test/release/dist-edit.test.ts', // release, build, edit dist/ in place, build again: four CLI runs
  'test/server/npm-start.test.ts', // `npm start` itself (npm, sh, node): a busy port, a flag without --, SIGTERM; three npm processes and a build
  'test/release/publish-old-ledgers.test.ts', // ledgers of three earlier formats, each built or released twice
  'test/release/trust-pages.test.ts', // a country added, one described differently: two releases and a build each, pages read
  'test/formats/geoparquet-oracle.test.ts', // pyarrow, shapely ≥ 2 and pyproj read every level of the sample written as GeoParquet
  'test/formats/world-files-oracle.test.ts', // pyarrow, shapely ≥ 2 and pyproj read the world GeoParquet files of three bodies
  'test/geo/unit-facts-oracle.test.ts', // every unit's area against GeographicLib (pyproj) and label point against GEOS, real levels
  'test/build/atlas-memory.test.ts', // a 6 and a 24 MiB level read by the atlas in a child with a capped heap
  'test/simplify/copies-memory.test.ts', // the same for the simplified copies
  'test/preview/preview-memory.test.ts', // the same for a preview
];

export default defineConfig({
  test: {
    // Compiles lib/ when the sources changed (bin/compile.js): the code under
    // test starts worker threads from their compiled scripts.
    // Temporary folders in memory when the machine has /dev/shm (test/support/tmp.ts).
    globalSetup: ['test/support/compile.ts', 'test/support/tmp.ts'],
    // The long project's files wait more than they compute (a browser, child
    // processes, a server shutting down): four workers overlap those waits on
    // 2 cores (docs/benchmarks.md, npm test). No test asserts on time.
    maxWorkers: 4,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Each run transformed every module again (about 5 s of CPU of the quick
    // suite's 20 s of start-up): kept under node_modules/ by content instead.
    experimental: { fsModuleCache: true },
    restoreMocks: true,
    unstubEnvs: true,
    projects: [
      {
        extends: true,
        test: {
          name: 'quick',
          include: ['test/**/*.test.ts'],
          exclude: LONG,
          // One worker process runs many files and imports the shared modules
          // once: that halves the quick suite. Files must leave no state behind,
          // so mocks, spies and stubbed variables are restored after every test.
          isolate: false,
          // One worker per core: each worker imports and warms up the code under
          // test once, so a worker more costs CPU, and since the browser tests
          // left for the long project the quick files compute far more than they
          // wait (docs/benchmarks.md, npm test).
          maxWorkers: '100%',
        },
      },
      { extends: true, test: { name: 'long', include: LONG } },
    ],
  },
});
