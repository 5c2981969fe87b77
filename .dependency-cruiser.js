// The layering of STYLE.md as rules. One ground floor, build/core/, which
// everything stands on; one direction between the two top folders, src/ →
// build/ (the CLI calls the pipeline; the server and the importer stand on
// the ground floor); the pipeline's folders in one order, each importing
// only those below it; the browser code apart. test/layering.test.ts cruises
// the repository with these rules (and checks each rule fires on a tree that
// breaks it), so `npm test` fails on an import that runs the wrong way;
// `npx depcruise bin build src scripts bench` prints the same verdict.

/** The folders cruised: everything but tests (which may import anything) and built output. */
export const CRUISED = ['bin', 'build', 'src', 'scripts', 'bench'];

/**
 * The pipeline's folders under build/, lowest first: each imports only the
 * ground floor and the folders before it. geojson/ is the one reader; geo/
 * the map projection, framing, antimeridian and topology several stages
 * share; coverage/ checks how a level's units fit together (and shares its
 * edges' topology); repair/ writes a level's repaired copy; simplify/ the
 * coverage's simplified copies, which
 * formats/ caches and publishes; output/ writes dist/ and keeps the build's
 * cache; catalogue/ plans every file of a catalogue, for `build` and
 * `release` alike; shard/ spreads `build` over machines and holds the steps
 * a single build shares with it; build/build.ts
 * (not a folder) wires them and is imported by the CLI only.
 */
export const STAGES = [
  'geojson',
  'geo',
  'output',
  'geometry',
  'measure',
  'identity',
  'coverage',
  'manifest',
  'repair',
  'simplify',
  'formats',
  'preview',
  'split',
  'tiles',
  'site',
  'catalogue',
  'release',
  'shard',
];

/** One rule per stage: it imports no later stage (src/ and build/build.ts have rules of their own). */
const stageRules = STAGES.map((stage, i) => ({
  name: `stage-order-${stage}`,
  comment: `build/${stage}/ imports only build/core/ and the stages before it: ${STAGES.slice(0, i).join(', ') || 'none'}.`,
  severity: 'error',
  from: { path: `^build/${stage}/` },
  to: {
    path: '^build/[^/]+/',
    pathNot: `^build/(core|${[stage, ...STAGES.slice(0, i)].join('|')})/`,
  },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
export default {
  forbidden: [
    {
      name: 'no-cli-import',
      comment:
        'src/cli/ parses flags and prints: only the entry points (bin/, scripts/) and tests import it. ' +
        'Stages return values and Problems; a user error is build/core/errors.ts UserError.',
      severity: 'error',
      from: { pathNot: '^(bin|scripts|test|src/cli)/' },
      to: { path: '^src/cli/' },
    },
    {
      name: 'build-imports-no-src',
      comment: 'One direction between the top folders: src/ stands on build/, never the other way.',
      severity: 'error',
      from: { path: '^build/' },
      to: { path: '^src/' },
    },
    {
      name: 'only-cli-wires',
      comment: 'build/build.ts wires the stages together: only the CLI (and scripts, benchmarks) call it.',
      severity: 'error',
      from: { path: '^(build|src)/', pathNot: '^src/cli/' },
      to: { path: '^build/build\\.ts$' },
    },
    {
      name: 'core-imports-core',
      comment:
        'build/core/ (errors, the reporter, paths, atomic writes, the published shapes) is the ground floor: ' +
        'it imports only itself.',
      severity: 'error',
      from: { path: '^build/core/' },
      to: { path: '^(build|src)/', pathNot: '^build/core/' },
    },
    {
      name: 'shared-imports-shared',
      comment:
        'build/core/shared/ is bundled into the browser code as well: it imports only itself (no Node builtin, no package).',
      severity: 'error',
      from: { path: '^build/core/shared/' },
      to: { pathNot: '^build/core/shared/' },
    },
    {
      name: 'browser-code-no-node',
      comment: 'src/client/ runs in the browser: no Node builtins.',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'client-imports-client-and-shared',
      comment:
        'src/client/ imports only browser code: itself and build/core/shared/ (no other build/, no packages).',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { pathNot: '^(src/client|build/core/shared)/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'service-stands-on-core',
      comment: 'src/server/ and src/locations/ use the ground floor only, never a pipeline stage.',
      severity: 'error',
      from: { path: '^src/(server|locations)/' },
      to: { path: '^build/', pathNot: '^build/core/' },
    },
    ...stageRules,
    {
      name: 'no-cycle',
      comment:
        'Modules that import each other (type-only imports included) cannot be read, tested or moved apart.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
  ],
  options: {
    // Type-only imports count: a type shared both ways is a cycle too.
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    // lib/ is compile output (bin/geoshelf.js loads the CLI from it); dist/ is built pages.
    exclude: { path: '^(lib|dist)/' },
  },
};
