// Where a unit's name goes on the map: inside its largest polygon, never at
// the centre of a box that holds its islands too (Chile's Valparaíso, whose
// box reaches Easter Island, was labelled in the ocean). The point is found
// as GEOS finds the interior point of an area (InteriorPointArea): on a
// horizontal line through the polygon's middle that passes no vertex, the
// middle of the widest run inside. src/client/labels.ts draws the names.

type Position = number[];
type Ring = Position[];
type Project = (lon: number, lat: number, out: Float64Array) => void;

/** Where a feature's label goes, in plane units. */
export interface LabelPlace {
  box: [number, number, number, number]; // the largest polygon's box: [x0, y0, x1, y1]
  at: [number, number]; // a point inside the largest polygon
  centred: boolean; // whether the box's centre is inside that polygon (then it is the point)
}

/** Returns the rings of a polygon in plane units, each as [x0, y0, x1, y1, …] (positions that are not pairs left out). */
function projectPolygon(polygon: Ring[], project: Project): number[][] {
  const at = new Float64Array(2);
  return (Array.isArray(polygon) ? polygon : []).map((ring) => {
    const flat: number[] = [];
    for (const p of Array.isArray(ring) ? ring : []) {
      if (!Array.isArray(p) || p.length < 2) continue;
      project(p[0]!, p[1]!, at);
      flat.push(at[0]!, at[1]!);
    }
    return flat;
  });
}

/** Returns the area of a flat ring (shoelace, unsigned). */
function ringArea(ring: number[]): number {
  let twice = 0;
  for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
    twice += (ring[j]! - ring[i]!) * (ring[j + 1]! + ring[i + 1]!);
  }
  return Math.abs(twice) / 2;
}

/** Returns whether (x, y) is inside the polygon (rings flat; even-odd, as the map fills). */
export function insidePolygon(rings: number[][], x: number, y: number): boolean {
  let inside = false;
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const [xi, yi, xj, yj] = [ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!];
      if (yi > y !== yj > y && x < ((xj - xi) * (y - yi)) / (yj - yi) + xi) inside = !inside;
    }
  }
  return inside;
}

/**
 * Returns a point inside the shape that `rings` fill (flat; even-odd, as the
 * map fills them, so where two polygons overlap on the pixel grid is not
 * inside) within the box `box`: on the line halfway between the vertex
 * heights nearest the box's middle (so it meets no vertex), the middle of
 * the widest run inside, cut to the box. Undefined when the line finds none.
 */
export function interiorPoint(
  rings: number[][],
  box: [number, number, number, number],
): [number, number] | undefined {
  const [x0, y0, x1, y1] = box;
  if (!(y1 > y0)) return undefined;
  const middle = (y0 + y1) / 2;
  let [below, above] = [y0, y1];
  for (const ring of rings) {
    for (let i = 1; i < ring.length; i += 2) {
      const y = ring[i]!;
      if (y <= middle && y > below) below = y;
      if (y > middle && y < above) above = y;
    }
  }
  const y = (below + above) / 2;
  const crossings: number[] = [];
  for (const ring of rings) {
    for (let i = 0, j = ring.length - 2; i < ring.length; j = i, i += 2) {
      const [xi, yi, xj, yj] = [ring[i]!, ring[i + 1]!, ring[j]!, ring[j + 1]!];
      if (yi > y !== yj > y) crossings.push(((xj - xi) * (y - yi)) / (yj - yi) + xi);
    }
  }
  crossings.sort((a, b) => a - b);
  let best: [number, number] | undefined;
  for (let i = 0; i + 1 < crossings.length; i += 2) {
    const [a, b] = [Math.max(x0, crossings[i]!), Math.min(x1, crossings[i + 1]!)];
    if (b > a && (!best || b - a > best[1] - best[0])) best = [a, b];
  }
  return best && [(best[0] + best[1]) / 2, y];
}

/**
 * Returns where the label of a feature made of `polygons` goes: its largest
 * polygon's box and a point inside that polygon (the box's centre when it
 * is inside), in the plane `project` maps to (give it the map's rounding,
 * so the point is inside the polygon as drawn); a speck's own point when no
 * polygon has an area; undefined when there is no position at all.
 */
export function labelPlace(polygons: Ring[][], project: Project): LabelPlace | undefined {
  let largest: number[][] | undefined;
  let largestArea = 0;
  const drawn: number[][] = []; // what the path fills: every ring, a ring with no area as map-svg.ts's 2×2 dot
  const dots = new Set<string>();
  for (const polygon of polygons) {
    const rings = projectPolygon(polygon, project);
    for (const ring of rings) {
      if (ringArea(ring) > 0) drawn.push(ring);
      else if (ring.length >= 2 && !dots.has(`${ring[0]} ${ring[1]}`)) {
        dots.add(`${ring[0]} ${ring[1]}`);
        const [x, y] = [ring[0]!, ring[1]!];
        drawn.push([x - 1, y - 1, x + 1, y - 1, x + 1, y + 1, x - 1, y + 1]);
      }
    }
    const area = ringArea(rings[0] ?? []);
    if (area > largestArea || !largest) [largest, largestArea] = [rings, area];
  }
  const outer = largest?.[0];
  if (!largest || !outer || outer.length < 2) return undefined;
  if (largestArea === 0) {
    // Every polygon is a speck (map-svg.ts draws a 2×2 dot at its first point): the label goes there.
    const [x, y] = [outer[0]!, outer[1]!];
    return { box: [x - 1, y - 1, x + 1, y + 1], at: [x, y], centred: true };
  }
  let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < outer.length; i += 2) {
    [x0, x1] = [Math.min(x0, outer[i]!), Math.max(x1, outer[i]!)];
    [y0, y1] = [Math.min(y0, outer[i + 1]!), Math.max(y1, outer[i + 1]!)];
  }
  const centre: [number, number] = [(x0 + x1) / 2, (y0 + y1) / 2];
  const centred = insidePolygon(drawn, ...centre);
  const at = centred ? centre : (interiorPoint(drawn, [x0, y0, x1, y1]) ?? anyInside(drawn) ?? centre);
  return { box: [x0, y0, x1, y1], at, centred };
}

/** Returns the centre of the largest ring's box that is inside what `rings` fill (specks overlapping on the pixel grid cancel out), or undefined. */
function anyInside(rings: number[][]): [number, number] | undefined {
  for (const ring of [...rings].sort((a, b) => ringArea(b) - ringArea(a))) {
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (let i = 0; i < ring.length; i += 2) {
      [x0, x1] = [Math.min(x0, ring[i]!), Math.max(x1, ring[i]!)];
      [y0, y1] = [Math.min(y0, ring[i + 1]!), Math.max(y1, ring[i + 1]!)];
    }
    const centre: [number, number] = [(x0 + x1) / 2, (y0 + y1) / 2];
    if (insidePolygon(rings, ...centre)) return centre;
  }
  return undefined;
}
