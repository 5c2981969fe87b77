// Jagged coast-like polygons for bench:geometry and the geometry tests: the
// land of a fractal noise field on a small grid of cells, traced along its
// cell edges and every vertex jittered, so rings are as irregular as a
// coastline at full detail (bays, peninsulas, one-cell fjords; the direction
// changes at almost every vertex) and still valid by construction:
// - one 4-connected piece of land, every lake (a piece of water enclosed by
//   it) a hole, and no two cells meeting at a corner only (a 2×2 block of
//   land and water on its diagonals is filled), so every lattice vertex lies
//   on at most one ring, once;
// - each cell edge is cut in two at its middle; pieces that are not
//   neighbours lie at least half a cell apart (two halves of edges meeting at
//   a corner), and a jitter of at most JITTER = 0.15 cell on each axis moves a
//   position by at most 0.22: rings stay simple and apart, and no two
//   neighbouring pieces fold back on each other.

/** A ring's positions [[x, y], …], closed. */
type Ring = number[][];

/** Returns value noise in [0, 1) on a (size+1)² lattice of cells `step` apart, bilinear between. */
function octave(random: () => number, n: number, step: number): Float64Array {
  const m = Math.ceil(n / step) + 2;
  const lattice = Float64Array.from({ length: m * m }, () => random());
  const out = new Float64Array(n * n);
  for (let y = 0; y < n; y++) {
    const gy = y / step;
    const iy = Math.floor(gy);
    const fy = gy - iy;
    for (let x = 0; x < n; x++) {
      const gx = x / step;
      const ix = Math.floor(gx);
      const fx = gx - ix;
      const a = lattice[iy * m + ix]! * (1 - fx) + lattice[iy * m + ix + 1]! * fx;
      const b = lattice[(iy + 1) * m + ix]! * (1 - fx) + lattice[(iy + 1) * m + ix + 1]! * fx;
      out[y * n + x] = a * (1 - fy) + b * fy;
    }
  }
  return out;
}

/** Returns the land of an n×n grid (1 = land): fractal noise (octaves down to one cell) minus a falloff from the centre. */
function landField(random: () => number, n: number): Uint8Array {
  const field = new Float64Array(n * n);
  let amplitude = 1;
  for (let step = n / 2; step >= 1; step /= 2, amplitude *= 0.7) {
    const o = octave(random, n, step);
    for (let i = 0; i < field.length; i++) field[i]! += amplitude * (o[i]! - 0.5);
  }
  const land = new Uint8Array(n * n);
  const c = (n - 1) / 2;
  for (let y = 1; y < n - 1; y++) {
    for (let x = 1; x < n - 1; x++) {
      const d = Math.hypot(x - c, y - c) / c; // 0 at the centre, 1 at the edge's middle
      land[y * n + x] = field[y * n + x]! + 0.6 - d > 0 ? 1 : 0;
    }
  }
  land[Math.floor(c) * n + Math.floor(c)] = 1; // the centre is land (coastPolygon keeps its piece)
  return land;
}

/** Returns the cells 4-connected to `start` whose value is `value`. */
function component(grid: Uint8Array, n: number, start: number, value: number): Uint8Array {
  const seen = new Uint8Array(n * n);
  const stack = [start];
  seen[start] = 1;
  while (stack.length > 0) {
    const i = stack.pop()!;
    const x = i % n;
    for (const j of [i - n, i + n, x > 0 ? i - 1 : -1, x < n - 1 ? i + 1 : -1]) {
      if (j >= 0 && j < n * n && !seen[j] && grid[j] === value) {
        seen[j] = 1;
        stack.push(j);
      }
    }
  }
  return seen;
}

const MIN_LAKE_CELLS = 16; // smaller lakes are filled
const JITTER = 0.15; // of a cell, on each axis (see the top)

/** Fills every lake (water not 4-connected to the grid's border) of fewer than MIN_LAKE_CELLS cells. */
function fillSmallLakes(land: Uint8Array, n: number): void {
  const sea = component(land, n, 0, 0);
  const seen = new Uint8Array(n * n);
  for (let i = 0; i < n * n; i++) {
    if (land[i] || sea[i] || seen[i]) continue;
    const lake = component(land, n, i, 0);
    const cells: number[] = [];
    for (let j = 0; j < n * n; j++) if (lake[j]) cells.push(j);
    for (const j of cells) seen[j] = 1;
    if (cells.length < MIN_LAKE_CELLS) for (const j of cells) land[j] = 1;
  }
}

/** Fills every 2×2 block whose land and water lie on its diagonals (a corner touch); returns whether any was. */
function fillCornerTouches(land: Uint8Array, n: number): boolean {
  let changed = false;
  for (let y = 0; y < n - 1; y++) {
    for (let x = 0; x < n - 1; x++) {
      const i = y * n + x;
      const [a, b, c, d] = [land[i]!, land[i + 1]!, land[i + n]!, land[i + n + 1]!];
      if (a === d && b === c && a !== b) {
        if (a === 0) land[i] = 1;
        else land[i + 1] = 1;
        changed = true;
      }
    }
  }
  return changed;
}

/**
 * Returns the rings of the land's boundary, the shell first (its cells on the
 * left: counter-clockwise), then each lake's (clockwise), as lattice vertices.
 */
function traceRings(land: Uint8Array, n: number): number[][][] {
  // Directed edges with land on the left, keyed by their start vertex (v = y * (n + 1) + x).
  const next = new Int32Array((n + 1) * (n + 1)).fill(-1);
  const v = (x: number, y: number) => y * (n + 1) + x;
  const at = (x: number, y: number) => (x >= 0 && y >= 0 && x < n && y < n ? land[y * n + x]! : 0);
  for (let y = 0; y < n; y++) {
    for (let x = 0; x < n; x++) {
      if (!at(x, y)) continue;
      if (!at(x, y - 1)) next[v(x, y)] = v(x + 1, y); // bottom edge, eastward
      if (!at(x + 1, y)) next[v(x + 1, y)] = v(x + 1, y + 1); // east side, northward
      if (!at(x, y + 1)) next[v(x + 1, y + 1)] = v(x, y + 1); // top edge, westward
      if (!at(x - 1, y)) next[v(x, y + 1)] = v(x, y); // west side, southward
    }
  }
  const rings: number[][][] = [];
  const done = new Uint8Array(next.length);
  for (let s = 0; s < next.length; s++) {
    if (next[s] === -1 || done[s]) continue;
    const ring: number[][] = [];
    for (let u = s; !done[u]; u = next[u]!) {
      done[u] = 1;
      ring.push([u % (n + 1), Math.floor(u / (n + 1))]);
    }
    ring.push([...ring[0]!]);
    rings.push(ring);
  }
  // The shell holds the lowest vertex (the first found, scanning rows upward).
  return rings;
}

/**
 * Returns a valid jagged polygon (shell and lakes) around (cx, cy): the land
 * of an n×n grid of cells `cell` degrees wide, vertices jittered by up to a
 * quarter cell, 6 decimals. Its shell has about 16·n positions (n = 48: ~760).
 */
function coastPolygon(random: () => number, cx: number, cy: number, n: number, cell: number): Ring[] {
  let land = landField(random, n);
  const c = Math.floor((n - 1) / 2);
  const centre = c * n + c;
  for (let round = 0; round < 100; round++) {
    land = component(land, n, centre, 1); // one piece of land
    fillSmallLakes(land, n);
    if (!fillCornerTouches(land, n)) break; // filling can join pieces and enclose lakes: again
  }
  const jitter = () => (random() - 0.5) * 2 * JITTER;
  // Turned by a random angle, so that edges run in every direction, not only along the axes.
  const angle = random() * 2 * Math.PI;
  const [cos, sin] = [Math.cos(angle) * cell, Math.sin(angle) * cell];
  const place = (x: number, y: number): number[] => {
    const [u, v] = [x + jitter() - n / 2, y + jitter() - n / 2];
    return [Number((cx + u * cos - v * sin).toFixed(6)), Number((cy + u * sin + v * cos).toFixed(6))];
  };
  return traceRings(land, n).map((ring) => {
    const moved: Ring = [];
    for (let k = 0; k + 1 < ring.length; k++) {
      const [x0, y0] = ring[k]!;
      const [x1, y1] = ring[k + 1]!;
      moved.push(place(x0!, y0!), place((x0! + x1!) / 2, (y0! + y1!) / 2));
    }
    return [...moved, [...moved[0]!]];
  });
}

/** A Polygon or MultiPolygon geometry. */
type CoastGeometry =
  { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

const CELL = 0.002; // degrees
const COLUMNS = 100; // units in a row of the grid they lie on

/**
 * Returns coastal unit i of a level: a jagged polygon of `grid` cells a side
 * (88: shells of ~760 positions), a fifth of them with 1–3 islands a quarter
 * as wide off its corners, each unit in its own square of a grid of units
 * (none meets another). Unit i is made invalid when i % invalidEvery is
 * invalidEvery / 2, in turn: its shell touching itself (one position moved
 * onto another), or a polygon half as wide laid across its shell (invalid
 * unless it falls in a bay of the shell: GEOS counts). Widths, in units of
 * the grid's width W: a unit's land lies within 0.71 W of its centre (the
 * grid turned), an island 0.87–1.22 W away, units' centres 2 W apart.
 */
export function coastUnit(
  random: () => number,
  i: number,
  { grid = 88, invalidEvery = 100 }: { grid?: number; invalidEvery?: number } = {},
): CoastGeometry {
  const w = grid * CELL;
  const x = -175 + (i % COLUMNS) * 2 * w;
  const y = -60 + Math.floor(i / COLUMNS) * 2 * w;
  const shell = coastPolygon(random, x, y, grid, CELL);
  const islands = random() < 0.2 ? 1 + Math.floor(random() * 3) : 0;
  const bad = i % invalidEvery === Math.floor(invalidEvery / 2) ? 1 + (Math.floor(i / invalidEvery) % 2) : 0;
  if (bad === 1) {
    const ring = shell[0]!;
    const k = Math.floor(ring.length / 3);
    ring[k] = [...ring[2 * k]!]; // touches itself (and its neighbouring edges may cross)
  }
  const polygons = [shell];
  for (let k = 0; k < islands; k++) {
    const [dx, dy] = [
      [1, 1],
      [-1, 1],
      [1, -1],
    ][k]!;
    polygons.push(coastPolygon(random, x + dx * 0.74 * w, y + dy * 0.74 * w, grid / 4, CELL));
  }
  if (bad === 2) polygons.push(coastPolygon(random, x + 0.28 * w, y, grid / 2, CELL)); // across the shell
  return polygons.length === 1
    ? { type: 'Polygon', coordinates: shell }
    : { type: 'MultiPolygon', coordinates: polygons };
}
