// The committed sample data of Mars and the Moon (data/mars/MCQ/, data/moon/LQS/)
// is what scripts/sample-data/quadrangles.ts generates, and what the USGS
// publishes: the charts' codes, names and boxes, tiling the whole sphere.
// Numbers against manifests are `geoshelf validate`'s job (test/sample-data/
// data-earth.test.ts and the corpus tests run it over data/).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { MARS, MOON, quadText, type Scheme } from '../../scripts/sample-data/quadrangles.ts';
import { hasShapely } from '../geometry/oracle.ts';

const ROOT = join(import.meta.dirname, '../..');
const fileOf = (s: Scheme) => join(ROOT, `data/${s.body}/${s.folder}/${s.folder}_QUAD.geojson`);

interface Feature {
  id: string;
  properties: { shapeName: string; code: string };
  geometry: { type: string; coordinates: number[][][] };
}
const featuresOf = (s: Scheme) =>
  (JSON.parse(readFileSync(fileOf(s), 'utf8')) as { features: Feature[] }).features;

// The published lists, written here in EAST longitude 0…360 as the USGS's
// newer tables give them (Mars's in the script are in west longitude, so the
// conversion is checked, not copied): [code, name, south, north, from °E, to °E].
type Row = [string, string, number, number, number, number];
const MC: Row[] = [
  ['MC-01', 'Mare Boreum', 65, 90, 0, 360],
  ['MC-02', 'Diacria', 30, 65, 180, 240],
  ['MC-03', 'Arcadia', 30, 65, 240, 300],
  ['MC-04', 'Mare Acidalium', 30, 65, 300, 360],
  ['MC-05', 'Ismenius Lacus', 30, 65, 0, 60],
  ['MC-06', 'Casius', 30, 65, 60, 120],
  ['MC-07', 'Cebrenia', 30, 65, 120, 180],
  ['MC-08', 'Amazonis', 0, 30, 180, 225],
  ['MC-09', 'Tharsis', 0, 30, 225, 270],
  ['MC-10', 'Lunae Palus', 0, 30, 270, 315],
  ['MC-11', 'Oxia Palus', 0, 30, 315, 360],
  ['MC-12', 'Arabia', 0, 30, 0, 45],
  ['MC-13', 'Syrtis Major', 0, 30, 45, 90],
  ['MC-14', 'Amenthes', 0, 30, 90, 135],
  ['MC-15', 'Elysium', 0, 30, 135, 180],
  ['MC-16', 'Memnonia', -30, 0, 180, 225],
  ['MC-17', 'Phoenicis Lacus', -30, 0, 225, 270],
  ['MC-18', 'Coprates', -30, 0, 270, 315],
  ['MC-19', 'Margaritifer Sinus', -30, 0, 315, 360],
  ['MC-20', 'Sinus Sabaeus', -30, 0, 0, 45],
  ['MC-21', 'Iapygia', -30, 0, 45, 90],
  ['MC-22', 'Mare Tyrrhenum', -30, 0, 90, 135],
  ['MC-23', 'Aeolis', -30, 0, 135, 180],
  ['MC-24', 'Phaethontis', -65, -30, 180, 240],
  ['MC-25', 'Thaumasia', -65, -30, 240, 300],
  ['MC-26', 'Argyre', -65, -30, 300, 360],
  ['MC-27', 'Noachis', -65, -30, 0, 60],
  ['MC-28', 'Hellas', -65, -30, 60, 120],
  ['MC-29', 'Eridania', -65, -30, 120, 180],
  ['MC-30', 'Mare Australe', -90, -65, 0, 360],
];
// The lunar list is published in −180…180 east; 360 is added to negative bounds here.
const LQ_NAMED: Record<string, string> = {
  LQ10: 'Marius',
  LQ11: 'Copernicus',
  LQ18: 'Grimaldi',
  LQ19: 'Mare Nubium',
  LQ29: 'Planck',
  LQ30: 'Lunar South Pole',
};
const LQ: Row[] = (
  [
    [65, 90, [[-180, 180]]],
    [
      30,
      65,
      [
        [-180, -120],
        [-120, -60],
        [-60, 0],
        [0, 60],
        [60, 120],
        [120, 180],
      ],
    ],
    [
      0,
      30,
      [
        [-180, -135],
        [-135, -90],
        [-90, -45],
        [-45, 0],
        [0, 45],
        [45, 90],
        [90, 135],
        [135, 180],
      ],
    ],
    [
      -30,
      0,
      [
        [-180, -135],
        [-135, -90],
        [-90, -45],
        [-45, 0],
        [0, 45],
        [45, 90],
        [90, 135],
        [135, 180],
      ],
    ],
    [
      -65,
      -30,
      [
        [-180, -120],
        [-120, -60],
        [-60, 0],
        [0, 60],
        [60, 120],
        [120, 180],
      ],
    ],
    [-90, -65, [[-180, 180]]],
  ] as [number, number, [number, number][]][]
)
  .flatMap(([s, n, lons]) => lons.map(([a, b]) => [s, n, a < 0 ? a + 360 : a, b <= 0 ? b + 360 : b]))
  .map(([s, n, a, b], i) => {
    const code = `LQ${String(i + 1).padStart(2, '0')}`;
    return [code, LQ_NAMED[code] ?? code, s!, n!, a!, a === b ? a! + 360 : b!];
  });

/** Returns the ring's area on the unit sphere, its edges straight in degrees (−∮ sin φ dλ). */
function sphereArea(ring: number[][]): number {
  const rad = Math.PI / 180;
  let sum = 0;
  for (let i = 0; i + 1 < ring.length; i++) {
    const [l1, p1] = ring[i]!.map((v) => v * rad) as [number, number];
    const [l2, p2] = ring[i + 1]!.map((v) => v * rad) as [number, number];
    // ∫ sin φ dλ along the straight edge, φ linear in λ
    sum += p1 === p2 ? (l2 - l1) * Math.sin(p1) : ((l2 - l1) * (Math.cos(p1) - Math.cos(p2))) / (p2 - p1);
  }
  return -sum;
}

/** Returns the [west, south, east, north] of a published row, in −180…180 east. */
function eastBox([, , s, n, a, b]: Row): number[] {
  if (b - a === 360) return [-180, s, 180, n];
  const w = a >= 180 ? a - 360 : a;
  return [w, s, w + (b - a), n];
}

describe.each([
  ['Mars', MARS, MC],
  ['the Moon', MOON, LQ],
])('%s quadrangles (QUAD sample data)', (_, scheme, published) => {
  const features = featuresOf(scheme);

  it('the committed GeoJSON is the generator output, byte for byte', () => {
    expect(readFileSync(fileOf(scheme), 'utf8')).toBe(quadText(scheme));
  });

  it('has the published codes and names, in order', () => {
    expect(features.map((f) => [f.properties.code, f.properties.shapeName])).toEqual(
      published.map(([code, name]) => [code, name]),
    );
  });

  it('each chart is its published box: extent, and area on the sphere as the analytic box area', () => {
    for (const [i, f] of features.entries()) {
      const ring = f.geometry.coordinates[0]!;
      const [w, s, e, n] = eastBox(published[i]!);
      const xs = ring.map((p) => p[0]!);
      const ys = ring.map((p) => p[1]!);
      expect([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)], f.id).toEqual([
        w,
        s,
        e,
        n,
      ]);
      const box =
        ((e! - w!) * Math.PI * (Math.sin((n! * Math.PI) / 180) - Math.sin((s! * Math.PI) / 180))) / 180;
      expect(Math.abs(sphereArea(ring) - box) / box, f.id).toBeLessThan(1e-12);
    }
  });

  it('rings are closed, counter-clockwise, with a vertex at most every degree', () => {
    for (const f of features) {
      const ring = f.geometry.coordinates[0]!;
      expect(ring[0]).toEqual(ring.at(-1));
      expect(sphereArea(ring), f.id).toBeGreaterThan(0); // > 0: counter-clockwise
      const steps = ring.slice(1).map((p, i) => Math.hypot(p[0]! - ring[i]![0]!, p[1]! - ring[i]![1]!));
      expect(Math.max(...steps), f.id).toBeLessThanOrEqual(1);
    }
  });

  it('the charts tile the sphere: their areas sum to 4π', () => {
    const total = features.reduce((sum, f) => sum + sphereArea(f.geometry.coordinates[0]!), 0);
    expect(Math.abs(total - 4 * Math.PI) / (4 * Math.PI)).toBeLessThan(1e-9);
  });

  it.skipIf(!hasShapely && !process.env.CI)(
    'no two charts overlap, and together they cover the plane (GEOS)',
    () => {
      const script = `
import json, sys
from shapely.geometry import shape
from shapely.ops import unary_union
fs = [shape(f["geometry"]) for f in json.load(open(sys.argv[1]))["features"]]
worst = max(a.intersection(b).area for i, a in enumerate(fs) for b in fs[i + 1:])
print(json.dumps({"valid": all(f.is_valid for f in fs), "overlap": worst, "union": unary_union(fs).area}))`;
      const out = execFileSync('/usr/bin/python3', ['-c', script, fileOf(scheme)], { timeout: 30_000 });
      expect(JSON.parse(out.toString())).toEqual({ valid: true, overlap: 0, union: 360 * 180 });
    },
  );
});
