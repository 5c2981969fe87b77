// The files a release holds: every manifest and every file it lists, each
// with its sha256, as `release` records them and `build` compares them with
// the last release (to say whether the catalogue has unreleased changes).
import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { runAll } from '../core/slots.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import type { ReleasedFile } from './ledger.ts';

/** Every file of the release: each manifest and every file it lists, with its sha256, sorted by path. */
export async function releasedFiles(root: string, manifests: LoadedManifest[]): Promise<ReleasedFile[]> {
  const files = new Map<string, ReleasedFile>();
  const previews: string[] = [];
  for (const { file, text, manifest } of manifests) {
    const bytes = Buffer.from(text); // the file's exact bytes: load.ts took them as valid UTF-8
    files.set(file, { path: file, sha256: sha256(bytes), bytes: bytes.length });
    for (const d of manifest.datasets) {
      // validate has recomputed these and found them equal to the files
      if (d.path) files.set(d.path, { path: d.path, sha256: d.sha256!, bytes: d.bytes! });
      for (const p of d.parts ?? []) files.set(p.path, { path: p.path, sha256: p.sha256, bytes: p.bytes });
      if (d.preview) previews.push(d.preview);
    }
  }
  await runAll(previews, 16, async (path) => {
    const bytes = await readFile(join(root, path));
    files.set(path, { path, sha256: sha256(bytes), bytes: bytes.length });
  });
  return [...files.values()].sort((a, b) => (a.path < b.path ? -1 : 1));
}

export function sameFiles(a: ReleasedFile[], b: ReleasedFile[]): boolean {
  return a.length === b.length && a.every((f, i) => f.path === b[i]!.path && f.sha256 === b[i]!.sha256);
}

function sha256(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
