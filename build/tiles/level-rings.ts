// The polygons of a level as flat typed arrays, read one feature at a time
// (memory grows with the positions, never with a parsed tree): every ring's
// [lon, lat] points, the unit it belongs to and its polygon's outer ring.
// A unit is a feature with at least one position, numbered in file order
// across the level's files, as the units list numbers them (build/site/units.ts).
import { DoubleList, IntList } from '../geo/topology.ts';
import { readFeatureBytes } from '../geojson/features.ts';
import { polygonsOf } from '../geo/map-plane.ts';

export class LevelRings {
  coords = new DoubleList(); // lon, lat, lon, lat…
  ringStart = new IntList(); // ring r has the points [ringStart[r], ringStart[r + 1])
  ringUnit = new IntList(); // the unit (feature) of each ring
  ringOuter = new IntList(); // the outer ring of each ring's polygon (itself for an outer ring)
  units = 0;

  constructor() {
    this.ringStart.push(0);
  }

  get rings(): number {
    return this.ringStart.length - 1;
  }

  get points(): number {
    return this.coords.length / 2;
  }

  /** Adds a feature's polygons as the next unit; a feature without a position is not a unit. */
  addFeature(feature: { geometry?: unknown } | null): void {
    let added = false;
    for (const polygon of polygonsOf(feature?.geometry)) {
      const outer = this.rings;
      for (const ring of Array.isArray(polygon) ? polygon : []) {
        const start = this.coords.length;
        for (const p of Array.isArray(ring) ? ring : []) {
          if (!Array.isArray(p) || typeof p[0] !== 'number' || typeof p[1] !== 'number') continue;
          this.coords.push(p[0]);
          this.coords.push(p[1]);
        }
        if (this.coords.length === start) continue;
        this.ringStart.push(this.coords.length / 2);
        this.ringUnit.push(this.units);
        this.ringOuter.push(outer); // the polygon's first ring with a position
        added = true;
      }
    }
    if (added) this.units++;
  }
}

/** A feature as read, for a caller that wants its properties too (mercator-level.ts). */
type FeatureSeen = (
  feature: { properties?: Record<string, unknown> | null },
  file: number,
  unit: boolean,
) => void;

/**
 * Returns the rings of every feature of `paths` (GeoJSON files, in order) as
 * one level; `seen` is told of each feature, its file's index and whether it
 * became a unit.
 */
export async function readLevelRings(paths: string[], seen?: FeatureSeen): Promise<LevelRings> {
  const rings = new LevelRings();
  for (const [file, path] of paths.entries()) {
    for await (const { bytes } of readFeatureBytes(path)) {
      const feature = JSON.parse(bytes.toString('utf8')) as {
        geometry?: unknown;
        properties?: Record<string, unknown>;
      };
      const units = rings.units;
      rings.addFeature(feature);
      seen?.(feature, file, rings.units > units);
    }
  }
  return rings;
}
