// How big a coverage defect is, and where: its area on the body's sphere,
// its width (the diameter of the largest circle inside it) and a point
// inside it (that circle's centre), as polylabel finds the pole of
// inaccessibility. Faces of an arrangement come as closed rings of lon/lat
// degrees, the first the outer one.
const RAD = Math.PI / 180;

/**
 * Returns the area in m² of the polygon `rings` (lon/lat degrees, the outer
 * ring then its holes, wound either way but holes against the outer ring) on
 * a sphere of radius `radius`, its edges as rhumb-free chords of the
 * cylindrical equal-area projection (Chamberlain and Duquette's formula, as
 * d3-geo and turf measure area).
 */
export function sphericalArea(rings: Float64Array[], radius: number): number {
  let total = 0;
  for (const xy of rings) {
    let s = 0;
    for (let i = 0; i + 3 < xy.length; i += 2) {
      s += (xy[i + 2]! - xy[i]!) * RAD * (2 + Math.sin(xy[i + 1]! * RAD) + Math.sin(xy[i + 3]! * RAD));
    }
    total += s / 2;
  }
  return Math.abs(total) * radius * radius;
}

/** Returns the length in metres of the rings' edges (lon/lat degrees) on a sphere of `radius`, as short edges measure. */
export function ringsLengthM(rings: Float64Array[], radius: number): number {
  let total = 0;
  for (const xy of rings) {
    for (let i = 0; i + 3 < xy.length; i += 2) {
      const kx = Math.cos(((xy[i + 1]! + xy[i + 3]!) / 2) * RAD);
      total += Math.hypot((xy[i + 2]! - xy[i]!) * kx, xy[i + 3]! - xy[i + 1]!);
    }
  }
  return total * RAD * radius;
}

/** Where a defect is and how wide: the centre of the largest circle inside it and that circle's diameter in metres. */
export interface Inscribed {
  point: [number, number]; // lon, lat
  widthM: number;
}

interface Cell {
  x: number; // centre, in the scaled frame
  y: number;
  h: number; // half its side
  d: number; // signed distance of the centre to the outline (> 0 inside)
  max: number; // the most any point of the cell can have: d + h·√2
}

/**
 * Returns the largest circle inside the polygon `rings` (lon/lat degrees),
 * measured in metres on a sphere of `radius` (longitudes scaled by the cosine
 * of the polygon's middle latitude): found to within `precisionM`, and no
 * further once a circle wider than `enoughM` is found (a defect only needs to
 * be known wider than a limit). At most `maxCells` cells are probed.
 */
export function inscribedCircle(
  rings: Float64Array[],
  radius: number,
  precisionM: number,
  enoughM = Infinity,
  maxCells = 4000,
): Inscribed {
  const outer = rings[0]!;
  let [w, s, e, n] = [Infinity, Infinity, -Infinity, -Infinity];
  for (let i = 0; i < outer.length; i += 2) {
    w = Math.min(w, outer[i]!);
    e = Math.max(e, outer[i]!);
    s = Math.min(s, outer[i + 1]!);
    n = Math.max(n, outer[i + 1]!);
  }
  const kx = Math.cos(((s + n) / 2) * RAD);
  const perDegree = radius * RAD; // metres per degree of latitude
  // The frame: metres, x scaled by kx about the west edge.
  const frame = rings.map((xy) => {
    const out = new Float64Array(xy.length);
    for (let i = 0; i < xy.length; i += 2) {
      out[i] = (xy[i]! - w) * kx * perDegree;
      out[i + 1] = (xy[i + 1]! - s) * perDegree;
    }
    return out;
  });
  const width = (e - w) * kx * perDegree;
  const height = (n - s) * perDegree;
  const cell = (x: number, y: number, h: number): Cell => {
    const d = signedDistance(frame, x, y);
    return { x, y, h, d, max: d + h * Math.SQRT2 };
  };
  let best = centroidCell(frame, cell) ?? cell(width / 2, height / 2, 0);
  const queue = new CellQueue();
  queue.push(cell(width / 2, height / 2, Math.max(width, height) / 2));
  let probed = 0;
  while (queue.length > 0 && probed < maxCells && 2 * best.d <= enoughM) {
    const c = queue.pop()!;
    if (c.d > best.d) best = c;
    if (c.max - best.d <= precisionM / 2) continue;
    const h = c.h / 2;
    for (const [dx, dy] of QUARTERS) queue.push(cell(c.x + dx * h, c.y + dy * h, h));
    probed += 4;
  }
  // Unfinished (a long sliver needs many cells): the best circle found is a lower bound, the
  // best cell left an upper one; 4·area/perimeter, exact for a disc or a square and about the
  // width of a thin triangle, keeps the estimate from the loose upper bound.
  let diameter = 2 * best.d;
  if (2 * best.d <= enoughM && queue.length > 0) {
    const upper = 2 * Math.max(best.d, queue.peek()!.max);
    diameter = Math.max(diameter, Math.min(upper, (4 * planarArea(frame)) / perimeter(frame)));
  }
  return {
    point: [w + best.x / (kx * perDegree), s + best.y / perDegree],
    widthM: Math.max(0, diameter),
  };
}

const QUARTERS = [
  [-1, -1],
  [1, -1],
  [-1, 1],
  [1, 1],
] as const;

/** Returns the area of the rings (outer less holes), in the frame's units². */
function planarArea(rings: Float64Array[]): number {
  let total = 0;
  for (const xy of rings) {
    let t = 0;
    for (let i = 0; i + 3 < xy.length; i += 2) t += xy[i]! * xy[i + 3]! - xy[i + 2]! * xy[i + 1]!;
    total += t / 2;
  }
  return Math.abs(total);
}

/** Returns the length of every ring's edges. */
function perimeter(rings: Float64Array[]): number {
  let total = 0;
  for (const xy of rings)
    for (let i = 0; i + 3 < xy.length; i += 2) total += Math.hypot(xy[i + 2]! - xy[i]!, xy[i + 3]! - xy[i + 1]!);
  return total;
}

/** Returns the cell at the polygon's centroid (of its outer ring), or undefined for a ring without area. */
function centroidCell(frame: Float64Array[], cell: (x: number, y: number, h: number) => Cell): Cell | undefined {
  const xy = frame[0]!;
  let a = 0;
  let cx = 0;
  let cy = 0;
  for (let i = 0; i + 3 < xy.length; i += 2) {
    const f = xy[i]! * xy[i + 3]! - xy[i + 2]! * xy[i + 1]!;
    cx += (xy[i]! + xy[i + 2]!) * f;
    cy += (xy[i + 1]! + xy[i + 3]!) * f;
    a += 3 * f;
  }
  return a === 0 ? undefined : cell(cx / a, cy / a, 0);
}

/** Returns the distance from (x, y) to the nearest ring edge: positive inside the polygon, negative outside. */
function signedDistance(rings: Float64Array[], x: number, y: number): number {
  let inside = false;
  let best = Infinity;
  for (const xy of rings) {
    for (let i = 0; i + 3 < xy.length; i += 2) {
      const ax = xy[i]!;
      const ay = xy[i + 1]!;
      const bx = xy[i + 2]!;
      const by = xy[i + 3]!;
      if (ay > y !== by > y && x < ((bx - ax) * (y - ay)) / (by - ay) + ax) inside = !inside;
      best = Math.min(best, segmentDistance2(x, y, ax, ay, bx, by));
    }
  }
  return (inside ? 1 : -1) * Math.sqrt(best);
}

function segmentDistance2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  let dx = bx - ax;
  let dy = by - ay;
  let x = ax;
  let y = ay;
  if (dx !== 0 || dy !== 0) {
    const t = ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy);
    if (t > 1) {
      x = bx;
      y = by;
    } else if (t > 0) {
      x += dx * t;
      y += dy * t;
    }
  }
  dx = px - x;
  dy = py - y;
  return dx * dx + dy * dy;
}

/** A binary heap of cells, the most promising (largest `max`) first. */
class CellQueue {
  private readonly items: Cell[] = [];
  get length(): number {
    return this.items.length;
  }
  push(c: Cell): void {
    const a = this.items;
    a.push(c);
    for (let i = a.length - 1; i > 0; ) {
      const p = (i - 1) >> 1;
      if (a[p]!.max >= a[i]!.max) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }
  peek(): Cell | undefined {
    return this.items[0];
  }
  pop(): Cell | undefined {
    const a = this.items;
    const top = a[0];
    const last = a.pop();
    if (a.length > 0 && last) {
      a[0] = last;
      for (let i = 0; ; ) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < a.length && a[l]!.max > a[m]!.max) m = l;
        if (r < a.length && a[r]!.max > a[m]!.max) m = r;
        if (m === i) break;
        [a[m], a[i]] = [a[i]!, a[m]!];
        i = m;
      }
    }
    return top;
  }
}
