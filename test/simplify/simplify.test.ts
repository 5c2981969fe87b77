// The simplified copies' guarantees on small shapes, in-process (the GEOS
// oracle on real data is oracle.test.ts): a border is simplified once for both
// units and every level that has it, no unit is lost, no line strays farther
// than the tolerance, and no removal runs a border across another unit.
import { describe, expect, it } from 'vitest';
import type { GeoFeature } from '../../build/geojson/level-features.ts';
import { BODY_RADIUS_M } from '../../build/core/shared/crs.ts';
import { coverageArcs } from '../../build/simplify/arcs.ts';
import { CoverageSimplifier } from '../../build/simplify/tpvw.ts';
import { ArcTexts, levelText, VertexTexts } from '../../build/simplify/write.ts';

type Ring = number[][];
const M = 1 / 111_195; // a metre in degrees of latitude (on the Earth's mean radius)

function unit(id: string, ...rings: Ring[]): GeoFeature {
  return { type: 'Feature', id, properties: { id }, geometry: { type: 'Polygon', coordinates: rings } };
}

/** Returns the outer ring of every feature of each level once simplified to `toleranceM`. */
function simplify(levels: GeoFeature[][], toleranceM: number): Ring[][] {
  const arcs = coverageArcs(levels);
  const simplifier = new CoverageSimplifier(arcs, BODY_RADIUS_M.earth);
  simplifier.simplify(toleranceM);
  const texts = new ArcTexts(arcs, simplifier, new VertexTexts(arcs));
  return levels.map((_, i) => {
    const { features } = JSON.parse(levelText(arcs, texts, i)) as { features: GeoFeature[] };
    return features.map((f) => (f.geometry!.coordinates as Ring[])[0]);
  });
}

/** A 0.1° square with a spike 5 km long and 2 m wide on its north side (5,000 m², far under 1 km²), and the spike's tip. */
function spikeSquare(): { tip: number[]; square: Ring } {
  const tip = [0.05, 0.1 + 5000 * M];
  const square: Ring = [
    [0, 0],
    [0.1, 0],
    [0.1, 0.1],
    [0.05 + 1 * M, 0.1],
    tip,
    [0.05 - 1 * M, 0.1],
    [0, 0.1],
    [0, 0],
  ];
  return { tip, square };
}

/**
 * A 0.1° square with a notch 300 m deep and 600 m wide in its north side
 * (90,000 m² < 1 km²), the notch's vertex, and a 20 m islet lying in the notch.
 */
function notchWithIslet(): { notch: number[]; square: Ring; islet: Ring } {
  const notch = [0.05, 0.1 - 300 * M];
  const square: Ring = [
    [0, 0],
    [0.1, 0],
    [0.1, 0.1],
    [0.05 + 300 * M, 0.1],
    notch,
    [0.05 - 300 * M, 0.1],
    [0, 0.1],
    [0, 0],
  ];
  const [cx, cy, d] = [0.05, 0.1 - 100 * M, 10 * M];
  const islet: Ring = [
    [cx - d, cy - d],
    [cx + d, cy - d],
    [cx + d, cy + d],
    [cx - d, cy + d],
    [cx - d, cy - d],
  ];
  return { notch, square, islet };
}

/** A wiggly line from (x, y0) to (x, y1) near the equator: n steps, ±amplitude metres east and west. */
function wiggle(x: number, y0: number, y1: number, n: number, amplitudeM: number): Ring {
  const line: Ring = [];
  for (let k = 0; k <= n; k++) {
    const dx = k === 0 || k === n ? 0 : (k % 2 ? 1 : -1) * amplitudeM * M;
    line.push([x + dx, y0 + ((y1 - y0) * k) / n]);
  }
  return line;
}

/** Returns the undirected segments of rings as keys, e.g. "0,0 1,0". */
function segments(rings: Ring[]): Set<string> {
  const out = new Set<string>();
  for (const ring of rings)
    for (let i = 0; i + 1 < ring.length; i++) {
      const [a, b] = [String(ring[i]), String(ring[i + 1])].sort();
      out.add(`${a} ${b}`);
    }
  return out;
}

const distinct = (ring: Ring) => new Set(ring.map(String)).size;
const twiceArea = (ring: Ring) =>
  ring.slice(1).reduce((s, p, i) => s + ring[i][0] * p[1] - p[0] * ring[i][1], 0);

describe('a shared border is simplified once', () => {
  // Two squares of about 11 km, their common border a zigzag of 200 steps, 30 m either side.
  const border = wiggle(0.1, 0, 0.1, 200, 30);
  const west = unit('W', [[0, 0], ...border, [0, 0.1], [0, 0]]);
  const east = unit('E', [...border, [0.2, 0.1], [0.2, 0], [0.1, 0]].reverse());

  it('both sides of a wiggly border get the very same simplified positions', () => {
    const [[w, e]] = simplify([[west, east]], 1000);
    const shared = [...segments([w])].filter((s) => segments([e]).has(s));
    const onBorder = (ring: Ring) => ring.filter((p) => p[0] > 0.05 && p[0] < 0.15 && p[1] > 0 && p[1] < 0.1);
    expect(onBorder(w).length).toBeLessThan(border.length / 4); // the zigzag was simplified…
    expect(onBorder(w).map(String).sort()).toEqual(onBorder(e).map(String).sort()); // …alike on both sides
    expect(shared.length).toBe(onBorder(w).length + 1);
  });

  it('an ADM1 border that is also an ADM2 border gets the same positions in both levels', () => {
    // ADM2 cuts each ADM1 unit in two at y = 0.05: a node in the middle of the ADM1 border.
    const half = (k: number) => border.findIndex((p) => p[1] >= 0.05 * k);
    const mid = half(1);
    const low = border.slice(0, mid + 1);
    const high = border.slice(mid);
    const cut = border[mid];
    const adm2 = [
      unit('WS', [[0, 0], ...low, [0, cut[1]], [0, 0]]),
      unit('WN', [[0, cut[1]], ...high, [0, 0.1], [0, cut[1]]]),
      unit('ES', [...low, [0.2, cut[1]], [0.2, 0], [0.1, 0]].reverse()),
      unit('EN', [...high, [0.2, 0.1], [0.2, cut[1]], cut].reverse()),
    ];
    const [adm1Rings, adm2Rings] = simplify([[west, east], adm2], 1000);
    const onBorder = (s: string) => s.split(' ').every((p) => Math.abs(Number(p.split(',')[0]) - 0.1) < 0.05);
    const coarse = [...segments(adm1Rings)].filter(onBorder);
    const fine = [...segments(adm2Rings)].filter(onBorder);
    expect(coarse.length).toBeLessThan(border.length / 4); // simplified…
    expect(coarse.length).toBeGreaterThan(0);
    expect(new Set(coarse)).toEqual(new Set(fine)); // …to the same segments in both levels
  });
});

describe('every unit survives', () => {
  it('an island smaller than the tolerance keeps a ring of three distinct vertices, not on a line', () => {
    // An octagon 40 m across, against a tolerance of 10 km.
    const island: Ring = [];
    for (let k = 0; k <= 8; k++) {
      const a = (2 * Math.PI * (k % 8)) / 8;
      island.push([10 + 20 * M * Math.cos(a), 10 + 20 * M * Math.sin(a)]);
    }
    const [[ring]] = simplify([[unit('I', island)]], 10_000);
    expect(distinct(ring)).toBe(3);
    expect(ring[0]).toEqual(ring[ring.length - 1]);
    expect(twiceArea(ring)).not.toBe(0);
  });
});

describe('the tolerance bounds how far a line moves', () => {
  it('a spike of small area but 5 km long stays at 1 km (Hausdorff distance ≤ tolerance)', () => {
    const { tip, square } = spikeSquare();
    const [[ring]] = simplify([[unit('S', square)]], 1000);
    expect(ring.map(String)).toContain(String(tip));
  });
});

describe('no removal runs a border across another unit', () => {
  it('a notch holding an island stays, though its area is under the tolerance', () => {
    const { notch, square, islet } = notchWithIslet();
    const [[ring]] = simplify([[unit('S', square), unit('I', islet)]], 1000);
    expect(ring.map(String)).toContain(String(notch));
    // …and the same square alone loses its notch: the islet is what keeps it.
    const [[alone]] = simplify([[unit('S', square)]], 1000);
    expect(alone.map(String)).not.toContain(String(notch));
  });
});

describe('rank: each vertex weighed by the tolerance at which it goes (previews)', () => {
  /** Returns the weight of each given point (a vertex of `levels`) once the coverage is ranked. */
  function weightsOf(levels: GeoFeature[][], points: number[][]): number[] {
    const arcs = coverageArcs(levels);
    const weights = new CoverageSimplifier(arcs, BODY_RADIUS_M.earth).rank();
    return points.map((p) => {
      const i = arcs.x.findIndex((x, k) => x === p[0] && arcs.y[k] === p[1]);
      expect(i, String(p)).toBeGreaterThanOrEqual(0);
      return weights[i];
    });
  }

  it('a spike 5 km long goes at a tolerance of 5 km at least, though its area is 5,000 m²', () => {
    const { tip, square } = spikeSquare();
    const [weight] = weightsOf([[unit('S', square)]], [tip]);
    expect(weight).toBeGreaterThanOrEqual(5000);
  });

  it('a notch holding an island weighs more than the same notch with no island in it', () => {
    const { notch, square, islet } = notchWithIslet();
    const [alone] = weightsOf([[unit('S', square)]], [notch]);
    const [held] = weightsOf([[unit('S', square), unit('I', islet)]], [notch]);
    expect(alone).toBeLessThan(1000);
    expect(held).toBeGreaterThan(alone);
  });

  it('every ring keeps three vertices that never go, not on a line', () => {
    const island: Ring = [];
    for (let k = 0; k <= 8; k++) {
      const a = (2 * Math.PI * (k % 8)) / 8;
      island.push([10 + 20 * M * Math.cos(a), 10 + 20 * M * Math.sin(a)]);
    }
    const weights = weightsOf([[unit('I', island)]], island.slice(0, 8));
    const kept = island.slice(0, 8).filter((_, k) => weights[k] === Infinity);
    expect(kept).toHaveLength(3);
    expect(twiceArea([...kept, kept[0]])).not.toBe(0);
  });
});
