// The validator's check that a dataset's preview still matches its data
// (./preview-compare.ts, cached by ./preview-cache.ts): one preview-stale
// problem per dataset, at its preview, a warning (an error when strict or for
// a release). Only files that measured as GeoJSON are read: a missing or
// malformed file is its own problem.
import type { Problem } from '../core/problem.ts';
import { METRES_PER_DEGREE } from '../core/shared/crs.ts';
import type { DatasetContext } from './dataset-context.ts';
import type { HashedFile } from './preview-cache.ts';

/** Returns the preview-stale problem of the dataset, if its preview (named right and usable) no longer matches its files. */
export async function checkPreviewMatches(context: DatasetContext): Promise<Problem[]> {
  const { dataset, previews, file, index, folder } = context;
  if (!previews || dataset.preview === undefined) return [];
  // The preview is made from the level's file, else from all its parts (build/preview/preview.ts).
  const paths = dataset.path !== undefined ? [dataset.path] : (dataset.parts ?? []).map((p) => p.path);
  const [preview, ...files] = await Promise.all([dataset.preview, ...paths].map((p) => usable(context, p)));
  if (!preview || files.length === 0 || !files.every((f) => f !== undefined)) return [];
  const stale = await previews.check({
    files: files.map((f) => f.file),
    preview: preview.file,
    properties: { data: [...new Set(files.flatMap((f) => f.properties))], preview: preview.properties },
    simplification: dataset.simplification,
    perDegree: METRES_PER_DEGREE[context.body],
  });
  if (!stale) return [];
  const more = stale.units - 1;
  const others = more > 0 ? `, and ${more} more unit${more === 1 ? ' differs' : 's differ'}` : '';
  return [
    {
      file,
      pointer: `/datasets/${index}/preview`,
      rule: 'preview-stale',
      severity: context.strict || context.previewsMustMatch ? 'error' : 'warning',
      message: `preview is stale: ${stale.first}${others}`,
      fix: ['preview', folder.split('/')[2]!], // "data/earth/CHL/" → CHL
    },
  ];
}

/** Returns a listed file that measured as GeoJSON, with its property names; else undefined. */
async function usable(
  { folder, data }: DatasetContext,
  path: string,
): Promise<{ file: HashedFile; properties: string[] } | undefined> {
  const found = await data.stats(folder, path);
  if (!('stats' in found)) return undefined;
  const state = await data.state(path);
  if (state.kind !== 'file') return undefined;
  return { file: { path, real: state.real, sha256: found.stats.sha256 }, properties: found.stats.properties };
}
