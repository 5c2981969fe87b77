// Generated polygons for the geometry differential tests and bench:geometry.
// `gridGeometry` snaps small random rings to an integer grid, so touches,
// collinear runs, spikes and crossings of every kind occur by the hundred;
// `starPolygon` is valid by construction (a star-shaped ring, holes well inside).

/** A GeoJSON Polygon or MultiPolygon geometry. */
export interface Polygonal {
  type: 'Polygon' | 'MultiPolygon';
  coordinates: number[][][] | number[][][][];
}

function gridRing(random: () => number, cx: number, cy: number, r: number): number[][] {
  const n = 3 + Math.floor(random() * 6);
  const points: number[][] = [];
  for (let i = 0; i < n; i++) {
    const angle = (i / n) * 2 * Math.PI + random() * 0.5;
    const radius = r * (0.3 + random());
    points.push([Math.round(cx + radius * Math.cos(angle)), Math.round(cy + radius * Math.sin(angle))]);
  }
  if (random() < 0.3) points.splice(Math.floor(random() * n), 0, [...points[Math.floor(random() * n)]!]); // revisit a vertex
  if (random() < 0.5) points.reverse();
  points.push([...points[0]!]);
  return points;
}

/** Returns a small Polygon or MultiPolygon on an integer grid: often invalid, in degenerate ways. */
export function gridGeometry(random: () => number): Polygonal {
  const polygons: number[][][][] = [];
  const count = random() < 0.5 ? 1 : 2 + Math.floor(random() * 2);
  for (let p = 0; p < count; p++) {
    const cx = Math.floor(random() * 8);
    const cy = Math.floor(random() * 8);
    const rings = [gridRing(random, cx, cy, 2 + Math.floor(random() * 4))];
    const holes = random() < 0.5 ? 0 : 1 + Math.floor(random() * 3);
    for (let h = 0; h < holes; h++) {
      rings.push(
        gridRing(
          random,
          cx + Math.floor(random() * 3) - 1,
          cy + Math.floor(random() * 3) - 1,
          1 + Math.floor(random() * 2),
        ),
      );
    }
    polygons.push(rings);
  }
  return count === 1
    ? { type: 'Polygon', coordinates: polygons[0]! }
    : { type: 'MultiPolygon', coordinates: polygons };
}

/**
 * Returns a star-shaped ring of n positions around (cx, cy), its radius
 * wandering smoothly in [r0, r1] like a real boundary (a few waves plus a
 * little noise); counter-clockwise unless `clockwise`.
 */
function starRing(
  random: () => number,
  cx: number,
  cy: number,
  n: number,
  r0: number,
  r1: number,
  clockwise = false,
): number[][] {
  const waves = [1, 2, 3].map((k) => ({
    k: k * (1 + Math.floor(random() * 5)),
    phase: random() * 2 * Math.PI,
    weight: random(),
  }));
  const total = waves.reduce((sum, w) => sum + w.weight, 0) || 1;
  const ring: number[][] = [];
  for (let i = 0; i < n - 1; i++) {
    const angle = ((i + 0.5 * random()) / (n - 1)) * 2 * Math.PI;
    const wave = waves.reduce((sum, w) => sum + w.weight * Math.sin(w.k * angle + w.phase), 0) / total; // in [-1, 1]
    const radius = r0 + (r1 - r0) * (0.5 + 0.45 * wave + 0.05 * (random() - 0.5));
    ring.push([
      Number((cx + radius * Math.cos(angle)).toFixed(6)),
      Number((cy + radius * Math.sin(angle)).toFixed(6)),
    ]);
  }
  if (clockwise) ring.reverse();
  ring.push([...ring[0]!]);
  return ring;
}

/**
 * Returns a valid polygon of about `n` positions around (cx, cy) of radius
 * `r`, with `holes` small holes placed inside its inner radius.
 */
export function starPolygon(
  random: () => number,
  cx: number,
  cy: number,
  r: number,
  n: number,
  holes: number,
): number[][][] {
  const rings = [starRing(random, cx, cy, n, 0.6 * r, r)];
  for (let h = 0; h < holes; h++) {
    const angle = (h / holes) * 2 * Math.PI;
    const hx = cx + 0.35 * r * Math.cos(angle);
    const hy = cy + 0.35 * r * Math.sin(angle);
    rings.push(starRing(random, hx, hy, Math.max(4, Math.floor(n / 8)), 0.05 * r, 0.1 * r, true));
  }
  return rings;
}

/**
 * Returns a Polygon or MultiPolygon of up to 12 small grid polygons, each
 * with up to 8 more holes: many rings on a small grid, so holes and shells
 * nest, touch and cross in every way, in numbers that take the checks'
 * indexes when their limits are lowered.
 */
export function manyRingsGeometry(random: () => number): Polygonal {
  const polygons: number[][][][] = [];
  const count = 1 + Math.floor(random() * 12);
  for (let p = 0; p < count; p++) {
    const base = gridGeometry(random);
    for (const polygon of (base.type === 'Polygon'
      ? [base.coordinates]
      : base.coordinates) as number[][][][]) {
      const extra = Math.floor(random() * 8);
      for (let h = 0; h < extra; h++) {
        const hole = gridGeometry(random);
        polygon.push(
          ((hole.type === 'Polygon' ? hole.coordinates : hole.coordinates[0]) as number[][][])[0]!,
        );
      }
      polygons.push(polygon);
    }
  }
  return polygons.length === 1
    ? { type: 'Polygon', coordinates: polygons[0]! }
    : { type: 'MultiPolygon', coordinates: polygons };
}
