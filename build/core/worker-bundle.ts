// A worker thread's script: a TypeScript entry and what it imports, bundled
// by esbuild into one CommonJS script (a worker thread does not inherit the
// main thread's TypeScript loader). The bundle is kept in the tool cache
// (tool-cache.ts) with the sha256 of every input, and reused while they are
// unchanged: bundling costs 55-75 ms (and an esbuild process) before the
// worker can start, checking the inputs about 1 ms.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { basename, dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomic } from './atomic-write.ts';
import { toolCacheDir } from './tool-cache.ts';

// Found when first needed, never at import: this module is part of the
// bundles it makes, where import.meta.url does not exist.
const packageDir = () => fileURLToPath(new URL('../..', import.meta.url));

interface Cached {
  entry: string;
  inputs: Record<string, string>; // absolute path → sha256 of its bytes
  code: string;
}

/**
 * Returns the CommonJS bundle of `entry` (an absolute path to a .ts file):
 * at once from the cache in `cacheDir` (tests: their own) when its inputs are
 * unchanged, else a promise of it. The cache is read synchronously (about
 * 1 ms) on purpose: a caller about to scan a large file starts its worker at
 * once, whereas asynchronous reads would each wait behind the scan's chunks
 * and boot the worker a few hundred ms late.
 */
export function workerBundle(entry: string, cacheDir = toolCacheDir()): string | Promise<string> {
  const id = sha256(Buffer.from(entry)).slice(0, 16);
  const cacheFile = join(cacheDir, `${basename(entry, '.ts')}-${id}.json`);
  return readCached(cacheFile, entry) ?? bundle(entry, cacheFile);
}

async function bundle(entry: string, cacheFile: string): Promise<string> {
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

function readCached(cacheFile: string, entry: string): string | undefined {
  try {
    const cached = JSON.parse(readFileSync(cacheFile, 'utf8')) as Cached;
    if (cached.entry !== entry || typeof cached.code !== 'string') return undefined;
    for (const [path, hash] of Object.entries(cached.inputs)) {
      if (sha256(readFileSync(path)) !== hash) return undefined;
    }
    return cached.code;
  } catch {
    return undefined; // absent, corrupt, or an input is gone
  }
}

function sha256(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
