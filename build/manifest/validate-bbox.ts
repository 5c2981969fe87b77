// The validator's check of a listed GeoJSON file's own bbox members (rule
// bbox-member): RFC 7946 5 says a bbox, where present, holds the extent of its
// object's coordinates, and readers trust it (to frame a map, to index the
// file), so a stale one misplaces the data. The measurer reads every member
// (the collection's, each feature's and each geometry's) in its one pass and
// compares it with the plain min/max of the coordinates it covers, as the
// manifest's bbox is compared (spec 2.2). A warning: the data is still right;
// with --strict, an error. Data files and parts only: a preview is checked by
// size (it is a simplified copy whose bbox, in the published corpus, is often
// the dataset's, kept for framing the full data).
import type { Problem } from '../core/problem.ts';
import type { BboxMismatch } from '../measure/measure.ts';
import { show } from './schema.ts';
import type { DatasetContext } from './dataset-context.ts';

/** Returns the problems of the bbox members of `path`, in that file (none when it was reported already). */
export function checkBboxMembers(
  { data, strict }: Pick<DatasetContext, 'data' | 'strict'>,
  path: string,
  bboxes: BboxMismatch[],
): Problem[] {
  if (bboxes.length === 0 || !data.firstReport(path, 'bbox-member')) return [];
  return bboxes.map(({ pointer, stated, actual }) => ({
    file: path,
    pointer,
    rule: 'bbox-member',
    severity: strict ? 'error' : 'warning',
    message: bboxMessage(pointer, stated, actual),
  }));
}

/**
 * Returns what is wrong with the bbox member at `pointer` and how to fix it,
 * e.g. "is [0,0,1,1] but the file's coordinates span [-71.2,-26.05,-67,-17.5]
 * (RFC 7946 5: a bbox holds their extent): set it to that or remove it".
 */
export function bboxMessage(pointer: string, stated: number[] | null, actual: number[]): string {
  const of = pointer === '/bbox' ? 'file' : pointer.endsWith('/geometry/bbox') ? 'geometry' : 'feature';
  if (!actual.every((n) => Number.isFinite(n))) return `is given but the ${of} has no coordinates: remove it`;
  const extent = show(actual);
  if (stated === null) {
    return `is not an array of 4 numbers [west, south, east, north] (or 6, with heights): set it to ${extent}, the extent of the ${of}'s coordinates, or remove it`;
  }
  const heights = stated.length === 6;
  const east = heights ? stated[3]! : stated[2]!;
  // RFC 7946 5.2 lets a bbox across the antimeridian have west > east; a
  // manifest states plain min/max (spec 2.2), and so must the file to agree with it.
  const why =
    stated[0]! > east
      ? '; west > east is the antimeridian form of RFC 7946 5.2, but geoshelf wants plain min/max, as in the manifest'
      : ' (RFC 7946 5: a bbox holds their extent)';
  const target = heights ? [actual[0], actual[1], stated[2], actual[2], actual[3], stated[5]] : actual;
  return `is ${show(stated)} but the ${of}'s coordinates span ${extent}${why}: set it to ${show(target)} or remove it`;
}
