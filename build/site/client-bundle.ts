// Bundles the browser code (src/client/) with vite, once per distinct input:
// the result is cached under the build cache by a hash of the sources, the
// base path and vite's version, so a no-op rebuild never starts vite. Vite
// runs in a child process: its ~200 MB then never adds to the memory of a
// build that is converting a large level at the same time.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { listFiles, PACKAGE_DIR } from '../core/files.ts';

const CLIENT_DIR = join(PACKAGE_DIR, 'src', 'client');

export interface ClientBundle {
  files: Map<string, Buffer>; // e.g. "assets/main-Bx3k9aQ1.js" → bytes
  script: string; // path of the entry script inside dist, e.g. "assets/main-Bx3k9aQ1.js"
  styles: string[]; // e.g. ["assets/main-C8f2a1bD.css"]
}

/** Returns the hash naming a bundle: sources of src/client/, the base and vite's version. */
async function bundleKey(base: string): Promise<string> {
  const hash = createHash('sha256');
  const vite = JSON.parse(await readFile(join(PACKAGE_DIR, 'node_modules/vite/package.json'), 'utf8')) as {
    version: string;
  };
  hash.update(`vite ${vite.version}\nbase ${base}\n`);
  for (const file of await listFiles(CLIENT_DIR)) {
    hash.update(`${file}\n`);
    hash.update(await readFile(join(CLIENT_DIR, file)));
  }
  return hash.digest('hex').slice(0, 16);
}

/** Reads a finished bundle folder (vite's output plus its .vite/manifest.json). */
async function readBundle(dir: string): Promise<ClientBundle> {
  const manifest = JSON.parse(await readFile(join(dir, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; css?: string[]; isEntry?: boolean }
  >;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error(`${dir}: vite manifest has no entry chunk`);
  const files = new Map<string, Buffer>();
  for (const file of await listFiles(dir)) {
    if (!file.startsWith('.vite/')) files.set(file, await readFile(join(dir, file)));
  }
  return { files, script: entry.file, styles: entry.css ?? [] };
}

/** Runs `vite.build(config)` in a child node process (cwd: the package, where vite resolves); throws with its output if it fails. */
async function runVite(config: object): Promise<void> {
  const script = `const { build } = await import('vite'); await build(JSON.parse(process.env.GEOSHELF_VITE_CONFIG));`;
  const child = spawn(process.execPath, ['--input-type=module', '-e', script], {
    cwd: PACKAGE_DIR,
    env: { ...process.env, GEOSHELF_VITE_CONFIG: JSON.stringify(config) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d));
  child.stderr.on('data', (d: Buffer) => (output += d));
  const code = await new Promise<number | null>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', resolve);
  });
  if (code !== 0) throw new Error(`vite build of src/client/ failed (exit ${code}):\n${output}`);
}

/**
 * Returns the client bundle for `base` (e.g. "/" or "/catalogue/"), building it
 * with vite into `cacheDir/client-<key>/` unless that folder already exists.
 */
export async function clientBundle(base: string, cacheDir: string): Promise<ClientBundle> {
  const dir = join(cacheDir, `client-${await bundleKey(base)}`);
  if (existsSync(join(dir, '.vite', 'manifest.json'))) return readBundle(dir);
  const temp = `${dir}.${process.pid}.tmp`;
  await rm(temp, { recursive: true, force: true });
  await mkdir(cacheDir, { recursive: true });
  const config = {
    configFile: false,
    root: CLIENT_DIR,
    base,
    publicDir: false, // public/ is copied by the build stage, with the rest of dist/
    logLevel: 'warn',
    build: {
      outDir: temp,
      emptyOutDir: true,
      manifest: true,
      modulePreload: false,
      target: 'es2020',
      rolldownOptions: { input: join(CLIENT_DIR, 'main.ts') },
    },
  };
  await runVite(config);
  await rm(dir, { recursive: true, force: true });
  await rename(temp, dir);
  return readBundle(dir);
}
