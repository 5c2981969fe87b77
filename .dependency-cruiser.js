// The layering of STYLE.md as rules: src/cli/ → build/<stage>/ → build/core/,
// browser code apart. test/layering.test.ts cruises the repository with these
// rules (and checks each rule fires on a tree that breaks it), so `npm test`
// fails on an import that runs the wrong way; `npx depcruise bin build src
// scripts bench` prints the same verdict. Cycles between stage folders (a
// stage's modules importing each other's, through any files) are checked
// in the test too: dependency-cruiser's folder scope sees build/site/pages/
// apart from build/site/ rather than as one stage.

/** The folders cruised: everything but tests (which may import anything) and built output. */
export const CRUISED = ['bin', 'build', 'src', 'scripts', 'bench'];

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
      name: 'core-imports-no-stage',
      comment:
        'build/core/ (errors, the reporter, paths, atomic writes, slots) sits under every stage: ' +
        'it imports only itself and the published shapes of src/shared/.',
      severity: 'error',
      from: { path: '^build/core/' },
      to: { path: '^(build|src)/', pathNot: '^(build/core|src/shared)/' },
    },
    {
      name: 'browser-code-no-node',
      comment: 'src/client/ runs in the browser and src/shared/ is bundled into it: no Node builtins.',
      severity: 'error',
      from: { path: '^src/(client|shared)/' },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'client-imports-client-and-shared',
      comment: 'src/client/ imports only browser code: itself and src/shared/ (no build/, no packages).',
      severity: 'error',
      from: { path: '^src/client/' },
      to: { pathNot: '^src/(client|shared)/', dependencyTypesNot: ['core'] },
    },
    {
      name: 'shared-imports-shared',
      comment:
        'src/shared/ is imported by the build and by the browser code alike, so it imports neither: only itself.',
      severity: 'error',
      from: { path: '^src/shared/' },
      to: { pathNot: '^src/shared/', dependencyTypesNot: ['core'] },
    },
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
