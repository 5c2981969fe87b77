// The layering of the house style (../shared/STYLE.md) (src/ → build/<stage>/ in
// order → build/core/, browser code apart, no cycles), checked by dependency-cruiser with the rules of
// .dependency-cruiser.js: each rule against a small tree that breaks it (a
// rule that stopped matching fails here), then the repository itself.
// In-process: one cruise of the repository, a few small ones.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cruise, type ICruiseOptions, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';

const ROOT = join(import.meta.dirname, '..');
/** The repository's folders cruised: all but test/ (tests may import anything) and built output. */
const CRUISED = ['bin', 'build', 'src', 'scripts', 'bench'];

// Known cycles, while they last: each line must still occur, so that none can
// hide a new cycle (delete a line when the test says it is gone). Those of
// build/measure/ and build/geometry/ went with the one GeoJSON reader (build/geojson/).
const KNOWN: string[] = [];

let options: ICruiseOptions;
let trees: string;
beforeAll(async () => {
  options = await extractDepcruiseOptions(join(ROOT, '.dependency-cruiser.js'));
  trees = await mkdtemp(join(tmpdir(), 'geoshelf-layering-'));
});
afterAll(() => rm(trees, { recursive: true, force: true }));

/**
 * Returns each violation of the rules in `baseDir`'s `folders` as
 * "rule: from → to" (a cycle: its modules in order), then each cycle
 * between stage folders as "no-stage-cycle: A ⇄ B" (two stage folders).
 */
async function violations(baseDir: string, folders = CRUISED): Promise<string[]> {
  const present = folders.filter((f) => existsSync(join(baseDir, f)));
  // The repository's cruise is cached by content under .cache/ (as ESLint's
  // is): it parses every module again (about 6 s of CPU) only when one changed.
  // The cache also notes every other script under baseDir that it could
  // cruise, so test/ (never cruised here) is left out: editing a test would
  // otherwise throw the cache away.
  const repository = baseDir === ROOT;
  const cache = repository ? { folder: join(ROOT, '.cache/depcruise'), strategy: 'content' as const } : false;
  const exclude = repository ? { path: '^(lib|dist|test)/' } : options.exclude;
  const { output } = await cruise(present, { ...options, baseDir, cache, exclude });
  const result = output as ICruiseResult;
  const found = (result.summary.violations ?? []).map(({ rule, from, to, cycle }) =>
    cycle
      ? `${rule.name}: ${[from, ...cycle.map((c) => c.name)].join(' → ')}`
      : `${rule.name}: ${from} → ${to}`,
  );
  return [...found, ...stageCycles(result, present)];
}

/** Returns a module's stage folder: "build/site/pages/html.ts" → "build/site"; "build/build.ts" → "build". */
function stageOf(path: string): string {
  const [top, folder, ...rest] = path.split('/');
  return (top === 'build' || top === 'src') && rest.length > 0 ? `${top}/${folder}` : top;
}

/**
 * Returns the cycles between stage folders, whether or not any module is in
 * a cycle itself (e.g. geometry/a.ts → site/b.ts and site/c.ts → geometry/d.ts):
 * one line per group of stages that reach each other, sorted.
 */
function stageCycles(result: ICruiseResult, folders: string[]): string[] {
  const inTree = (path: string) => folders.some((f) => path.startsWith(`${f}/`));
  const edges = new Map<string, Set<string>>();
  for (const { source, dependencies } of result.modules) {
    if (!inTree(source)) continue;
    for (const { resolved } of dependencies) {
      const [from, to] = [stageOf(source), stageOf(resolved)];
      if (inTree(resolved) && from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
    }
  }
  /** Returns every stage `start` reaches through one import or more (itself only through a cycle). */
  const reach = (start: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [start];
    while (stack.length > 0) {
      for (const next of edges.get(stack.pop()!) ?? []) {
        if (seen.has(next)) continue;
        seen.add(next);
        stack.push(next);
      }
    }
    return seen;
  };
  const reaches = new Map([...edges.keys()].map((stage) => [stage, reach(stage)]));
  const groups = new Set<string>();
  for (const [stage, reached] of reaches) {
    if (!reached.has(stage)) continue;
    const group = [...reached].filter((other) => reaches.get(other)?.has(stage));
    groups.add(group.sort().join(' ⇄ '));
  }
  return [...groups].sort().map((group) => `no-stage-cycle: ${group}`);
}

/** Writes `files` (path → source) as a small tree of its own and returns its violations. */
async function treeViolations(name: string, files: Record<string, string>): Promise<string[]> {
  const base = join(trees, name);
  for (const [path, text] of Object.entries(files)) {
    await mkdir(dirname(join(base, path)), { recursive: true });
    await writeFile(join(base, path), text);
  }
  return (await violations(base, [...CRUISED, 'test'])).sort();
}

describe('each layering rule fails on a tree that breaks it', () => {
  it('no-cli-import: only bin/, scripts/ and test/ import src/cli/', async () => {
    const found = await treeViolations('cli', {
      'src/cli/command.ts': 'export const x = 1;\n',
      'src/cli/main.ts': "import { x } from './command.ts';\nexport const main = () => x;\n",
      'bin/geoshelf.js': "import { main } from '../src/cli/main.ts';\nmain();\n",
      'scripts/start.ts': "import { main } from '../src/cli/main.ts';\nmain();\n",
      'test/cli.test.ts': "import { x } from '../src/cli/command.ts';\nexport const y = x;\n",
      'build/manifest/load.ts': "import { x } from '../../src/cli/command.ts';\nexport const y = x;\n",
      'src/server/app.ts': "import type { main } from '../cli/main.ts';\nexport type M = typeof main;\n",
    });
    expect(found).toEqual([
      'build-imports-no-src: build/manifest/load.ts → src/cli/command.ts',
      'no-cli-import: build/manifest/load.ts → src/cli/command.ts',
      'no-cli-import: src/server/app.ts → src/cli/main.ts',
    ]);
  });

  it('build-imports-no-src: the pipeline never imports src/ (one direction between the top folders)', async () => {
    const found = await treeViolations('direction', {
      'src/server/log.ts': 'export const log = 1;\n',
      'src/cli/main.ts': "import { m } from '../../build/measure/measure.ts';\nexport const main = m;\n",
      'build/measure/measure.ts': "import { log } from '../../src/server/log.ts';\nexport const m = log;\n",
    });
    expect(found).toEqual(['build-imports-no-src: build/measure/measure.ts → src/server/log.ts']);
  });

  it('only-cli-wires: build/build.ts is called by the CLI only', async () => {
    const found = await treeViolations('wiring', {
      'build/build.ts': 'export const build = 1;\n',
      'src/cli/main.ts': "import { build } from '../../build/build.ts';\nexport const main = build;\n",
      'build/release/release.ts': "import { build } from '../build.ts';\nexport const r = build;\n",
    });
    expect(found).toEqual(['only-cli-wires: build/release/release.ts → build/build.ts']);
  });

  it('core-imports-core: build/core/ imports only itself', async () => {
    const found = await treeViolations('core', {
      'build/core/shared/api.ts': 'export type A = 1;\n',
      'build/core/errors.ts': 'export class UserError extends Error {}\n',
      'build/core/report.ts': [
        "import { readFile } from 'node:fs/promises';",
        "import type { A } from './shared/api.ts';",
        "import { UserError } from './errors.ts';",
        "import { measure } from '../measure/measure.ts';",
        "import { log } from '../../src/server/log.ts';",
        'export const r: [unknown, A?] = [readFile, UserError, measure, log];\n',
      ].join('\n'),
      'build/measure/measure.ts': 'export const measure = 1;\n',
      'src/server/log.ts': 'export const log = 1;\n',
    });
    expect(found).toEqual([
      'build-imports-no-src: build/core/report.ts → src/server/log.ts',
      'core-imports-core: build/core/report.ts → build/measure/measure.ts',
      'core-imports-core: build/core/report.ts → src/server/log.ts',
    ]);
  });

  it('stage-order: a pipeline folder imports only the folders before it in STAGES', async () => {
    const found = await treeViolations('order', {
      'build/geojson/read.ts': 'export const read = 1;\n',
      'build/site/site.ts': "import { read } from '../geojson/read.ts';\nexport const site = read;\n",
      'build/geometry/check.ts': "import { site } from '../site/site.ts';\nexport const c = site;\n",
      'build/geojson/scan.ts': "import { c } from '../geometry/check.ts';\nexport const s = c;\n",
    });
    expect(found).toEqual([
      'no-stage-cycle: build/geojson ⇄ build/geometry ⇄ build/site',
      'stage-order-geojson: build/geojson/scan.ts → build/geometry/check.ts',
      'stage-order-geometry: build/geometry/check.ts → build/site/site.ts',
    ]);
  });

  it('service-stands-on-core: the server and the importer use no pipeline stage', async () => {
    const found = await treeViolations('service', {
      'build/core/errors.ts': 'export class UserError extends Error {}\n',
      'build/manifest/load.ts': 'export const load = 1;\n',
      'src/locations/import.ts': [
        "import { UserError } from '../../build/core/errors.ts';",
        "import { load } from '../../build/manifest/load.ts';",
        'export const i = [UserError, load];\n',
      ].join('\n'),
    });
    expect(found).toEqual(['service-stands-on-core: src/locations/import.ts → build/manifest/load.ts']);
  });

  it('browser-code-no-node: src/client/ imports no Node builtin, not even a type', async () => {
    const found = await treeViolations('node', {
      'src/client/main.ts': "import { readFile } from 'node:fs';\nexport const r = readFile;\n",
      'src/client/view.ts': "import type { Stats } from 'node:fs';\nexport type S = Stats;\n",
    });
    expect(found).toEqual([
      'browser-code-no-node: src/client/main.ts → fs', // node:fs
      'browser-code-no-node: src/client/view.ts → fs',
    ]);
  });

  it('client-imports-client-and-shared: src/client/ imports nothing of the build but build/core/shared/', async () => {
    const found = await treeViolations('client', {
      'build/core/shared/api.ts': 'export type A = 1;\n',
      'src/client/style.css': 'body {}\n',
      'src/client/view.ts': 'export const v = 1;\n',
      'build/core/errors.ts': 'export class UserError extends Error {}\n',
      'src/server/log.ts': 'export const log = 1;\n',
      'src/client/main.ts': [
        "import './style.css';",
        "import { v } from './view.ts';",
        "import type { A } from '../../build/core/shared/api.ts';",
        "import { UserError } from '../../build/core/errors.ts';",
        "import { log } from '../server/log.ts';",
        'export const m: [unknown, A?] = [v, UserError, log];\n',
      ].join('\n'),
    });
    expect(found).toEqual([
      'client-imports-client-and-shared: src/client/main.ts → build/core/errors.ts',
      'client-imports-client-and-shared: src/client/main.ts → src/server/log.ts',
    ]);
  });

  it('shared-imports-shared: build/core/shared/ imports only itself: no Node, no other core, no browser code', async () => {
    const found = await treeViolations('shared', {
      'src/client/view.ts': 'export const v = 1;\n',
      'build/core/rules.ts': 'export const RULES = [];\n',
      'build/core/shared/fold.ts': "import { join } from 'node:path';\nexport const fold = join;\n",
      'build/core/shared/api.ts': [
        "import { fold } from './fold.ts';",
        "import { v } from '../../../src/client/view.ts';",
        "import { RULES } from '../rules.ts';",
        'export const a = [fold, v, RULES];\n',
      ].join('\n'),
    });
    expect(found).toEqual([
      'build-imports-no-src: build/core/shared/api.ts → src/client/view.ts',
      'core-imports-core: build/core/shared/api.ts → src/client/view.ts',
      'shared-imports-shared: build/core/shared/api.ts → build/core/rules.ts',
      'shared-imports-shared: build/core/shared/api.ts → src/client/view.ts',
      'shared-imports-shared: build/core/shared/fold.ts → path',
    ]);
  });

  it('no-cycle: modules that import each other, by a type-only import too', async () => {
    const found = await treeViolations('cycle', {
      'build/site/atlas.ts':
        "import { mapSource } from './maps.ts';\nexport interface A { m: typeof mapSource }\n",
      'build/site/maps.ts': "import type { A } from './atlas.ts';\nexport const mapSource = (a?: A) => a;\n",
    });
    expect(found).toEqual(['no-cycle: build/site/atlas.ts → build/site/maps.ts → build/site/atlas.ts']);
  });

  it('no-stage-cycle: stage folders that import each other, through files in no cycle themselves', async () => {
    const found = await treeViolations('stages', {
      'build/site/pages/page.ts': 'export const page = 1;\n',
      'build/site/site.ts': "import { check } from '../geometry/check.ts';\nexport const site = check;\n",
      'build/geometry/check.ts': 'export const check = 1;\n',
      'build/geometry/status.ts': "import { page } from '../site/pages/page.ts';\nexport const s = page;\n",
      'build/build.ts': "import { site } from './site/site.ts';\nexport const b = site;\n",
    });
    expect(found).toEqual([
      'no-stage-cycle: build/geometry ⇄ build/site',
      'stage-order-geometry: build/geometry/status.ts → build/site/pages/page.ts',
    ]);
  });

  it('a tree that keeps the layering passes', async () => {
    const found = await treeViolations('layered', {
      'bin/geoshelf.js': "import { main } from '../src/cli/main.ts';\nmain();\n",
      'src/cli/main.ts': "import { build } from '../../build/build.ts';\nexport const main = build;\n",
      'build/build.ts': "import { site } from './site/site.ts';\nexport const build = () => site;\n",
      'build/site/site.ts': "import { page } from './pages/page.ts';\nexport const site = page;\n",
      'build/site/pages/page.ts':
        "import { fold } from '../../core/shared/fold.ts';\nexport const page = fold;\n",
      'build/core/errors.ts': "import { fold } from './shared/fold.ts';\nexport const e = fold;\n",
      'build/core/shared/fold.ts': 'export const fold = 1;\n',
      'src/client/main.ts':
        "import { fold } from '../../build/core/shared/fold.ts';\nexport const m = fold;\n",
      'src/server/app.ts': "import { e } from '../../build/core/errors.ts';\nexport const a = e;\n",
    });
    expect(found).toEqual([]);
  });
});

describe('the repository keeps its layering', () => {
  let found: string[];
  beforeAll(async () => {
    found = await violations(ROOT);
  });

  it('no import breaks a rule of .dependency-cruiser.js, and no stage folders import each other', () => {
    expect(found.filter((v) => !KNOWN.includes(v))).toEqual([]);
  });

  it('every known cycle listed above still occurs (delete the lines of those that are gone)', () => {
    expect(KNOWN.filter((v) => !found.includes(v))).toEqual([]);
  });
});
