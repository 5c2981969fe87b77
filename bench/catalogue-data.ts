// The tree `npm run bench:catalogue` builds: a catalogue shaped like
// geoBoundaries at a chosen size. 220 countries (real codes and names from
// world-countries), ADM0–ADM3 with geoBoundaries' mix (every country an ADM0
// and an ADM1, 70 % an ADM2, 35 % an ADM3), level sizes drawn log-normal
// from a few KB up, plus one level pinned at 6 % of the tree (600 MB of
// 10 GB, like geoBoundaries' Canada ADM1). Each level is a jittered grid of
// units over its country's box with wiggly shared borders (a valid
// coverage; levels nest cell by cell, their borders drawn independently, so
// nesting warns where real catalogues do too). ADM2 levels over SPLIT_SHARE
// of the tree are split into parts by `geoshelf split`, and every level gets
// a preview from `geoshelf preview` (setup, not timed). Deterministic for a
// size; written feature by feature (a level may exceed V8's string limit)
// and kept in /tmp between runs.
import { createWriteStream, existsSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { once } from 'node:events';
import { measureGeoJSON } from '../build/measure/measure.ts';
import { seededRandom } from '../test/support/random.ts';
import { geoshelf } from './formats-data.ts';
import { wigglyEdge } from './preview-data.ts';

type Point = [number, number];

/** Bump when the generated tree changes, so a cached copy is remade. */
const TREE_VERSION = 1;
const COUNTRIES = 220;
/** The pinned largest level's share of the tree (600 MB of 10 GB). */
const LARGEST_SHARE = 0.06;
/** ADM2 levels larger than this share of the tree are published as parts too. */
const SPLIT_SHARE = 0.005;
/** Bytes of one coordinate pair as written, e.g. "[-70.123456,-40.123456],". */
const BYTES_PER_POINT = 24;
/** Setup commands (split, preview) must finish within this, or the benchmark stops. */
const SETUP_TIMEOUT_MS = 4 * 60 * 60_000;
const LEVELS = ['ADM0', 'ADM1', 'ADM2', 'ADM3'] as const;
export type Level = (typeof LEVELS)[number];

export interface Country {
  iso3: string;
  iso2: string;
  name: string;
  box: [number, number, number, number]; // west, south, east, north
}

interface Grid {
  columns: number;
  rows: number;
  points: number; // per border
}

export interface PlannedLevel {
  country: Country;
  level: Level;
  bytes: number; // the size aimed at
}

export const treeFolder = (bytes: number) =>
  `/tmp/geoshelf-bench-catalogue/tree-v${TREE_VERSION}-${Math.round(bytes / 2 ** 20)}MiB`;

/** Returns the 220 countries, each with a 14° × 12° box on a 20-wide grid of the globe. */
export function countries(): Country[] {
  const world = createRequire(import.meta.url)('world-countries/countries.json') as {
    cca3: string;
    cca2: string;
    name: { common: string };
  }[];
  return world
    .filter((c) => c.cca2)
    .slice(0, COUNTRIES)
    .map((c, i) => {
      const west = -178 + (i % 20) * 17.8;
      const south = -80 + Math.floor(i / 20) * 14.5;
      return { iso3: c.cca3, iso2: c.cca2, name: c.name.common, box: [west, south, west + 14, south + 12] };
    });
}

/** Returns every level of the tree with its size: log-normal shares of `total`, the largest pinned. */
function plan(total: number): PlannedLevel[] {
  const rand = seededRandom(20_000);
  const normal = () => Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand());
  const weight: Record<Level, number> = { ADM0: 0.3, ADM1: 1, ADM2: 2, ADM3: 3 };
  const levels: (PlannedLevel & { w: number })[] = [];
  for (const country of countries()) {
    const has = { ADM0: true, ADM1: true, ADM2: rand() < 0.7, ADM3: rand() < 0.35 };
    for (const level of LEVELS)
      if (has[level]) levels.push({ country, level, bytes: 0, w: weight[level] * Math.exp(1.6 * normal()) });
  }
  const largest = levels.find((l) => l.country.iso3 === 'CAN' && l.level === 'ADM1') ?? levels[0];
  const rest = levels.filter((l) => l !== largest);
  const sum = rest.reduce((n, l) => n + l.w, 0);
  largest.bytes = total * LARGEST_SHARE;
  // No other level outgrows half the pinned one (what the cap cuts is not spread again: the tree comes out a little under GB).
  const cap = largest.bytes / 2;
  for (const l of rest) l.bytes = Math.max(4096, Math.min(cap, ((total - largest.bytes) * l.w) / sum));
  return levels.map(({ country, level, bytes }) => ({ country, level, bytes }));
}

/** Returns a level's grid (columns × rows of units) and points per border for its size. */
function gridFor(p: PlannedLevel): Grid {
  const base = 2 + ([...p.country.iso3].reduce((n, ch) => n + ch.charCodeAt(0), 0) % 4); // ADM1: 2–5 a side
  const side = p.level === 'ADM0' ? 1 : base * (p.level === 'ADM1' ? 1 : p.level === 'ADM2' ? 3 : 6);
  const bytes = p.bytes;
  // Each unit's ring holds 4 borders of `points` points; at least 2 points a border.
  let [columns, rows] = [side, side];
  while (columns * rows > 1 && columns * rows * 4 * 2 * BYTES_PER_POINT > bytes) {
    columns = Math.max(1, Math.floor(columns / 2));
    rows = Math.max(1, Math.floor(rows / 2));
  }
  const points = Math.max(2, Math.round(bytes / (columns * rows * 4 * BYTES_PER_POINT)));
  return { columns, rows, points };
}

/** Writes one level's FeatureCollection to `path`, feature by feature. */
async function writeLevel(path: string, p: PlannedLevel, adm1: Grid, seed: number): Promise<void> {
  const rand = seededRandom(seed);
  const { columns, rows, points } = gridFor(p);
  // An ADM1 unit's code, by its place in the ADM1 grid; a finer unit names the ADM1 cell it lies in.
  const adm1Code = (k: number) => `${p.country.iso2}-${String(k + 1).padStart(2, '0')}`;
  const parentOf = (r: number, c: number) =>
    adm1Code(Math.floor((r * adm1.rows) / rows) * adm1.columns + Math.floor((c * adm1.columns) / columns));
  const [west, south, east, north] = p.country.box;
  const [dx, dy] = [(east - west) / columns, (north - south) / rows];
  const corners: Point[][] = [];
  for (let r = 0; r <= rows; r++) {
    corners.push([]);
    for (let c = 0; c <= columns; c++) {
      const inner = r > 0 && r < rows && c > 0 && c < columns ? 0.3 : 0;
      corners[r].push([west + (c + (rand() - 0.5) * inner) * dx, south + (r + (rand() - 0.5) * inner) * dy]);
    }
  }
  const edge = (a: Point, b: Point) => wigglyEdge(a, b, points, rand);
  // Borders are made a row at a time (a 600 MB level's all at once would not fit a string's limit).
  const out = createWriteStream(path);
  const write = async (text: string) => {
    if (!out.write(text)) await once(out, 'drain');
  };
  await write('{"type":"FeatureCollection","features":[\n');
  let below = corners[0].slice(0, columns).map((_, c) => edge(corners[0][c], corners[0][c + 1]));
  let n = 0;
  for (let r = 0; r < rows; r++) {
    const above = corners[r + 1]
      .slice(0, columns)
      .map((_, c) => edge(corners[r + 1][c], corners[r + 1][c + 1]));
    const sides = corners[r].map((_, c) => edge(corners[r][c], corners[r + 1][c]));
    for (let c = 0; c < columns; c++) {
      const ring = [
        ...below[c],
        ...sides[c + 1].slice(1),
        ...above[c].slice().reverse().slice(1),
        ...sides[c].slice().reverse().slice(1),
      ];
      const parent = parentOf(r, c);
      const code = p.level === 'ADM0' ? p.country.iso3 : p.level === 'ADM1' ? adm1Code(n) : '';
      const feature = {
        type: 'Feature',
        properties: {
          shapeName: p.level === 'ADM0' ? p.country.name : `${p.country.name} ${p.level} ${r}-${c}`,
          shapeISO: code,
          shapeID: `${p.country.iso3}-${p.level}-${n}`,
          shapeType: p.level,
          ...(p.level === 'ADM0' || p.level === 'ADM1' ? {} : { parentISO: parent }),
        },
        geometry: { type: 'Polygon', coordinates: [ring] },
      };
      await write(`${n > 0 ? ',\n' : ''}${JSON.stringify(feature)}`);
      n++;
    }
    below = above;
  }
  await write('\n]}\n');
  out.end();
  await once(out, 'close');
}

/**
 * Writes `data/earth/{ISO3}/` of `country` under `tree`: each of `levels`
 * (seeded from `seed` on, one seed a level) and a manifest whose numbers are
 * measured from the files; returns its datasets and their bytes.
 */
export async function writeCountry(
  tree: string,
  country: Country,
  levels: PlannedLevel[],
  seed: number,
): Promise<{ datasets: { level: Level; bytes: number }[]; bytes: number }> {
  const folder = `data/earth/${country.iso3}`;
  await mkdir(join(tree, folder), { recursive: true });
  const datasets = [];
  const adm1 = gridFor(levels.find((l) => l.level === 'ADM1')!);
  let written = 0;
  for (const [k, l] of levels.entries()) {
    const path = `${folder}/${country.iso3}_${l.level}.geojson`;
    await writeLevel(join(tree, path), l, adm1, seed + k);
    const stats = await measureGeoJSON(join(tree, path));
    written += stats.bytes;
    const { bytes, sha256, features, bbox, geometry_types, properties } = stats;
    datasets.push({
      level: l.level,
      path,
      bytes,
      sha256,
      features,
      bbox,
      geometry_types,
      properties,
      license: 'CC-BY-4.0',
    });
  }
  const manifest = {
    schema_version: 1,
    body: 'earth',
    iso_a3: country.iso3,
    iso_a2: country.iso2,
    name: { en: country.name },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: 'ok',
    source: {
      name: 'geoshelf benchmark',
      url: 'https://example.org/',
      license: 'CC-BY-4.0',
      retrieved: '2026-11-28',
    },
    datasets,
  };
  await writeFile(join(tree, folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { datasets, bytes: written };
}

/** Returns the root of a generated tree of about `total` bytes of GeoJSON (levels, not parts or previews), made on first use. */
export async function catalogueTree(total: number, say: (line: string) => void): Promise<string> {
  const tree = treeFolder(total);
  const done = join(tree, '.complete');
  if (existsSync(done)) return tree;
  await rm(tree, { recursive: true, force: true });
  const levels = plan(total);
  const split: string[] = [];
  const byCountry = new Map<Country, PlannedLevel[]>();
  for (const l of levels) byCountry.set(l.country, [...(byCountry.get(l.country) ?? []), l]);
  let written = 0;
  let seed = 1;
  for (const [country, own] of byCountry) {
    const made = await writeCountry(tree, country, own, seed);
    seed += own.length;
    written += made.bytes;
    const adm2 = made.datasets.find((d) => d.level === 'ADM2');
    if (adm2 && adm2.bytes > SPLIT_SHARE * total) split.push(country.iso3);
  }
  say(
    `generated ${levels.length} levels of ${byCountry.size} countries, ${(written / 2 ** 30).toFixed(2)} GiB`,
  );
  for (const iso3 of split)
    await geoshelf(['split', '--level', 'ADM2', '--root', tree, iso3], SETUP_TIMEOUT_MS);
  say(`split ADM2 of ${split.length} countries into parts; making previews`);
  await geoshelf(['preview', '--root', tree], SETUP_TIMEOUT_MS);
  await writeFile(done, '');
  return tree;
}
