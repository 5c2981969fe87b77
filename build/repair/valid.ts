// Makes a unit's polygons valid by GEOS's rules (build/geometry/validity.ts)
// as GEOS's MakeValid does with method "structure" (shapely's make_valid,
// JTS's GeometryFixer; QGIS's "Fix geometries" offers it too): each ring
// encloses what it winds round (the non-zero rule), each polygon is its
// shell less its holes, and the polygons are unioned. So a zero-width spike
// (a ring running out and back along itself) is dropped, a bow-tie becomes
// its two lobes (buffer(0) keeps only one), a ring touching itself becomes a
// shell with a hole touching it, overlapping or nested polygons become one,
// and a hole lying wholly outside its shell becomes a polygon of its own (a
// part filed at the wrong depth), as GEOS does. polygon-clipping computes
// each of these (its input rules: non-zero rings, holes may leave their
// shell, polygons may touch and overlap; its output is valid by GEOS's rules).
import polygonClipping, { type MultiPolygon, type Polygon, type Ring } from 'polygon-clipping';
import { checkGeometry } from '../geometry/validity.ts';

/** Returns whether a unit's polygons are valid by GEOS's rules (closed rings of four positions or more included). */
export function isValidUnit(mp: MultiPolygon): boolean {
  return checkGeometry('MultiPolygon', mp) === undefined;
}

/**
 * Returns a unit valid by GEOS's rules: `mp` itself when it is, else the
 * area its rings enclose, rebuilt as valid polygons; undefined when that
 * area is empty (a ring drawn as a line, or a spike alone), which no repair
 * can give an area.
 */
export function makeValid(mp: MultiPolygon): MultiPolygon | undefined {
  if (isValidUnit(mp)) return mp;
  // Rings too short to enclose anything (RFC 7946 wants four positions) are dropped first.
  const polygons = mp
    .filter((polygon) => (polygon[0]?.length ?? 0) >= 4)
    .map((polygon) => polygon.filter((ring) => ring.length >= 4));
  const pieces = polygons.flatMap(holesOutside);
  const fixed = pieces.length > 0 ? polygonClipping.union(pieces[0]!, ...pieces.slice(1)) : [];
  return fixed.length > 0 ? fixed : undefined;
}

/**
 * Returns a polygon as pieces to union: itself, with each hole that lies
 * wholly outside its shell (shares no area and no edge with it) taken out
 * and made a polygon of its own, as GEOS's GeometryFixer classifies holes.
 */
function holesOutside(polygon: Polygon): Polygon[] {
  const [shell, ...holes] = polygon;
  if (holes.length === 0) return [polygon];
  const inside: Ring[] = [];
  const outside: Polygon[] = [];
  for (const hole of holes) {
    const apart =
      polygonClipping.intersection([shell!], [hole]).length === 0 &&
      polygonClipping.union([shell!], [hole]).length > 1;
    if (apart) outside.push([hole]);
    else inside.push(hole);
  }
  return [[shell!, ...inside], ...outside];
}
