// Rings cut at the antimeridian. Data that crosses 180° (Fiji, Chukotka, the
// Aleutians) is split there into polygons that meet along lon = ±180; in the
// map's plane the two halves touch, and their shared edge is the cut, not a
// coastline or a border, so it must not be stroked. A ring whose cut edges
// form one run is turned to start where the run ends and end where it starts:
// drawn as an open subpath, it is filled as if closed (straight across the
// cut) but its stroke stops at the cut.

// Also, for the index's world map (world-map.ts), polygons that cross the
// antimeridian are cut there: see splitAtAntimeridian.
import polygonClipping, { type Polygon as ClipPolygon } from 'polygon-clipping';

type Position = number[];

/** Whether a position lies on the antimeridian, as split data puts it: at exactly ±180. */
export function onAntimeridian(p: Position): boolean {
  return Array.isArray(p) && Math.abs(p[0]) === 180;
}

/**
 * Returns `ring` (a GeoJSON ring, closed or not) as an open list of
 * positions ending at its cut, and `open: true`, when its edges along the
 * antimeridian form exactly one run; otherwise the ring as it is and
 * `open: false` (no cut, or several, which are rare: such a ring keeps its
 * whole outline).
 */
export function openAtCut(ring: Position[]): { ring: Position[]; open: boolean } {
  const first = ring[0];
  const last = ring[ring.length - 1];
  const closed = ring.length > 1 && first?.[0] === last?.[0] && first?.[1] === last?.[1];
  const pts = closed ? ring.slice(0, -1) : ring;
  const n = pts.length;
  if (n < 3) return { ring, open: false };
  const cut = pts.map((p, i) => onAntimeridian(p) && onAntimeridian(pts[(i + 1) % n]));
  let start = -1; // the first cut edge of the run (its previous edge is not cut)
  let runs = 0;
  for (let i = 0; i < n; i++) {
    if (cut[i] && !cut[(i - 1 + n) % n]) {
      runs++;
      start = i;
    }
  }
  if (runs !== 1) return { ring, open: false };
  let end = start; // the point the run ends at
  while (cut[end % n]) end++;
  const out: Position[] = [];
  for (let k = end; k <= start + n; k++) out.push(pts[k % n]); // from the run's end round to its start
  return { ring: out, open: true };
}

// Cutting polygons that cross the antimeridian (a ring stepping more than 180°
// of longitude between two points and back, such as Russia's Chukotka or a
// sliver of Fiji) into their pieces east and west of it, for the world map: Equal
// Earth centred on Greenwich has its edge there, and an uncut ring would
// draw a line across the whole map. Country maps need none of this (their
// projection is centred on the country, continuous across the antimeridian).

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
