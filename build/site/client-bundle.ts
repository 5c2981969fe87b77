// The browser code (src/client/), as the compile step bundled it with vite
// into lib/client/ (bin/compile.js): with relative URLs between its chunks, so
// one bundle serves every base path. The build copies its files into
// dist/assets/ and links the entry script and its styles from every page.
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LIB_DIR } from '../core/compiled.ts';
import { listFiles } from '../core/files.ts';

const CLIENT_DIR = join(LIB_DIR, 'client');

export interface ClientBundle {
  files: Map<string, Buffer>; // e.g. "assets/main-Bx3k9aQ1.js" → bytes
  script: string; // path of the entry script inside dist, e.g. "assets/main-Bx3k9aQ1.js"
  styles: string[]; // e.g. ["assets/main-C8f2a1bD.css"]
}

/** Returns the compiled client bundle (vite's output, read through its .vite/manifest.json). */
export async function clientBundle(): Promise<ClientBundle> {
  const manifest = JSON.parse(await readFile(join(CLIENT_DIR, '.vite', 'manifest.json'), 'utf8')) as Record<
    string,
    { file: string; css?: string[]; isEntry?: boolean }
  >;
  const entry = Object.values(manifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error(`${CLIENT_DIR}: vite manifest has no entry chunk`);
  const files = new Map<string, Buffer>();
  for (const file of await listFiles(CLIENT_DIR)) {
    if (!file.startsWith('.vite/')) files.set(file, await readFile(join(CLIENT_DIR, file)));
  }
  return { files, script: entry.file, styles: entry.css ?? [] };
}
