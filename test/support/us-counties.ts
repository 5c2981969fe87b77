// The 3,142 U.S. counties of us-atlas 3 (counties-10m, the 50 states and DC)
// and their 51 states, as GeoJSON FeatureCollections in memory: the coverage
// that bench:simplify and the simplifier's GEOS oracle test run on. Both
// levels come from one TopoJSON, so every state border is made of county
// borders. Rings that TopoJSON's quantisation collapsed (fewer than three
// distinct positions, or no area: 22 of them) are left out, as GEOS's
// coverage_simplify refuses them ("point array must contain 0 or >1 elements"),
// and a ring that does not end where it starts (one of Illinois's, as
// topojson-client gives it) is closed.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { feature } from 'topojson-client';
import type { Topology } from 'topojson-specification';
import type { GeoFeature } from '../../build/geojson/level-features.ts';

type Ring = number[][];
export interface Collection {
  type: 'FeatureCollection';
  features: GeoFeature[];
}

const sound = (ring: Ring) =>
  new Set(ring.map(String)).size >= 3 &&
  ring.slice(1).reduce((s, p, i) => s + ring[i][0] * p[1] - p[0] * ring[i][1], 0) !== 0;

/** Returns one object of counties-10m as MultiPolygons, less the territories (FIPS ≥ 60) and collapsed rings. */
function level(topo: Topology, name: 'counties' | 'states'): Collection {
  const all = feature(topo, topo.objects[name]) as unknown as { features: GeoFeature[] };
  const features = all.features
    .filter((f) => Number(String(f.id).slice(0, 2)) < 60)
    .map((f) => {
      const g = f.geometry as { type: string; coordinates: unknown };
      const polygons = (g.type === 'Polygon' ? [g.coordinates] : g.coordinates) as Ring[][];
      const closed = polygons.map((p) =>
        p.map((r) => (String(r[0]) === String(r[r.length - 1]) ? r : [...r, r[0]])),
      );
      const kept = closed.map((p) => p.filter(sound)).filter((p) => p.length > 0 && sound(p[0]));
      return { ...f, geometry: { type: 'MultiPolygon', coordinates: kept } };
    });
  return { type: 'FeatureCollection', features };
}

/** Returns the states (ADM1) and counties (ADM2). */
export function usCounties(): { states: Collection; counties: Collection } {
  const path = fileURLToPath(new URL('../../node_modules/us-atlas-2017/counties-10m.json', import.meta.url));
  const topo = JSON.parse(readFileSync(path, 'utf8')) as Topology;
  return { states: level(topo, 'states'), counties: level(topo, 'counties') };
}
