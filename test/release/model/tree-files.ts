// Writes a model tree (test/release/model/tree.ts) as a data tree a
// publisher would have: data/earth/{ISO3}/ with one GeoJSON file per level
// (Chile's ADM2 as two parts, north and south, at ADM2/{code}.geojson) and a
// manifest whose derived fields hold what the files hold (bytes and sha256
// left out where the schema allows: a valid manifest without them must
// release). Only files whose text changed are written again.
import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { round6, type MP } from './geometry.ts';
import type { ModelUnit } from './level.ts';
import type { ModelState } from './script.ts';
import type { CountryModel, TreeLevel, TreeState } from './tree.ts';

/** The latitude dividing a parted level's two parts (the middle of an ADM2 grid). */
const PARTS_SPLIT = -38.3;

/** One file of a level: its path, its part's code (for a parted level), and its units in feature order. */
export interface LevelFile {
  path: string; // data/earth/{ISO3}/{ISO3}_{LEVEL}.geojson, or data/earth/{ISO3}/{LEVEL}/{code}.geojson for a part
  code?: string;
  units: ModelUnit[];
}

/** Returns the files of one level of `c`, in the order release reads them (the manifest's). */
export function levelFiles(c: CountryModel, level: TreeLevel): LevelFile[] {
  const units = c.levels.get(level)!.units;
  const folder = `data/earth/${c.iso}`;
  if (c.parts !== level) return [{ path: `${folder}/${c.iso}_${level}.geojson`, units }];
  const middle = (u: ModelUnit) => {
    const ys = u.geometry.flatMap((poly) => poly[0]!.map((p) => p[1]));
    return (Math.min(...ys) + Math.max(...ys)) / 2;
  };
  const north = units.filter((u) => middle(u) >= PARTS_SPLIT);
  const south = units.filter((u) => middle(u) < PARTS_SPLIT);
  const code = (side: string) => `${c.iso.slice(0, 2)}-${side}`;
  return [
    { path: `${folder}/${level}/${code('N')}.geojson`, code: code('N'), units: north },
    { path: `${folder}/${level}/${code('S')}.geojson`, code: code('S'), units: south },
  ].filter((f) => f.units.length > 0); // a part holds at least one unit
}

/** Returns a level file's GeoJSON text, one feature per line, placed `offset` degrees east. */
function geojson(c: CountryModel, level: TreeLevel, units: ModelUnit[]): string {
  const features = units.map((u) => {
    const properties = {
      shapeName: u.name,
      shapeISO: u.code,
      shapeGroup: c.iso,
      shapeType: level,
      population: u.population,
    };
    const coordinates = placed(u.geometry, c.offset);
    return JSON.stringify({ type: 'Feature', properties, geometry: { type: 'MultiPolygon', coordinates } });
  });
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}\n`;
}

const placed = (mp: MP, offset: number): MP =>
  mp.map((poly) => poly.map((ring) => ring.map(([x, y]) => [round6(x + offset), y])));

/** The stats a manifest states for a file (or files) of units, as validate measures them. */
function statsOf(c: CountryModel, units: ModelUnit[]) {
  const b = [Infinity, Infinity, -Infinity, -Infinity];
  for (const u of units) {
    for (const [x, y] of placed(u.geometry, c.offset).flat(2)) {
      b[0] = Math.min(b[0]!, x);
      b[1] = Math.min(b[1]!, y);
      b[2] = Math.max(b[2]!, x);
      b[3] = Math.max(b[3]!, y);
    }
  }
  return {
    features: units.length,
    bbox: b,
    geometry_types: { MultiPolygon: units.length },
    properties: ['population', 'shapeGroup', 'shapeISO', 'shapeName', 'shapeType'],
  };
}

/** A level as written: its files' texts by path, and its dataset in the manifest. */
interface WrittenLevel {
  texts: Map<string, string>;
  dataset: object;
}

/** Each level state as written, by country: a state is replaced, never changed, so a level unchanged by a script is not written out again. */
const written = new WeakMap<ModelState, Map<string, WrittenLevel>>();

/** Returns the files and the dataset of one level of `c`. */
function levelWritten(c: CountryModel, level: TreeLevel): WrittenLevel {
  const state = c.levels.get(level)!;
  const known = written.get(state)?.get(c.iso);
  if (known) return known;
  const texts = new Map<string, string>();
  const files = levelFiles(c, level);
  for (const f of files) texts.set(f.path, geojson(c, level, f.units));
  const common = {
    level,
    ...statsOf(
      c,
      files.flatMap((f) => f.units),
    ),
    license: 'CC0-1.0',
  };
  let dataset: object = { ...common, path: files[0]!.path }; // no bytes, no sha256: validate measures them
  if (c.parts === level) {
    const parts = files.map((f) => {
      const text = texts.get(f.path)!;
      const measured = {
        bytes: Buffer.byteLength(text),
        sha256: createHash('sha256').update(text).digest('hex'),
      };
      return { code: f.code!, path: f.path, ...measured, ...statsOf(c, f.units) };
    });
    dataset = { ...common, split_by: 'ADM1', parts };
  }
  const made = { texts, dataset };
  written.set(state, (written.get(state) ?? new Map<string, WrittenLevel>()).set(c.iso, made));
  return made;
}

/** Returns the manifest of `c` and the text of each of its level files, by path. */
function countryFiles(c: CountryModel): Map<string, string> {
  const texts = new Map<string, string>();
  const datasets = c.possible
    .filter((level) => c.levels.has(level))
    .map((level) => {
      const made = levelWritten(c, level);
      for (const [path, text] of made.texts) texts.set(path, text);
      return made.dataset;
    });
  const manifest = {
    schema_version: 1,
    body: 'earth',
    iso_a3: c.iso,
    name: { en: c.name },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: 'ok',
    source: {
      name: 'geoshelf model tree',
      url: 'https://example.org/',
      license: 'CC0-1.0',
      retrieved: '2026-11-01',
    },
    datasets,
  };
  texts.set(`data/earth/${c.iso}/manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
  return texts;
}

/**
 * Writes `tree` under `root`: each present country's files, each file only
 * when its text is not the one `written` (path → text) says it holds; the
 * files of countries and levels no longer present are deleted.
 */
export function writeTree(root: string, tree: TreeState, written: Map<string, string>): void {
  const wanted = new Map<string, string>();
  for (const c of tree.countries)
    if (c.present) for (const [path, text] of countryFiles(c)) wanted.set(path, text);
  for (const path of [...written.keys()]) {
    if (wanted.has(path)) continue;
    rmSync(join(root, path), { force: true });
    written.delete(path);
  }
  for (const c of tree.countries) {
    if (!c.present) rmSync(join(root, 'data/earth', c.iso), { recursive: true, force: true });
  }
  for (const [path, text] of wanted) {
    if (written.get(path) === text) continue;
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
    written.set(path, text);
  }
}
