// Two real vintages of one level, made from npm packages (never copied):
// U.S. counties of the Census cartographic boundaries 2015 (us-atlas 1.0.2,
// projected with d3.geoAlbersUsa().scale(1280).translate([480,300]) and
// simplified in pixels: inverted here, per inset) and 2017 (us-atlas 3.0.1,
// lon/lat, simplified on the sphere), the 51 states and DC of each, and a
// copy of 2017 with known edits (a rename, a re-code, a merge of two
// neighbours, a boundary moved 3 km, a split). Independent simplifications:
// every county's lines are drawn anew, but no county really changed between
// the editions (both already have Oglala Lakota 46102 and Kusilvak 02158).
// Written in the corpus layout (one feature a line, 6 decimals, RFC 7946
// winding) under node_modules/.cache/geoshelf/vintages/{key}/ on first use
// (a few seconds), keyed by this file and the packages' versions.
//   npx tsx test/support/vintages.ts   prints the folder (and makes it)
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import polygonClipping, { type MultiPolygon } from 'polygon-clipping';
import { feature } from 'topojson-client';
import { STATE_ISO } from '../../scripts/sample-data/us.ts';

const require = createRequire(import.meta.url);
const PACKAGE_DIR = fileURLToPath(new URL('../../', import.meta.url));

type Ring = [number, number][];
type Poly = Ring[];
type MP = Poly[];

/** The known edits applied to the 2017 copy; the feed must report exactly these. */
export const EDITS = {
  rename: { code: '46102', from: 'Oglala Lakota', to: 'Shannon' }, // the 2015 rename, played backwards
  recode: { from: '12086', to: '12025', name: 'Miami-Dade' }, // Dade's pre-1997 FIPS code
  merge: { into: '51005', absorbed: '51580' }, // Alleghany absorbs Covington (a 2013 proposal)
  boundary: { gains: '06069', loses: '06053', km: 3 }, // San Benito takes a half-disc of 3 km from Monterey
  split: { code: '08013', into: ['08013', '08914'], names: ['Boulder', 'Boulder East'] }, // along a meridian
};

// ---- us-atlas 1.x: geoAlbersUsa().scale(1280).translate([480, 300]), inverted per inset
const K = 1280;
const TX = 480;
const TY = 300;
type Inset = 'lower48' | 'alaska' | 'hawaii';
interface Projection {
  invert(p: [number, number]): [number, number] | null;
}

/** Returns the inset whose clip box holds pixel p (d3-geo's albersUsa boxes). */
function insetOf([px, py]: [number, number]): Inset {
  const x = (px - TX) / K;
  const y = (py - TY) / K;
  if (y >= 0.12 && y < 0.234 && x >= -0.425 && x < -0.214) return 'alaska';
  if (y >= 0.166 && y < 0.234 && x >= -0.214 && x < -0.115) return 'hawaii';
  return 'lower48';
}

let insets: Record<Inset, Projection> | undefined;
/** Returns albersUsa's three projections (d3-geo 3.1.2, its albersUsa.js), to invert each. */
function albersUsaInsets(): Record<Inset, Projection> {
  if (insets) return insets;
  const d3 = require('d3-geo');
  insets = {
    lower48: d3.geoAlbers().scale(K).translate([TX, TY]),
    alaska: d3
      .geoConicEqualArea()
      .rotate([154, 0])
      .center([-2, 58.5])
      .parallels([55, 65])
      .scale(K * 0.35)
      .translate([TX - 0.307 * K, TY + 0.201 * K]),
    hawaii: d3
      .geoConicEqualArea()
      .rotate([157, 0])
      .center([-3, 19.9])
      .parallels([8, 18])
      .scale(K)
      .translate([TX - 0.205 * K, TY + 0.212 * K]),
  };
  return insets;
}

/** Inverts a projected ring with one inset for the whole ring (the majority of its vertices' boxes). */
function invertRing(ring: Ring): Ring {
  const votes = new Map<Inset, number>();
  for (const p of ring) votes.set(insetOf(p), (votes.get(insetOf(p)) ?? 0) + 1);
  const inset = [...votes].sort((a, b) => b[1] - a[1])[0][0];
  const projection = albersUsaInsets()[inset];
  return ring.map((p) => {
    const q = projection.invert(p);
    if (!q) throw new Error(`no inverse for ${p}`);
    return [q[0], q[1]];
  });
}

// ---- clean-up as scripts/sample-data does: 6 decimals, no repeats, closed, RFC 7946 winding
const r6 = (v: number) => Math.round(v * 1e6) / 1e6;
function ringArea(r: Ring): number {
  let s = 0;
  for (let i = 0; i + 1 < r.length; i++) s += r[i][0] * r[i + 1][1] - r[i + 1][0] * r[i][1];
  return s / 2;
}
function cleanRing(r: Ring): Ring | undefined {
  const out: Ring = [];
  for (const [x, y] of r) {
    const p: [number, number] = [r6(x), r6(y)];
    const last = out[out.length - 1];
    if (!last || last[0] !== p[0] || last[1] !== p[1]) out.push(p);
  }
  const [first, last] = [out[0], out[out.length - 1]];
  if (out.length && (first[0] !== last[0] || first[1] !== last[1])) out.push(first);
  if (out.length < 4 || ringArea(out) === 0) return undefined;
  return out;
}
function cleanPolys(polys: MP): MP {
  const out: MP = [];
  for (const poly of polys) {
    const outer = cleanRing(poly[0]);
    if (!outer) continue;
    if (ringArea(outer) < 0) outer.reverse();
    const holes = poly
      .slice(1)
      .map(cleanRing)
      .filter((r): r is Ring => !!r)
      .map((r) => (ringArea(r) > 0 ? r.reverse() : r));
    out.push([outer, ...holes]);
  }
  return out;
}

interface Unit {
  fips: string;
  name: string;
  polys: MP;
  at?: [number, number]; // a position of the drawing when simplification left it no area
}
interface TopoFeature {
  id: string;
  properties?: { name?: string };
  geometry: { type: string; coordinates: unknown } | null;
}

function readTopology(
  file: string,
  object: 'counties' | 'states',
  projected: boolean,
  names?: Map<string, string>,
): Unit[] {
  const topology = require(file);
  const collection = feature(topology, topology.objects[object]) as unknown as { features: TopoFeature[] };
  const units: Unit[] = [];
  for (const f of collection.features) {
    const fips = String(f.id);
    if (!STATE_ISO[fips.slice(0, 2)]) continue; // Puerto Rico and the island areas have ISO3 codes of their own
    const g = f.geometry;
    let polys = (
      !g ? [] : g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : []
    ) as MP;
    if (projected) polys = polys.map((poly) => poly.map(invertRing));
    const at = polys.flat(2)[0];
    units.push({
      fips,
      name: f.properties?.name ?? names?.get(fips) ?? '',
      polys: cleanPolys(polys),
      at: at && [at[0], at[1]],
    });
  }
  return units.sort((a, b) => (a.fips < b.fips ? -1 : 1));
}

function toFeature(u: Unit, level: 'ADM1' | 'ADM2') {
  const geometry =
    u.polys.length === 0
      ? // Three small Virginia cities lose all area to the 2015 simplification: a ring
        // collapsed onto one position, as a published file would hold them (a catalogue's
        // geometry is never null), which matching reads as a unit without area.
        { type: 'Polygon', coordinates: [Array<[number, number]>(4).fill(u.at ?? [0, 0])] }
      : u.polys.length === 1
        ? { type: 'Polygon', coordinates: u.polys[0] }
        : { type: 'MultiPolygon', coordinates: u.polys };
  const state = level === 'ADM2' ? STATE_ISO[u.fips.slice(0, 2)] : STATE_ISO[u.fips];
  const properties =
    level === 'ADM2'
      ? { shapeName: u.name, shapeISO: '', shapeGroup: 'USA', shapeType: 'ADM2', parentISO: state }
      : { shapeName: u.name, shapeISO: state, shapeGroup: 'USA', shapeType: 'ADM1', parentISO: 'USA' };
  return { type: 'Feature', properties: { ...properties, src_shape_id: u.fips }, geometry };
}

function collection(units: Unit[], level: 'ADM1' | 'ADM2'): string {
  const features = units.map((u) => JSON.stringify(toFeature(u, level)));
  return `{"type":"FeatureCollection","features":[\n${features.join(',\n')}\n]}`;
}

// ---- the known edits
const KM_PER_DEGREE = 111.32;
function disc(lon: number, lat: number, km: number, n = 64): MP {
  const ring: Ring = [];
  for (let i = 0; i <= n; i++) {
    const a = (2 * Math.PI * (i % n)) / n;
    const dx = (km * Math.cos(a)) / (KM_PER_DEGREE * Math.cos((lat * Math.PI) / 180));
    ring.push([lon + dx, lat + (km * Math.sin(a)) / KM_PER_DEGREE]);
  }
  return [[ring]];
}

/** Returns the vertex of a nearest to b's vertices: a point of their shared border. */
function sharedBorderPoint(a: MP, b: MP): [number, number] {
  const others = b.flatMap((p) => p.flat());
  let best = a[0][0][0];
  let bestD = Infinity;
  for (const p of a.flatMap((q) => q.flat())) {
    for (const q of others) {
      const d = (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2;
      if (d < bestD) [bestD, best] = [d, p];
    }
  }
  return best;
}

const clip = (polys: MP) => polys as MultiPolygon;

function applyEdits(units: Unit[]): Unit[] {
  const byFips = new Map(units.map((u) => [u.fips, { ...u }]));
  const get = (fips: string) => {
    const u = byFips.get(fips);
    if (!u) throw new Error(`no county ${fips}`);
    return u;
  };
  const renamed = get(EDITS.rename.code);
  if (renamed.name !== EDITS.rename.from)
    throw new Error(`expected ${EDITS.rename.from}, got ${renamed.name}`);
  renamed.name = EDITS.rename.to;
  const recoded = get(EDITS.recode.from);
  byFips.delete(EDITS.recode.from);
  byFips.set(EDITS.recode.to, { ...recoded, fips: EDITS.recode.to });
  const into = get(EDITS.merge.into);
  into.polys = cleanPolys(
    polygonClipping.union(clip(into.polys), clip(get(EDITS.merge.absorbed).polys)) as MP,
  );
  byFips.delete(EDITS.merge.absorbed);
  const gains = get(EDITS.boundary.gains);
  const loses = get(EDITS.boundary.loses);
  const [lon, lat] = sharedBorderPoint(gains.polys, loses.polys);
  const d = clip(disc(lon, lat, EDITS.boundary.km));
  const moved = polygonClipping.intersection(clip(loses.polys), d) as MP;
  gains.polys = cleanPolys(polygonClipping.union(clip(gains.polys), clip(moved)) as MP);
  loses.polys = cleanPolys(polygonClipping.difference(clip(loses.polys), d) as MP);
  // The split: cut along the meridian through the middle of the box; the west half keeps the code.
  const split = get(EDITS.split.code);
  const xs = split.polys.flatMap((p) => p[0].map((q) => q[0]));
  const ys = split.polys.flatMap((p) => p[0].map((q) => q[1]));
  const mid = (Math.min(...xs) + Math.max(...xs)) / 2;
  const [y0, y1] = [Math.min(...ys) - 1, Math.max(...ys) + 1];
  const half = (x0: number, x1: number): MultiPolygon => [
    [
      [
        [x0, y0],
        [x1, y0],
        [x1, y1],
        [x0, y1],
        [x0, y0],
      ],
    ],
  ];
  const halves = [half(mid - 10, mid), half(mid, mid + 10)];
  EDITS.split.into.forEach((fips, i) => {
    const polys = cleanPolys(polygonClipping.intersection(clip(split.polys), halves[i]) as MP);
    byFips.set(fips, { fips, name: EDITS.split.names[i], polys });
  });
  return [...byFips.values()].sort((a, b) => (a.fips < b.fips ? -1 : 1));
}

/** The files vintages() makes, by name. */
export interface Vintages {
  dir: string;
  counties2015: string;
  counties2017: string;
  counties2017Edited: string;
  states2015: string;
  states2017: string;
}

function paths(dir: string): Vintages {
  return {
    dir,
    counties2015: join(dir, 'counties-2015.geojson'),
    counties2017: join(dir, 'counties-2017.geojson'),
    counties2017Edited: join(dir, 'counties-2017-edited.geojson'),
    states2015: join(dir, 'states-2015.geojson'),
    states2017: join(dir, 'states-2017.geojson'),
  };
}

/** Returns the vintages' files, made on first use (deterministic: the same bytes every time). */
export function vintages(): Vintages {
  const version = (name: string) =>
    (
      JSON.parse(readFileSync(join(PACKAGE_DIR, 'node_modules', name, 'package.json'), 'utf8')) as {
        version: string;
      }
    ).version;
  const key = createHash('sha256')
    .update(readFileSync(fileURLToPath(import.meta.url)))
    .update(['us-atlas-2015', 'us-atlas-2017', 'd3-geo', 'topojson-client'].map(version).join())
    .digest('hex')
    .slice(0, 16);
  const dir = join(PACKAGE_DIR, 'node_modules/.cache/geoshelf/vintages', key);
  if (existsSync(join(dir, 'states-2017.geojson'))) return paths(dir);
  const temp = `${dir}.${process.pid}.tmp`;
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  const c2017 = readTopology('us-atlas-2017/counties-10m.json', 'counties', false);
  // us-atlas 1.0.2 has no names; Census renamed no county between the editions, so 2017's serve.
  const names = new Map(c2017.map((u) => [u.fips, u.name]));
  const c2015 = readTopology('us-atlas-2015/us/10m.json', 'counties', true, names);
  const states2017 = readTopology('us-atlas-2017/counties-10m.json', 'states', false);
  const stateNames = new Map(states2017.map((u) => [u.fips, u.name]));
  const states2015 = readTopology('us-atlas-2015/us/10m.json', 'states', true, stateNames);
  const out = paths(temp);
  writeFileSync(out.counties2015, collection(c2015, 'ADM2'));
  writeFileSync(out.counties2017, collection(c2017, 'ADM2'));
  writeFileSync(out.counties2017Edited, collection(applyEdits(c2017), 'ADM2'));
  writeFileSync(out.states2015, collection(states2015, 'ADM1'));
  writeFileSync(out.states2017, collection(states2017, 'ADM1'));
  try {
    renameSync(temp, dir);
  } catch (error) {
    rmSync(temp, { recursive: true, force: true });
    if (!existsSync(join(dir, 'states-2017.geojson'))) throw error; // else another process made it first
  }
  return paths(dir);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(vintages().dir);
