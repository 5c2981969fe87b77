// The units of a level (each feature of its file: a region, a county…), as the
// atlas lists, searches, maps and publishes them: name, code, parent, bbox,
// the part file holding it, and an anchor id that is its permalink.
import type { BBox, Dataset } from '../core/shared/manifest.ts';
import { CODE_KEYS, KEY_KEYS, NAME_KEYS, PARENT_KEYS, textValues as text } from '../identity/keys.ts';
import { longitudeSpan } from '../geo/map-frame.ts';

export interface Unit {
  id: string; // anchor on the country page, without "unit-": e.g. "US-TX", "USA-ADM2-US-AL.01001"
  name: string; // e.g. "Texas"; "" when the file names none
  names: string[]; // other names the file carries (name_en, NAME…), for search
  code: string; // shapeISO or another code property, e.g. "US-TX", else the level's own key (a county's FIPS "01001"); "" when none
  parent: string; // parent code, e.g. "US" or "US-AL"; "" when none
  bbox: BBox; // plain min/max, as the spec's bboxes
  display_bbox: BBox; // west > east when the shape crosses the antimeridian (RFC 7946 §5.2)
  part?: string; // code of the part file holding it, for a split level, e.g. "US-AL"
  feature: number; // its index among its file's features
  unit_id?: string; // its release ID (build/identity/unit-ids.ts), when it has one
  area_km2?: number; // its geodesic area on its body (unit-facts.ts), when read from its level's own file
  label?: [number, number]; // [lon, lat] inside it
  geojson?: string; // its own GeoJSON's path in dist/ (unit-files.ts)
}

type Position = number[];

/** Calls `each` for every position of a Polygon, MultiPolygon or GeometryCollection. */
function eachPosition(geometry: unknown, each: (p: Position) => void): void {
  const g = geometry as { type?: string; coordinates?: unknown; geometries?: unknown[] } | null;
  if (!g) return;
  if (g.type === 'GeometryCollection') return (g.geometries ?? []).forEach((x) => eachPosition(x, each));
  const walk = (value: unknown): void => {
    if (!Array.isArray(value)) return;
    if (typeof value[0] === 'number') each(value as Position);
    else for (const item of value) walk(item);
  };
  walk(g.coordinates);
}

/**
 * Returns the plain bbox of `lons`/`lats` and the display bbox: when moving
 * western longitudes east by 360° makes the shape narrower (Fiji: -180…180 →
 * 177…182), west > east, e.g. [177.0, -20.7, -178.2, -12.5].
 */
export function bboxes(lons: number[], lats: number[]): { bbox: BBox; display_bbox: BBox } {
  const { west, east, shiftedWest, shiftedEast, crosses } = longitudeSpan(lons);
  let [south, north] = [Infinity, -Infinity];
  for (const lat of lats) [south, north] = [Math.min(south, lat), Math.max(north, lat)];
  const bbox: BBox = [west, south, east, north];
  const wrap = (lon: number) => (lon > 180 ? lon - 360 : lon);
  return { bbox, display_bbox: crosses ? [wrap(shiftedWest), south, wrap(shiftedEast), north] : bbox };
}

/** Returns `value` usable in an id attribute and a URL fragment: "USA:ADM2:US-AL.01001" → "USA-ADM2-US-AL.01001". */
function slug(value: string): string {
  return value
    .normalize('NFD')
    .replace(/\p{M}/gu, '')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '');
}

interface Feature {
  id?: string | number;
  properties?: Record<string, unknown> | null;
  geometry?: unknown;
}

/** What one feature contributes to its level's units, before ids are given (the geometry reduced to its bboxes). */
export interface UnitRow {
  name: string;
  names: string[];
  code: string;
  iso: boolean; // the code is an ISO-like code (CODE_KEYS), not a level's key (KEY_KEYS)
  parents: string[];
  stable: string | undefined; // shapeID or the feature id
  box: { bbox: BBox; display_bbox: BBox } | undefined; // undefined: the feature has no position
}

/** Returns the unit row of one feature: its names, codes and bboxes; the positions are not kept. */
export function unitRow(f: Feature): UnitRow {
  const p = f.properties ?? {};
  const names = text(p, NAME_KEYS);
  const iso = text(p, CODE_KEYS)[0] as string | undefined;
  const lons: number[] = [];
  const lats: number[] = [];
  eachPosition(f.geometry, (q) => {
    lons.push(q[0]);
    lats.push(q[1]);
  });
  return {
    name: names[0] ?? '',
    names: names.slice(1),
    code: iso ?? text(p, KEY_KEYS)[0] ?? '',
    iso: iso !== undefined,
    parents: text(p, PARENT_KEYS),
    stable: text(p, ['shapeID'])[0] ?? (f.id === undefined ? undefined : String(f.id)),
    box: lons.length > 0 ? bboxes(lons, lats) : undefined,
  };
}

/**
 * Returns the units of one level's features, in file order. The id is the
 * code when the level's codes are unique (e.g. "CL-RM"), else the feature id
 * or shapeID, else level + name (a repeat gets "-2"). Features without a
 * position are skipped: they have no bbox, and no map shape to name.
 */
export function levelUnits(features: Feature[], dataset: Dataset): Unit[] {
  return unitsOfRows(features.map(unitRow), dataset);
}

/** Returns the units of a level from its features' rows (unitRow), as levelUnits does. */
export function unitsOfRows(rows: UnitRow[], dataset: Dataset): Unit[] {
  // Ids come from ISO-like codes only, so that showing a level's key (FIPS) changed no permalink.
  const codes = rows.map((r) => (r.iso ? r.code : ''));
  const uniqueCodes = codes.every((c) => c) && new Set(codes).size === codes.length;
  const partCodes = new Set((dataset.parts ?? []).map((p) => p.code));
  const used = new Set<string>();
  const units: Unit[] = [];
  for (const [feature, row] of rows.entries()) {
    if (!row.box) continue;
    const base =
      slug(uniqueCodes ? row.code : (row.stable ?? `${dataset.level}-${row.name}`)) || dataset.level;
    let id = base;
    for (let n = 2; used.has(id); n++) id = `${base}-${n}`;
    used.add(id);
    const part = row.parents.find((c) => partCodes.has(c));
    units.push({
      id,
      name: row.name,
      names: row.names,
      code: row.code,
      parent: row.parents[0] ?? '',
      ...row.box,
      ...(part ? { part } : {}),
      feature,
    });
  }
  return units;
}
