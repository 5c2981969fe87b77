// The data of bench:geometry: a country's tree as published files come,
// deterministic for a seed. A small ADM0 (one feature, on one line), a large
// ADM1 whose whole FeatureCollection is one line (as many published files
// are), an ADM2 with one feature per line, and a small preview of each level
// (every feature kept, each shell cut to 6 positions). Polygons are
// star-shaped rings of 150-1,500 positions with 6 decimals, some with holes:
// valid by construction.
import {
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  renameSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { dirname, join } from 'node:path';
import { measureGeoJSON } from '../build/measure/measure.ts';
import { seededRandom } from '../test/support/random.ts';
import { starPolygon } from '../test/geometry/generate.ts';
import { coastUnit } from '../test/geometry/coast.ts';

type Geometry =
  { type: 'Polygon'; coordinates: number[][][] } | { type: 'MultiPolygon'; coordinates: number[][][][] };

/** Returns a unit's geometry: `parts` star polygons around (x, y) (a fifth with holes), or one. */
function unitGeometry(random: () => number, parts: number): Geometry {
  const x = random() * 340 - 170;
  const y = random() * 160 - 80;
  const n = () => 150 + Math.floor(random() * 1351);
  if (parts === 1 && random() >= 0.2)
    return { type: 'Polygon', coordinates: starPolygon(random, x, y, 0.1, n(), 0) };
  const count = parts === 1 ? 3 : parts;
  return {
    type: 'MultiPolygon',
    coordinates: Array.from({ length: count }, (_, k) =>
      starPolygon(
        random,
        x + (k % 8) * 0.25,
        y + Math.floor(k / 8) * 0.25,
        0.1,
        n(),
        k % 5 === 0 ? 0 : 1 + (k % 3),
      ),
    ),
  };
}

function feature(level: string, i: number, geometry: Geometry) {
  const properties = { shapeName: `Region ${i}`, shapeISO: `XX-${i}`, shapeGroup: 'XXX', shapeType: level };
  return { type: 'Feature', id: `XXX:${level}:${i}`, properties, geometry };
}

/**
 * Returns a preview of a unit, as a simplification would make it: each
 * polygon's shell cut to 6 positions spread along it (a star-shaped ring
 * stays valid), holes dropped (they are below the tolerance), coordinates
 * rounded to 3 decimals.
 */
function previewOf(geometry: Geometry): Geometry {
  const cut = (ring: number[][]) => {
    const kept = Array.from({ length: 6 }, (_, k) =>
      ring[Math.floor((k * (ring.length - 1)) / 6)]!.map((v) => Number(v.toFixed(3))),
    );
    return [...kept, kept[0]!];
  };
  return geometry.type === 'Polygon'
    ? { type: 'Polygon', coordinates: [cut(geometry.coordinates[0]!)] }
    : { type: 'MultiPolygon', coordinates: geometry.coordinates.map((polygon) => [cut(polygon[0]!)]) };
}

interface LevelSpec {
  level: string;
  bytes: number; // about this size (the ADM0: one feature whatever its size)
  parts: number; // polygons per unit
  oneLine: boolean; // the whole FeatureCollection on one line
  unit?: (random: () => number, i: number) => Geometry; // default: star polygons (unitGeometry)
  preview?: false; // no preview file
}

/** Writes a level and its preview (unless there); returns their paths. */
function ensureLevel(
  dir: string,
  iso: string,
  spec: LevelSpec,
  seed: number,
): { path: string; preview: string } {
  const path = join(dir, `${iso}_${spec.level}.geojson`);
  const preview = join(dir, 'preview', `${iso}_${spec.level}.preview.geojson`);
  if (existsSync(path) && (spec.preview === false || existsSync(preview))) return { path, preview };
  console.log(`generating ${path} (~${Math.round(spec.bytes / 1e6)} MB, once; kept for later runs)…`);
  mkdirSync(dirname(spec.preview === false ? path : preview), { recursive: true });
  const random = seededRandom(seed);
  const fd = openSync(`${path}.tmp`, 'w');
  const separator = spec.oneLine ? ',' : ',\n';
  let written = writeSync(fd, `{"type":"FeatureCollection","features":[${spec.oneLine ? '' : '\n'}`);
  const previews: string[] = [];
  let block: string[] = [];
  let blockLength = 0;
  for (let i = 0; i === 0 || written + blockLength < spec.bytes; i++) {
    const unit = feature(spec.level, i, spec.unit?.(random, i) ?? unitGeometry(random, spec.parts));
    const text = (i === 0 ? '' : separator) + JSON.stringify(unit);
    if (spec.preview !== false)
      previews.push(JSON.stringify({ ...unit, geometry: previewOf(unit.geometry) }));
    block.push(text);
    blockLength += text.length;
    if (blockLength > 8 << 20) {
      written += writeSync(fd, block.join(''));
      block = [];
      blockLength = 0;
    }
  }
  writeSync(fd, `${block.join('')}${spec.oneLine ? '' : '\n'}]}\n`);
  closeSync(fd);
  if (spec.preview !== false)
    writeFileSync(preview, `{"type":"FeatureCollection","features":[\n${previews.join(',\n')}\n]}\n`);
  renameSync(`${path}.tmp`, path);
  return { path, preview };
}

/**
 * Writes (once) under `root` the tree of one country, FJI: ADM0, ADM1 of
 * about `adm1Bytes` on one line, ADM2 of half that one feature per line,
 * each with a preview, and a manifest stating their measured stats. Returns
 * every GeoJSON file validate checks.
 */
export function ensureCountry(root: string, adm1Bytes: number, seed: number): Promise<string[]> {
  return ensureTree(root, ['FJI', 'Fiji', 'Fiyi'], seed, [
    { level: 'ADM0', bytes: 0, parts: 60, oneLine: true },
    { level: 'ADM1', bytes: adm1Bytes, parts: 25, oneLine: true },
    { level: 'ADM2', bytes: adm1Bytes / 2, parts: 1, oneLine: false },
  ]);
}

/**
 * Writes (once) under `root` the tree of one coastal country, CHL: one level
 * (ADM2) of about `bytes`, one jagged unit per line (test/geometry/coast.ts:
 * ~760 positions a shell, one unit in 100 made invalid), no preview.
 * Returns its GeoJSON file.
 */
export function ensureCoast(root: string, bytes: number, seed: number): Promise<string[]> {
  return ensureTree(root, ['CHL', 'Chile', 'Chile'], seed, [
    {
      level: 'ADM2',
      bytes,
      parts: 1,
      oneLine: false,
      unit: (random, i) => coastUnit(random, i),
      preview: false,
    },
  ]);
}

/** Writes (once) the levels of one country and its manifest; returns every GeoJSON file validate checks. */
async function ensureTree(
  root: string,
  [iso, en, es]: [string, string, string],
  seed: number,
  levels: LevelSpec[],
): Promise<string[]> {
  const dir = join(root, `data/earth/${iso}`);
  const files = levels.map((spec, k) => ensureLevel(dir, iso, spec, seed + k));
  const manifestPath = join(dir, 'manifest.json');
  if (!existsSync(manifestPath)) {
    const datasets = [];
    for (const [k, { path, preview }] of files.entries()) {
      const stats = await measureGeoJSON(path);
      datasets.push({
        level: levels[k]!.level,
        path: path.slice(root.length + 1),
        ...stats,
        ...(levels[k]!.preview !== false && {
          preview: preview.slice(root.length + 1),
          preview_bytes: statSync(preview).size,
        }),
        license: 'CC0-1.0',
      });
    }
    const manifest = {
      schema_version: 1,
      body: 'earth',
      iso_a3: iso,
      name: { en, es },
      crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
      status: 'ok',
      source: {
        name: 'bench:geometry',
        url: 'https://example.org/bench',
        license: 'CC0-1.0',
        retrieved: '2026-11-22',
      },
      datasets,
    };
    writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return files.flatMap(({ path, preview }, k) => (levels[k]!.preview === false ? [path] : [path, preview]));
}
