// The one step from the TypeScript sources to running code. `npm run compile`
// (run by `npm ci` through `prepare`, by `npm pack`, and before the tests) writes lib/:
//   lib/src/cli/main.js                           the CLI, the server its serve command starts, esbuild
//   lib/build/**/*worker.js                       the worker threads' scripts
//   lib/chunks/                                   code those entries share
//   lib/manifest-validator.cjs                    the manifest schema, as ajv's standalone code
//   lib/client/                                   the browser code, bundled by vite
//   lib/sources.json                              what lib/ was made from (every input's sha256),
//                                                 and what it holds (every output's sha256)
// bin/geoshelf.js compares lib/sources.json with the sources and with lib/
// before it runs anything, and compiles again (saying so, in one line) when
// they differ: lib/ never runs stale, and a damaged lib/ repairs itself. An
// installed package ships lib/ without the sources: there lib/ is checked
// against its record alone. Plain JavaScript: it runs before any code is
// compiled. esbuild, vite and ajv are loaded only to compile.
import { hash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { removeLeftovers, takeLock } from './compile-lock.js';

export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const STAMP = 'sources.json';
const STAMP_VERSION = 3;

/** Every source folder: a file added to or removed from one of these makes lib/ stale. */
const SOURCE_DIRS = ['build', 'src'];
/** The scripts run as entry points (worker threads are started from their compiled file). */
const ENTRIES = [
  'src/cli/main.ts',
  'build/measure/worker.ts',
  'build/measure/hash-worker.ts',
  'build/geometry/worker.ts',
  'build/formats/formats-worker.ts',
  'build/tiles/tiles-worker.ts',
];
const SCHEMA = 'public/schema/manifest.v1.json';
/** The validators made from the schema, each at its JSON pointer (build/manifest/schema.ts uses them). */
const SCHEMA_FRAGMENTS = {
  manifest: '',
  body: '/properties/body',
  isoA3: '/properties/iso_a3',
  source: '/$defs/source',
  dataset: '/$defs/dataset',
};
const AJV_OPTIONS = { allErrors: true, verbose: true, strictTypes: false, code: { source: true } };
/** The tools whose versions are part of what lib/ is made from. */
const TOOLS = ['esbuild', 'vite', 'ajv', 'ajv-formats'];

/**
 * Returns why lib/ under `packageDir` is not the compiled form of the sources
 * as they are now (e.g. "build/geojson/scanner.ts changed"), or is not what
 * was compiled (e.g. "lib/src/cli/main.js is missing or damaged"), or
 * undefined when it is both. Stats every input and hashes every output
 * (about 1.3 MB): a few milliseconds. Without sources (an installed
 * package), lib/ is checked against its record alone.
 */
export function staleness(packageDir = PACKAGE_DIR) {
  const lib = join(packageDir, 'lib');
  let stamp;
  try {
    stamp = JSON.parse(readFileSync(join(lib, STAMP), 'utf8'));
  } catch {
    return existsSync(lib) ? `${join('lib', STAMP)} is missing or damaged` : 'lib/ has not been compiled yet';
  }
  if (stamp?.version !== STAMP_VERSION) return 'lib/ was made by another version of the compile step';
  if (![stamp.tools, stamp.inputs, stamp.outputs].every(isRecord)) return `${join('lib', STAMP)} is damaged`;
  const records = [...Object.values(stamp.inputs), ...Object.values(stamp.outputs)];
  if (!records.every(isRecord)) return `${join('lib', STAMP)} is damaged`;
  const why = hasSources(packageDir) ? sourcesChanged(packageDir, stamp) : undefined;
  if (why) return why;
  // Damage that keeps sizes (a file of zeros after a power loss) shows only in the bytes.
  for (const [file, record] of Object.entries(stamp.outputs)) {
    const path = join(lib, file);
    const same = statSync(path, { throwIfNoEntry: false })?.size === record.size;
    if (!same || sha256(readFileSync(path)) !== record.sha256) return `lib/${file} is missing or damaged`;
  }
  return undefined;
}

function isRecord(value) {
  return typeof value === 'object' && value !== null;
}

/** Returns whether the package holds the sources lib/ is compiled from (an installed package does not). */
export function hasSources(packageDir = PACKAGE_DIR) {
  return SOURCE_DIRS.some((dir) => existsSync(join(packageDir, dir)));
}

/** Returns why the stamp's tools and inputs are not those of `packageDir` now, or undefined. */
function sourcesChanged(packageDir, stamp) {
  const tools = toolVersions(packageDir);
  for (const [name, version] of Object.entries(stamp.tools)) {
    if (tools[name] !== version) {
      return `${name} is ${tools[name] ? `now ${tools[name]}` : 'not installed'}, lib/ was made with ${version}`;
    }
  }
  for (const file of sourceList(packageDir)) if (!(file in stamp.inputs)) return `${file} is new`;
  // A file whose size and mtime are those recorded is taken as unchanged; any
  // other is hashed (after a checkout, say), and if its bytes are the same,
  // its new mtime is recorded so the next run need not hash it again.
  let touched = false;
  for (const [file, record] of Object.entries(stamp.inputs)) {
    const path = `${packageDir}/${file}`;
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return `${file} is gone`;
    if (info.size === record.size && info.mtimeMs === record.mtimeMs) continue;
    if (sha256(readFileSync(path)) !== record.sha256) return `${file} changed`;
    Object.assign(record, { size: info.size, mtimeMs: info.mtimeMs });
    touched = true;
  }
  if (touched) saveStamp(join(packageDir, 'lib'), stamp);
  return undefined;
}

/** Writes lib/'s record atomically, or not at all (a read-only checkout just hashes again next time). */
function saveStamp(lib, stamp) {
  const temp = join(lib, `.${STAMP}.${process.pid}.tmp`);
  try {
    writeFileSync(temp, `${JSON.stringify(stamp, null, 1)}\n`);
    renameSync(temp, join(lib, STAMP));
  } catch {
    rmSync(temp, { force: true });
  }
}

/** Returns the key of what lib/ was made from (the sha256 of its record), e.g. for a build's fingerprint. */
export function compiledKey(packageDir = PACKAGE_DIR) {
  return sha256(readFileSync(join(packageDir, 'lib', STAMP)));
}

/**
 * Compiles lib/ when it is stale, and returns why it did (undefined when
 * lib/ was current). `say` is told why before the work starts, `onWait` what
 * it waits for when another process is compiling. Concurrent callers take
 * turns (a lock folder beside lib/), and whoever comes second finds lib/
 * current. Throws an Error with a one-line message when it cannot compile
 * (e.g. esbuild is not installed, or an installed package is damaged).
 */
export async function ensureCompiled({ packageDir = PACKAGE_DIR, say = () => {}, onWait = () => {} } = {}) {
  let why = staleness(packageDir);
  if (!why) {
    removeLeftovers(packageDir);
    return undefined;
  }
  if (!hasSources(packageDir))
    throw new Error(
      `${why}, and this installed copy of geoshelf has no sources to compile it from: reinstall it`,
    );
  const release = await takeLock(packageDir, { onWait });
  try {
    removeLeftovers(packageDir, { holding: true });
    why = staleness(packageDir); // another process may have compiled meanwhile
    if (!why) return undefined;
    say(why);
    await compile(packageDir);
    return why;
  } finally {
    release();
  }
}

/** Compiles lib/ whether or not it is current (`node bin/compile.js --force`), holding the lock. */
export async function compileNow({ packageDir = PACKAGE_DIR, onWait = () => {} } = {}) {
  const release = await takeLock(packageDir, { onWait });
  try {
    removeLeftovers(packageDir, { holding: true });
    await compile(packageDir);
  } finally {
    release();
  }
}

/**
 * Compiles every output into a new folder and then puts it in lib/'s place,
 * so lib/ is always either the old whole or the new whole. The caller holds
 * the lock (ensureCompiled, compileNow).
 */
async function compile(packageDir = PACKAGE_DIR) {
  const temp = join(packageDir, `.lib-${process.pid}.tmp`);
  rmSync(temp, { recursive: true, force: true });
  try {
    const [inputs, tools] = [new Set(sourceList(packageDir)), toolVersions(packageDir)];
    for (const name of TOOLS)
      if (!tools[name]) throw new Error(`cannot compile: ${name} is not installed (run npm ci)`);
    mkdirSync(temp);
    // Three tools with threads of their own: at once, each into its part of the folder.
    await Promise.all([
      compileNode(packageDir, temp, inputs),
      compileSchema(packageDir, temp, inputs),
      compileClient(packageDir, temp, inputs),
    ]);
    writeStamp(packageDir, temp, [...inputs].sort(), tools);
    const lib = join(packageDir, 'lib');
    const old = join(packageDir, `.lib-${process.pid}.old`);
    if (existsSync(lib)) renameSync(lib, old);
    renameSync(temp, lib);
    rmSync(old, { recursive: true, force: true });
  } finally {
    rmSync(temp, { recursive: true, force: true });
  }
}

/** The Node code: each entry and what it imports, ES modules with shared chunks, packages left as imports. */
async function compileNode(packageDir, out, inputs) {
  const { build } = await import('esbuild');
  const result = await build({
    absWorkingDir: packageDir,
    entryPoints: ENTRIES,
    outbase: '.',
    outdir: out,
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true, // each command (a dynamic import in main.ts) is its own chunk, loaded only when run
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked', // stacks name the .ts files (bin/geoshelf.js enables source maps)
    sourcesContent: false, // the maps point at the sources beside them: a fraction of the bytes to parse at start
    metafile: true,
    logLevel: 'silent',
  }).catch((error) => {
    throw new Error(`cannot compile: ${firstError(error)}`);
  });
  for (const input of Object.keys(result.metafile.inputs)) inputs.add(input.split(sep).join('/'));
}

/**
 * The manifest schema as ajv's standalone code, bundled with the ajv runtime
 * helpers and formats it requires into one CommonJS file: loading ajv and
 * compiling the schema at run time was a large part of every command's start.
 */
async function compileSchema(packageDir, out, inputs) {
  const require = createRequire(join(packageDir, 'package.json'));
  const { Ajv2020 } = require('ajv/dist/2020.js');
  const addFormats = require('ajv-formats');
  const standaloneCode = require('ajv/dist/standalone').default;
  const schema = JSON.parse(readFileSync(join(packageDir, SCHEMA), 'utf8'));
  const ajv = new Ajv2020(AJV_OPTIONS);
  addFormats(ajv);
  ajv.addSchema(schema);
  const refs = Object.fromEntries(
    Object.entries(SCHEMA_FRAGMENTS).map(([name, pointer]) => [name, `${schema.$id}#${pointer}`]),
  );
  const generated = join(out, '.schema.cjs');
  writeFileSync(generated, standaloneCode(ajv, refs));
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: packageDir,
    entryPoints: [generated],
    outfile: join(out, 'manifest-validator.cjs'),
    bundle: true,
    minify: true, // generated code nobody steps through: less to parse on every start
    format: 'cjs',
    platform: 'node',
    target: 'node20',
    logLevel: 'silent',
  });
  rmSync(generated);
  inputs.add(SCHEMA);
}

/** The browser code, bundled by vite with relative URLs so dist/ can live under any base path. */
async function compileClient(packageDir, out, inputs) {
  const { build } = await import('vite');
  const root = join(packageDir, 'src', 'client');
  await build({
    configFile: false,
    root,
    base: './', // chunks import each other relative to themselves: no base baked in
    publicDir: false,
    logLevel: 'silent',
    build: {
      outDir: join(out, 'client'),
      manifest: true,
      modulePreload: false,
      target: 'es2020',
      rolldownOptions: { input: join(root, 'main.ts') },
    },
  }).catch((error) => {
    throw new Error(`cannot compile src/client/: ${firstError(error)}`);
  });
  for (const file of listFiles(root)) inputs.add(`src/client/${file}`);
}

function writeStamp(packageDir, out, inputs, tools) {
  const records = inputs.map((file) => {
    const path = join(packageDir, file);
    const { size, mtimeMs } = statSync(path);
    return [file, { sha256: sha256(readFileSync(path)), size, mtimeMs }];
  });
  const outputs = Object.fromEntries(
    listFiles(out).map((file) => {
      const bytes = readFileSync(join(out, file));
      return [file, { size: bytes.length, sha256: sha256(bytes) }];
    }),
  );
  const stamp = { version: STAMP_VERSION, tools, inputs: Object.fromEntries(records), outputs };
  writeFileSync(join(out, STAMP), `${JSON.stringify(stamp, null, 1)}\n`);
}

/** Returns every file under the source folders, e.g. "build/core/files.ts". */
function sourceList(packageDir) {
  return SOURCE_DIRS.flatMap((dir) => listFiles(join(packageDir, dir)).map((file) => `${dir}/${file}`));
}

function toolVersions(packageDir) {
  const versions = {};
  for (const name of TOOLS) {
    try {
      versions[name] = JSON.parse(
        readFileSync(join(packageDir, 'node_modules', name, 'package.json'), 'utf8'),
      ).version;
    } catch {
      // not installed: staleness() and compile() say so
    }
  }
  return versions;
}

function listFiles(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

function sha256(bytes) {
  return hash('sha256', bytes, 'hex'); // one call: no stream object per file
}

/** Returns the first error of an esbuild or vite failure, as one line with its place. */
function firstError(error) {
  const first = error?.errors?.[0];
  if (first) {
    const at = first.location
      ? `${first.location.file}:${first.location.line}:${first.location.column}: `
      : '';
    return `${at}${first.text}`;
  }
  return String(error?.message ?? error).split('\n')[0];
}

// `node bin/compile.js`: compile when stale; `--force`: always.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const force = process.argv.includes('--force');
  const started = performance.now();
  try {
    const onWait = (text) => console.error(text);
    const why = force
      ? (await compileNow({ onWait }), 'forced')
      : await ensureCompiled({ say: (reason) => console.error(`compiling lib/ (${reason})…`), onWait });
    if (why) console.error(`compiled lib/ in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (error) {
    console.error(`compile: ${error.message}`);
    process.exitCode = 1;
  }
}
