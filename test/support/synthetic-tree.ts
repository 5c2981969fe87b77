// Catalogue trees shaped like real ones, at any size: countries with several
// levels, a small ADM0 beside large subdivisions, files written on one line or
// one feature per line. Each level is a grid of cells whose shared edges are
// the same wiggly line on both sides (as real neighbours share a border), so
// every polygon is valid, neighbours meet exactly, and previews have borders
// to simplify. ADM2 cells carry the `parentISO` of the ADM1 cell holding them.
import { closeSync, mkdirSync, openSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';

type Layout = 'one-line' | 'per-line';

interface LevelSpec {
  level: 'ADM0' | 'ADM1' | 'ADM2';
  /** About this many bytes (within about 1 %). */
  bytes: number;
  layout: Layout;
}

export interface CountrySpec {
  iso: string; // e.g. "AAA"
  levels: LevelSpec[];
}

// Cells per side of each level's grid: ADM2 cells nest 4 × 4 in ADM1 cells.
const GRID: Record<LevelSpec['level'], number> = { ADM0: 1, ADM1: 4, ADM2: 16 };
const SIZE = 8; // degrees: every country is an 8° square

/**
 * Writes `data/earth/{ISO3}/` for each country under `root`: every level's
 * GeoJSON and a manifest whose derived numbers are placeholders (run
 * `geoshelf manifest` to fill them). Deterministic.
 */
export function writeTree(root: string, countries: CountrySpec[]): void {
  countries.forEach((country, k) => {
    const folder = join(root, 'data/earth', country.iso);
    mkdirSync(folder, { recursive: true });
    const origin: [number, number] = [-170 + (k % 30) * 11, -60 + Math.floor(k / 30) * 11];
    for (const spec of country.levels)
      writeLevel(join(folder, `${country.iso}_${spec.level}.geojson`), country.iso, origin, spec);
    writeFileSync(join(folder, 'manifest.json'), `${JSON.stringify(manifestOf(country), null, 2)}\n`);
  });
}

function writeLevel(path: string, iso: string, origin: [number, number], spec: LevelSpec): void {
  const n = GRID[spec.level];
  // Positions per cell edge, so that n² cells of 4 edges reach the size
  // (bytes per position as written for this level, e.g. "[12.345678,-4.567891],").
  const size = (count: number) => featureText(iso, spec.level, origin, n, 0, 0, count).length;
  const perPosition = (size(128) - size(64)) / (4 * 64);
  const perEdge = Math.max(2, Math.ceil(spec.bytes / (n * n * 4 * perPosition)));
  const fd = openSync(path, 'w');
  try {
    const newline = spec.layout === 'per-line' ? '\n' : '';
    writeSync(fd, `{"type":"FeatureCollection","features":[${newline}`);
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const separator = i + j === 0 ? '' : `,${newline}`;
        writeSync(fd, separator + featureText(iso, spec.level, origin, n, i, j, perEdge));
      }
    }
    writeSync(fd, `${newline}]}${newline}`);
  } finally {
    closeSync(fd);
  }
}

function featureText(
  iso: string,
  level: LevelSpec['level'],
  [x0, y0]: [number, number],
  n: number,
  i: number,
  j: number,
  perEdge: number,
): string {
  const step = SIZE / n;
  const corner = (ci: number, cj: number): [number, number] => [x0 + ci * step, y0 + cj * step];
  // Counter-clockwise: bottom, right, top, left; each edge without its last point.
  const ring = [
    ...edge(corner(i, j), corner(i + 1, j), perEdge),
    ...edge(corner(i + 1, j), corner(i + 1, j + 1), perEdge),
    ...edge(corner(i + 1, j + 1), corner(i, j + 1), perEdge),
    ...edge(corner(i, j + 1), corner(i, j), perEdge),
  ];
  ring.push(ring[0]);
  const properties: Record<string, string> = {
    shapeName: `${iso} ${level} ${i},${j}`,
    shapeISO: level === 'ADM0' ? iso : level === 'ADM1' ? adm1Code(iso, i, j) : `${iso}-${i}-${j}`,
    shapeType: level,
  };
  if (level === 'ADM2') properties.parentISO = adm1Code(iso, Math.floor(i / 4), Math.floor(j / 4));
  return `{"type":"Feature","properties":${JSON.stringify(properties)},"geometry":{"type":"Polygon","coordinates":[[${ring.join(',')}]]}}`;
}

/** Returns the ISO 3166-2-like code of ADM1 cell (i, j), e.g. "AA-03". */
const adm1Code = (iso: string, i: number, j: number) => `${iso.slice(0, 2)}-${i}${j}`;

/**
 * Returns the positions of the edge from `a` to `b` as text, `b` left out:
 * `count` points wiggling across the straight line, computed the same from
 * either end, so the two cells sharing an edge hold the same positions.
 */
function edge(a: [number, number], b: [number, number], count: number): string[] {
  const forward = a[0] < b[0] || (a[0] === b[0] && a[1] < b[1]);
  const [p, q] = forward ? [a, b] : [b, a];
  const length = Math.hypot(q[0] - p[0], q[1] - p[1]);
  const points: string[] = [];
  for (let k = 0; k < count; k++) {
    const t = k / count;
    // Within a cone of slope 0.3 around the edge near its ends: edges meeting at a corner never cross.
    const wiggle = 0.08 * length * Math.sin(Math.PI * t) * Math.sin(37 * t + p[0] * 3 + p[1] * 7);
    const x = p[0] + (q[0] - p[0]) * t - ((q[1] - p[1]) / length) * wiggle;
    const y = p[1] + (q[1] - p[1]) * t + ((q[0] - p[0]) / length) * wiggle;
    points.push(`[${x.toFixed(6)},${y.toFixed(6)}]`);
  }
  if (forward) return points;
  // From b's side: the same points, reversed, ending before a (so starting after b).
  const reversed = [...points.slice(1), `[${q[0].toFixed(6)},${q[1].toFixed(6)}]`].reverse();
  return reversed;
}

function manifestOf(country: CountrySpec) {
  return {
    schema_version: 1,
    body: 'earth',
    iso_a3: country.iso,
    name: { en: `Synthetic ${country.iso}` },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: 'ok',
    source: { name: 'synthetic', url: 'https://example.org/', license: 'CC0-1.0', retrieved: '2026-11-24' },
    datasets: country.levels.map(({ level }) => ({
      level,
      path: `data/earth/${country.iso}/${country.iso}_${level}.geojson`,
      bytes: 1,
      sha256: '0'.repeat(64),
      features: 1,
      bbox: [0, 0, 0, 0],
      geometry_types: {},
      properties: [],
      license: 'CC0-1.0',
    })),
  };
}
