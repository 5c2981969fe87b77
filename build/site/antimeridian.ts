// Cuts polygons that cross the antimeridian (a ring stepping more than 180°
// of longitude between two points and back, such as Russia's Chukotka or a
// sliver of Fiji) into their pieces east and west of it, for the world map: Equal
// Earth centred on Greenwich has its edge there, and an uncut ring would
// draw a line across the whole map. Country maps need none of this (their
// projection is centred on the country, continuous across the antimeridian).
import polygonClipping, { type Polygon as ClipPolygon } from 'polygon-clipping';

type Position = number[];
type Ring = Position[];

function crosses(ring: Ring): boolean {
  for (let i = 1; i < ring.length; i++) if (Math.abs(ring[i][0] - ring[i - 1][0]) > 180) return true;
  return false;
}

/** Returns the ring with each step of more than 180° taken the short way round, starting near `near`. */
function unwrap(ring: Ring, near: number): [number, number][] {
  const out: [number, number][] = [];
  let shift = Math.round((near - ring[0][0]) / 360) * 360;
  for (let i = 0; i < ring.length; i++) {
    if (i > 0) shift -= Math.round((ring[i][0] - ring[i - 1][0]) / 360) * 360;
    out.push([ring[i][0] + shift, ring[i][1]]);
  }
  return out;
}

/**
 * Returns a polygon (its rings, the outer one first) as the polygons it
 * makes on the world map: itself when no ring crosses the antimeridian, else
 * its parts within [−180°, 180°], the parts beyond moved back by 360°.
 */
export function splitAtAntimeridian(polygon: Ring[]): Ring[][] {
  const rings = polygon.filter((r) => Array.isArray(r) && r.length >= 4);
  if (rings.length === 0 || !rings.some(crosses)) return [polygon];
  const near = rings[0][0][0];
  const unwrapped: ClipPolygon = rings.map((r) => unwrap(r, near));
  // A ring round a pole (Antarctica's) ends 360° from where it began; in Equal Earth it runs
  // along the map's edge and closes along the pole line, so it is drawn right as it is.
  if (unwrapped.some((r) => Math.abs(r[r.length - 1][0] - r[0][0]) > 180)) return [polygon];
  const out: Ring[][] = [];
  try {
    for (const k of [-360, 0, 360]) {
      const window: ClipPolygon = [
        [
          [-180 + k, -90],
          [180 + k, -90],
          [180 + k, 90],
          [-180 + k, 90],
          [-180 + k, -90],
        ],
      ];
      for (const piece of polygonClipping.intersection(unwrapped, window)) {
        out.push(piece.map((ring) => ring.map(([lon, lat]) => [lon - k, lat])));
      }
    }
  } catch {
    return [polygon]; // a ring the clipper cannot take (self-crossing): drawn as it is
  }
  return out;
}
