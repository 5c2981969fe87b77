// A worker thread's script: a TypeScript entry and what it imports, bundled
// by esbuild into one CommonJS script (a worker thread does not inherit the
// main thread's TypeScript loader). The bundle is kept in
// node_modules/.cache/geoshelf/ with the sha256 of every input, and reused
// while they are unchanged: bundling costs 55-75 ms (and an esbuild process)
// before the worker can start, checking the inputs about 1 ms.
import { createHash } from 'node:crypto';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { writeFileAtomic } from './atomic-write.ts';
import { fileURLToPath } from 'node:url';

// Found when first needed, never at import: this module is part of the
// bundles it makes, where import.meta.url does not exist.
const packageDir = () => fileURLToPath(new URL('../..', import.meta.url));

interface Cached {
  entry: string;
  inputs: Record<string, string>; // absolute path → sha256 of its bytes
  code: string;
}

/**
 * Returns the CommonJS bundle of `entry` (an absolute path to a .ts file),
 * from the cache in `cacheDir` (tests: their own) when its inputs are unchanged.
 */
export async function workerBundle(
  entry: string,
  cacheDir = join(packageDir(), 'node_modules', '.cache', 'geoshelf'),
): Promise<string> {
  const id = createHash('sha256').update(entry).digest('hex').slice(0, 16);
  const cacheFile = join(cacheDir, `${basename(entry, '.ts')}-${id}.json`);
  const cached = await readCached(cacheFile, entry);
  if (cached) return cached;
  const esbuild = createRequire(import.meta.url)('esbuild') as typeof import('esbuild');
  const built = await esbuild.build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    write: false,
    logLevel: 'silent',
    metafile: true,
    absWorkingDir: packageDir(),
  });
  const code = built.outputFiles[0]!.text;
  try {
    const inputs: Record<string, string> = {};
    for (const input of Object.keys(built.metafile.inputs)) {
      const path = resolve(packageDir(), input);
      inputs[path] = sha256(await readFile(path));
    }
    await mkdir(dirname(cacheFile), { recursive: true });
    await writeFileAtomic(cacheFile, JSON.stringify({ entry, inputs, code } satisfies Cached));
  } catch {
    // e.g. a read-only install: bundle again next time
  }
  return code;
}

async function readCached(cacheFile: string, entry: string): Promise<string | undefined> {
  try {
    const cached = JSON.parse(await readFile(cacheFile, 'utf8')) as Cached;
    if (cached.entry !== entry || typeof cached.code !== 'string') return undefined;
    for (const [path, hash] of Object.entries(cached.inputs)) {
      if (sha256(await readFile(path)) !== hash) return undefined;
    }
    return cached.code;
  } catch {
    return undefined; // absent, corrupt, or an input is gone
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
