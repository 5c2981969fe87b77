// Merges, splits and reorganisations (build/identity/components.ts) beside
// a unit that keeps its labels and all of its old shape: it keeps its ID,
// with a boundary change, however far it grew over neighbours that merged.
// On real counties: Vermont in the Census 2017 edition.
import { describe, expect, it } from 'vitest';
import { matchUnits } from '../../build/identity/match.ts';
import { DEFAULT_THRESHOLDS } from '../../build/identity/thresholds.ts';
import { cut, scale, union, type MP } from '../release/model/geometry.ts';
import { at, counties, unit, type Feature } from './counties.ts';
import { METRES_PER_DEGREE } from '../../build/core/shared/crs.ts';

const IGNORED = new Set(['shapeName', 'shapeISO', 'src_shape_id']);

/** Returns the changes when `grown` is scaled by `k` and `a`, `b` are merged into `a`'s labels. */
function growBesideMerge(list: Feature[], grown: string, k: number, a: string, b: string) {
  const olds = list.map((f) => unit(f));
  const merged = union(list[at(list, a)]!.geometry, list[at(list, b)]!.geometry);
  const news = list
    .filter((f) => f.properties.src_shape_id !== b)
    .map((f) => {
      const code = f.properties.src_shape_id;
      const g: MP = code === grown ? scale(f.geometry, k) : code === a ? merged : f.geometry;
      return unit(f, g);
    });
  return { olds, news, r: matchUnits(olds, news, DEFAULT_THRESHOLDS, METRES_PER_DEGREE.earth, IGNORED) };
}

describe('a unit that keeps its labels and its whole old shape keeps its ID beside a merge', () => {
  // Washington (50023) borders Orange (50017) and Caledonia (50005), which border each other.
  for (const k of [1.5, 2]) {
    it(`Washington scaled by ${k} while Orange and Caledonia merge: Washington is a boundary change, the others one merge`, () => {
      const vt = counties(2017, 'US-VT');
      const { olds, news, r } = growBesideMerge(vt, '50023', k, '50017', '50005');
      const code = (list: typeof olds, i: number) => list[i]!.code;
      const washington = news.findIndex((u) => u.code === '50023');
      expect(code(olds, r.identity.get(washington)!)).toBe('50023');
      const geometry = r.changes.find((c) => c.type === 'geometry' && c.new === washington);
      expect(geometry && 'kind' in geometry && geometry.kind).toBe('boundary');
      const components = r.changes.filter((c) => 'links' in c);
      expect(
        components.map((c) => ({
          type: c.type,
          old: (c.old as number[]).map((i) => code(olds, i)).sort(),
          new: (c.new as number[]).map((i) => code(news, i)).sort(),
        })),
      ).toEqual([{ type: 'merged', old: ['50005', '50017'], new: ['50017'] }]);
    });
  }

  it('Washington doubled while Caledonia splits in two: Washington is a boundary change, Caledonia one split', () => {
    const vt = counties(2017, 'US-VT');
    const olds = vt.map((f) => unit(f));
    const parts = cut(vt[at(vt, '50005')]!.geometry, Math.PI / 3, 0.3)!;
    const news = vt.flatMap((f) => {
      const code = f.properties.src_shape_id;
      if (code === '50023') return [unit(f, scale(f.geometry, 2))];
      if (code !== '50005') return [unit(f)];
      return parts.map((g, i) =>
        unit({
          properties: { ...f.properties, src_shape_id: `5000${i + 5}x`, shapeName: `Part ${i}` },
          geometry: g,
        }),
      );
    });
    const r = matchUnits(olds, news, DEFAULT_THRESHOLDS, METRES_PER_DEGREE.earth, IGNORED);
    const washington = news.findIndex((u) => u.code === '50023');
    expect(olds[r.identity.get(washington)!]!.code).toBe('50023');
    const components = r.changes.filter((c) => 'links' in c);
    expect(
      components.map((c) => ({
        type: c.type,
        old: (c.old as number[]).map((i) => olds[i]!.code),
        new: (c.new as number[]).map((i) => news[i]!.code).sort(),
      })),
    ).toEqual([{ type: 'split', old: ['50005'], new: ['50005x', '50006x'] }]);
  });
});
