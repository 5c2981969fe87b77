// The CLI's start path: its TypeScript sources bundled by esbuild into plain
// ES modules (one chunk per command, packages left as imports), kept in the
// tool cache under the sha256 of every file in build/ and src/. A run whose
// sources are unchanged imports the bundle: no TypeScript loader, and one
// module per command instead of dozens. tsx's loader cost ~0.1 s of every
// command's start (a hook thread, every module transformed and resolved
// through it), about a third of `validate`'s on a small tree.
//
// Plain JavaScript: it runs before any TypeScript loader. The cache is
// content-addressed, so concurrent first runs cannot disturb each other: each
// bundles into its own temporary folder and renames it into place; the first
// rename wins and the others use it. A folder in use is never replaced; old
// ones are removed only after a day unused.
import { createHash, randomBytes } from 'node:crypto';
import { readdirSync, readFileSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));
const STALE_MS = 24 * 3600 * 1000; // a bundle unused this long is removed

/**
 * Returns the URL of the bundled src/cli/main.ts of `packageDir` (made now
 * unless cached in `cacheDir`), or undefined when it cannot be made or kept
 * (e.g. a read-only install, or a syntax error that tsx will then report).
 */
export async function bundledCli(
  packageDir = PACKAGE_DIR,
  cacheDir = join(packageDir, 'node_modules', '.cache', 'geoshelf', 'cli'),
) {
  let key;
  try {
    key = sourcesKey(packageDir);
  } catch {
    return undefined;
  }
  const folder = join(cacheDir, key);
  const main = join(folder, 'main.mjs');
  if (isFile(main)) {
    touch(folder);
    return pathToFileURL(main);
  }
  const temp = join(cacheDir, `.${key}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await bundle(packageDir, temp);
    try {
      renameSync(temp, folder);
    } catch (error) {
      // Another run renamed the same bundle into place first: use that one.
      if (!isFile(main)) throw error;
      remove(temp);
    }
    removeStale(cacheDir, key);
    return pathToFileURL(main);
  } catch {
    remove(temp);
    return undefined;
  }
}

/**
 * The sha256 of every file's path and bytes under build/ and src/ (about 4 ms
 * for 130 files), this file's and esbuild's version: what the bundle is made from.
 */
function sourcesKey(packageDir) {
  const hash = createHash('sha256');
  hash.update(readFileSync(fileURLToPath(import.meta.url)));
  hash.update(`esbuild ${createRequire(import.meta.url)('esbuild/package.json').version}\0`);
  for (const dir of ['build', 'src']) {
    const files = readdirSync(join(packageDir, dir), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => join(entry.parentPath, entry.name))
      .sort();
    for (const file of files) hash.update(`${relative(packageDir, file)}\0`).update(readFileSync(file));
  }
  return hash.digest('hex').slice(0, 32);
}

async function bundle(packageDir, outdir) {
  const { build } = await import('esbuild');
  await build({
    absWorkingDir: packageDir,
    entryPoints: [join(packageDir, 'src/cli/main.ts')],
    entryNames: '[name]',
    chunkNames: 'chunks/[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    outdir,
    bundle: true,
    splitting: true, // each command's module (a dynamic import) is its own chunk, loaded only when run
    format: 'esm',
    platform: 'node',
    target: 'node20',
    packages: 'external',
    sourcemap: 'linked', // stacks name the .ts files (process.setSourceMapsEnabled in bin/geoshelf.js)
    logLevel: 'silent',
    plugins: [sourceUrls(packageDir)],
  });
}

/**
 * Gives each source file its own URL for `import.meta.url`: the sources find
 * files beside them (the schema, public/, worker entries) relative to where
 * they are, not to the bundle's chunk. Every occurrence in the text is
 * replaced, comments included; the sources use it only as that expression.
 */
function sourceUrls(packageDir) {
  return {
    name: 'source-urls',
    setup(build) {
      build.onLoad({ filter: /\.ts$/ }, (args) => {
        if (relative(packageDir, args.path).startsWith('..')) return undefined;
        const text = readFileSync(args.path, 'utf8');
        const url = JSON.stringify(pathToFileURL(args.path).href);
        return { contents: text.replaceAll('import.meta.url', url), loader: 'ts' };
      });
    },
  };
}

/** Removes bundles of other sources unused for a day (never the one just made). */
function removeStale(cacheDir, key) {
  let names;
  try {
    names = readdirSync(cacheDir);
  } catch {
    return;
  }
  for (const name of names) {
    if (name === key) continue;
    const path = join(cacheDir, name);
    try {
      if (Date.now() - statSync(path).mtimeMs > STALE_MS) remove(path);
    } catch {
      // removed meanwhile by another run
    }
  }
}

function remove(path) {
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // e.g. its folder could not be made in the first place
  }
}

function isFile(path) {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** Marks a bundle as used (its folder's mtime), so it is not removed as stale. */
function touch(folder) {
  try {
    const now = new Date();
    utimesSync(folder, now, now);
  } catch {
    // a read-only cache: nothing is removed from it either
  }
}
