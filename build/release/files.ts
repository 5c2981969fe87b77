// The files a release holds: every manifest and every file it lists, each
// with the sha256 validate measured (never a number the manifest states), as
// `release` records them and `build` compares them with the last release (to
// say whether the catalogue has unreleased changes).
import type { CheckedManifestFile } from '../manifest/validate.ts';
import type { ReleasedFile } from './ledger.ts';

/** Every file of the release: each manifest and every file it lists, with its measured sha256, sorted by path. */
export function releasedFiles(manifests: readonly CheckedManifestFile[]): ReleasedFile[] {
  const files = new Map<string, ReleasedFile>();
  for (const m of manifests) for (const f of m.files) files.set(f.path, f);
  return [...files.values()].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Returns whether two lists of files (sorted by path) are the same paths with the same sha256s. */
export function sameFiles(a: readonly ReleasedFile[], b: readonly ReleasedFile[]): boolean {
  return a.length === b.length && a.every((f, i) => f.path === b[i]!.path && f.sha256 === b[i]!.sha256);
}
