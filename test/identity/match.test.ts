// Identity matching on real data: the U.S. counties of the Census 2015 and
// 2017 editions (independent simplifications: every line drawn anew, no
// county really changed), and the 2017 copy with known edits.
import { describe, expect, it } from 'vitest';
import { readLevelUnits, type LevelUnit } from '../../build/identity/level.ts';
import { matchUnits, type Change, type MatchResult } from '../../build/identity/match.ts';
import { DEFAULT_THRESHOLDS } from '../../build/identity/thresholds.ts';
import { intersectionArea } from '../../build/identity/overlap.ts';
import { hasShapely, skipOracle } from '../geometry/oracle.ts';
import { EDITS, vintages } from '../support/vintages.ts';
import { geos, ORACLE_BOUND_MS } from './oracle.ts';
import { METRES_PER_DEGREE } from '../../build/core/shared/crs.ts';

const v = vintages();
const units = (file: string) => readLevelUnits([file], 'src_shape_id');
const IGNORED = new Set(['shapeName', 'shapeISO', 'src_shape_id']);

function summary(olds: LevelUnit[], news: LevelUnit[], r: MatchResult) {
  const of = (type: Change['type']) => r.changes.filter((c) => c.type === type);
  const code = (list: LevelUnit[], i: number) => list[i].code;
  return {
    identities: r.identity.size,
    added: of('added').map((c) => code(news, (c as { new: number }).new)),
    removed: of('removed').map((c) => code(olds, (c as { old: number }).old)),
    renamed: of('renamed').map((c) => {
      const x = c as Extract<Change, { type: 'renamed' }>;
      return [code(news, x.new), x.from, x.to];
    }),
    recoded: of('recoded').map((c) => {
      const x = c as Extract<Change, { type: 'recoded' }>;
      return [x.from, x.to, x.by];
    }),
    attributes: of('attributes').length,
    merged: of('merged').map((c) => {
      const x = c as Extract<Change, { old: number[] }>;
      return [x.old.map((i) => code(olds, i)), x.new.map((i) => code(news, i))];
    }),
    split: of('split').map((c) => {
      const x = c as Extract<Change, { old: number[] }>;
      return [x.old.map((i) => code(olds, i)), x.new.map((i) => code(news, i))];
    }),
    boundary: (of('geometry') as Extract<Change, { type: 'geometry' }>[])
      .filter((c) => c.kind === 'boundary')
      .map((c) => code(news, c.new)),
    redigitised: (of('geometry') as Extract<Change, { type: 'geometry' }>[]).filter(
      (c) => c.kind === 'redigitised',
    ).length,
  };
}

describe('identity matching: two real vintages of the U.S. counties', () => {
  it('2015 → 2017: every county keeps its identity by code; almost every line is re-digitised, nothing else changed', async () => {
    const [olds, news] = await Promise.all([units(v.counties2015), units(v.counties2017)]);
    const s = summary(
      olds,
      news,
      matchUnits(olds, news, DEFAULT_THRESHOLDS, METRES_PER_DEGREE.earth, IGNORED),
    );
    expect(olds.length).toBe(3142);
    expect(s.identities).toBe(3142);
    expect([s.added, s.removed, s.renamed, s.recoded, s.merged, s.split, s.attributes]).toEqual([
      [],
      [],
      [],
      [],
      [],
      [],
      0,
    ]);
    // Independent drawings: nearly every geometry differs, and nearly all of it is re-digitisation,
    // each county judged against the noise of its neighbours (docs/releases.md: 42 of 3,142).
    expect(s.redigitised).toBeGreaterThan(3050);
    expect(s.boundary.length).toBeLessThanOrEqual(0.02 * 3142);
  });

  it('the re-digitisation limits can be overridden: fixed limits (k = 0) call most independent drawings boundary changes', async () => {
    const [olds, news] = await Promise.all([units(v.counties2015), units(v.counties2017)]);
    const fixed = { ...DEFAULT_THRESHOLDS, redigitiseKDistance: 0, redigitiseKArea: 0 };
    const s = summary(olds, news, matchUnits(olds, news, fixed, METRES_PER_DEGREE.earth, IGNORED));
    expect(s.identities).toBe(3142);
    expect(s.boundary.length).toBeGreaterThan(0.5 * 3142);
  });

  it('2017 → 2017 with known edits: exactly the rename, re-code, merge, split and moved boundary', async () => {
    const [olds, news] = await Promise.all([units(v.counties2017), units(v.counties2017Edited)]);
    const s = summary(
      olds,
      news,
      matchUnits(olds, news, DEFAULT_THRESHOLDS, METRES_PER_DEGREE.earth, IGNORED),
    );
    expect(s).toEqual({
      identities: 3139,
      added: [],
      removed: [],
      renamed: [[EDITS.rename.code, EDITS.rename.from, EDITS.rename.to]],
      recoded: [[EDITS.recode.from, EDITS.recode.to, 'name']],
      attributes: 0,
      merged: [[[EDITS.merge.into, EDITS.merge.absorbed], [EDITS.merge.into]]],
      split: [[[EDITS.split.code], EDITS.split.into]],
      boundary: [EDITS.boundary.loses, EDITS.boundary.gains],
      redigitised: 0,
    });
  });

  it('2015 → 2017 with known edits: the identity edits are found across independent drawings', async () => {
    const [olds, news] = await Promise.all([units(v.counties2015), units(v.counties2017Edited)]);
    const s = summary(
      olds,
      news,
      matchUnits(olds, news, DEFAULT_THRESHOLDS, METRES_PER_DEGREE.earth, IGNORED),
    );
    expect(s.renamed).toEqual([[EDITS.rename.code, EDITS.rename.from, EDITS.rename.to]]);
    expect(s.recoded).toEqual([[EDITS.recode.from, EDITS.recode.to, 'name']]);
    expect(s.merged).toEqual([[[EDITS.merge.into, EDITS.merge.absorbed], [EDITS.merge.into]]]);
    expect(s.split).toEqual([[[EDITS.split.code], EDITS.split.into]]);
    expect([s.added, s.removed]).toEqual([[], []]);
  });

  it('without a code: by name and overlap, and by name within the state where one side has no area', async () => {
    const [olds, news] = await Promise.all([
      readLevelUnits([v.counties2015]),
      readLevelUnits([v.counties2017]),
    ]);
    const r = matchUnits(olds, news, DEFAULT_THRESHOLDS, METRES_PER_DEGREE.earth, IGNORED);
    const of = (type: Change['type']) => r.changes.filter((c) => c.type === type).length;
    // The three cities with no area in 2015 match by name within their state.
    expect(r.identity.size).toBe(3142);
    expect([of('merged'), of('split'), of('recoded'), of('renamed'), of('added')]).toEqual([0, 0, 0, 0, 0]);
  });

  it.skipIf(skipOracle)(
    'the overlaps around the known edits agree with GEOS (shapely) to 1e-9 of the smaller unit',
    async () => {
      expect(hasShapely).toBe(true);
      const [olds, news] = await Promise.all([units(v.counties2017), units(v.counties2017Edited)]);
      const codes = new Set([EDITS.merge.into, EDITS.merge.absorbed, EDITS.split.code, ...EDITS.split.into]);
      for (const code of [EDITS.boundary.gains, EDITS.boundary.loses, EDITS.recode.from, EDITS.recode.to])
        codes.add(code);
      const pairs: [string, number, string, number][] = [];
      const ours: number[] = [];
      const scale: number[] = [];
      olds.forEach((a, i) => {
        news.forEach((b, j) => {
          if (!codes.has(a.code) && !codes.has(b.code)) return;
          if (!a.shape || !b.shape) return;
          const [p, q] = [a.shape.box, b.shape.box];
          if (p[0] > q[2] || q[0] > p[2] || p[1] > q[3] || q[1] > p[3]) return;
          pairs.push([v.counties2017, i, v.counties2017Edited, j]);
          ours.push(intersectionArea(a.shape, b.shape));
          scale.push(Math.min(a.shape.area, b.shape.area));
        });
      });
      const theirs = geos({ files: [v.counties2017, v.counties2017Edited], pairs }).pairs;
      expect(pairs.length).toBeGreaterThan(20);
      const worst = Math.max(...theirs.map((g, k) => (g === null ? 0 : Math.abs(ours[k]! - g) / scale[k]!)));
      expect(worst).toBeLessThan(1e-9);
    },
    ORACLE_BOUND_MS,
  );
});
