// Generates the benchmark input of `npm run bench:preview`: a deterministic
// ~100 MB ADM2-like level whose polygons share borders (a jittered grid with
// wiggly, densely sampled edges, plus small islands), cached in /tmp.
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { seededRandom } from '../test/support/random.ts';

type Point = [number, number];

const round6 = (v: number) => Math.round(v * 1e6) / 1e6;

/** Returns `count + 1` points from `a` to `b` with a fractal wiggle (midpoint displacement). */
export function wigglyEdge(a: Point, b: Point, count: number, rand: () => number): Point[] {
  const offsets = new Float64Array(count + 1);
  const length = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const fill = (lo: number, hi: number, amplitude: number) => {
    if (hi - lo < 2) return;
    const mid = (lo + hi) >> 1;
    offsets[mid] = (offsets[lo] + offsets[hi]) / 2 + (rand() - 0.5) * amplitude;
    fill(lo, mid, amplitude * 0.55);
    fill(mid, hi, amplitude * 0.55);
  };
  fill(0, count, length * 0.15);
  const nx = -(b[1] - a[1]) / length;
  const ny = (b[0] - a[0]) / length;
  const points: Point[] = [];
  for (let i = 0; i <= count; i++) {
    const t = i / count;
    points.push([
      round6(a[0] + (b[0] - a[0]) * t + nx * offsets[i]),
      round6(a[1] + (b[1] - a[1]) * t + ny * offsets[i]),
    ]);
  }
  return points;
}

export interface GridOptions {
  columns: number;
  rows: number;
  pointsPerEdge: number;
  islandEvery: number; // one island per this many cells
  seed: number;
}

/** Returns a FeatureCollection text of a jittered grid level (deterministic for the options). */
export function gridLevel(options: GridOptions): string {
  const { columns, rows, pointsPerEdge, seed } = options;
  const rand = seededRandom(seed);
  const cell = 0.1; // degrees
  const west = -70;
  const south = -40;
  const corners: Point[][] = [];
  for (let r = 0; r <= rows; r++) {
    corners.push([]);
    for (let c = 0; c <= columns; c++) {
      const jitter = r > 0 && r < rows && c > 0 && c < columns ? 0.3 : 0;
      corners[r].push([
        west + (c + (rand() - 0.5) * jitter) * cell,
        south + (r + (rand() - 0.5) * jitter) * cell,
      ]);
    }
  }
  // Shared edges: horizontal[r][c] goes corner(r,c) → corner(r,c+1); vertical[r][c] corner(r,c) → corner(r+1,c).
  const horizontal = corners.map((row, r) =>
    row.slice(0, columns).map((_, c) => wigglyEdge(corners[r][c], corners[r][c + 1], pointsPerEdge, rand)),
  );
  const vertical = corners
    .slice(0, rows)
    .map((row, r) => row.map((_, c) => wigglyEdge(corners[r][c], corners[r + 1][c], pointsPerEdge, rand)));
  const lines: string[] = [];
  let n = 0;
  for (let r = 0; r < rows; r++) {
    for (let c = 0; c < columns; c++) {
      // Counter-clockwise: bottom →, right ↑, top ←, left ↓.
      const ring = [
        ...horizontal[r][c],
        ...vertical[r][c + 1].slice(1),
        ...horizontal[r + 1][c].slice().reverse().slice(1),
        ...vertical[r][c].slice().reverse().slice(1),
      ];
      const polygons: Point[][][] = [[ring]];
      if (n % options.islandEvery === 0) {
        const [x, y] = corners[r][c];
        const island: Point[] = [];
        for (let i = 0; i < 40; i++) {
          const angle = (-i / 40) * 2 * Math.PI;
          const radius = 0.004 * (1 + 0.3 * rand());
          island.push([
            round6(x + 0.05 * cell + radius * Math.cos(angle)),
            round6(y - 0.3 * cell + radius * Math.sin(angle)),
          ]);
        }
        island.push(island[0]);
        polygons.push([island]);
      }
      const name = `District ${r}-${c}`;
      const feature = {
        type: 'Feature',
        id: `BEN:ADM2:d-${r}-${c}`,
        properties: {
          shapeName: name,
          shapeISO: '',
          shapeGroup: 'BEN',
          shapeType: 'ADM2',
          parentISO: `BE-${String.fromCharCode(65 + Math.floor(r / 10))}`,
          shapeID: `BEN-ADM2-${n}`,
        },
        geometry:
          polygons.length === 1
            ? { type: 'Polygon', coordinates: polygons[0] }
            : { type: 'MultiPolygon', coordinates: polygons },
      };
      lines.push(JSON.stringify(feature));
      n++;
    }
  }
  return `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}`;
}

/** Returns the path of the cached ~100 MB benchmark level, generating it on first use. */
export async function benchmarkLevel(path = '/tmp/publishing/bench/BEN_ADM2.geojson'): Promise<string> {
  if (!existsSync(path)) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, gridLevel({ columns: 60, rows: 50, pointsPerEdge: 360, islandEvery: 7, seed: 42 }));
  }
  return path;
}
