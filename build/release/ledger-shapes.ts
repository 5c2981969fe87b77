// The shapes of the ledger's records, checked when the ledger is read: a
// ledger arrives through pull requests, so every record is untrusted input,
// like a manifest. A path must stay inside the folder it names a file of
// (no "..", no absolute path, no backslash, no control character), a version
// must be one (build/release/versions.ts), and every field later code reads
// must have its type. Each check returns what is wrong (one phrase), or
// undefined; the ledger reader names the file and the place.
import { isVersion } from './versions.ts';

const SHA256 = /^[0-9a-f]{64}$/;
const LEVELS = new Set(['ADM0', 'ADM1', 'ADM2', 'ADM3', 'ADM4', 'ADM5', 'QUAD']);
const COUNTRY = /^[A-Z]{3}$/;
const BODY = /^[a-z]+$/;
/** A unit ID: 12 characters of Crockford's base 32 (build/identity/registry.ts makes them). */
const UNIT_ID = /^[0-9a-hjkmnp-tv-z]{12}$/;
/** Longest path a record may hold, in characters. */
const MAX_PATH = 1024;

export type Check = (value: unknown) => string | undefined;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
const isCount = (v: unknown): v is number => Number.isSafeInteger(v) && (v as number) >= 0;
const isString = (v: unknown): v is string => typeof v === 'string';

/**
 * Returns whether `path` is a relative path that stays inside the folder it
 * is joined to, on every system: segments separated by "/", none empty, "."
 * or "..", no backslash, no control character, not absolute, at most 1,024
 * characters. E.g. "data/earth/CHL/CHL_ADM1.geojson" or "earth/CHL/index.html".
 */
function isSafePath(path: unknown): path is string {
  if (typeof path !== 'string' || path.length === 0 || path.length > MAX_PATH) return false;
  // eslint-disable-next-line no-control-regex
  if (path.includes('\\') || /[\u0000-\u001f\u007f]/.test(path)) return false;
  return path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** Returns what is wrong with `value` as a list whose every item passes `item`, naming the first bad item. */
export function checkList(value: unknown, item: Check): string | undefined {
  if (!Array.isArray(value)) return 'expected a list';
  for (let i = 0; i < value.length; i++) {
    const wrong = item(value[i]);
    if (wrong) return `item ${i}: ${wrong}`;
  }
  return undefined;
}

/** Returns the first field of `object` whose check fails, as "field: what", or undefined. */
function fields(object: unknown, checks: Record<string, Check>): string | undefined {
  if (!isObject(object)) return 'expected an object';
  for (const [field, check] of Object.entries(checks)) {
    const wrong = check(object[field]);
    if (wrong) return `${field}: ${wrong}`;
  }
  return undefined;
}

const optional =
  (check: Check): Check =>
  (v) =>
    v === undefined ? undefined : check(v);
const is =
  (test: (v: unknown) => boolean, what: string): Check =>
  (v) =>
    test(v) ? undefined : `expected ${what}`;

const path = is(isSafePath, 'a relative path inside its folder');
const sha256 = is((v) => isString(v) && SHA256.test(v), 'a sha256 (64 lower-case hexadecimal digits)');
/** An item of an index chunk (ledger_version 4): the sha256 of a record chunk. */
export const chunkName: Check = sha256;
const count = is(isCount, 'a whole number ≥ 0');
const string = is(isString, 'a string');
const version = is(isVersion, 'a release version');
const level = is((v) => isString(v) && LEVELS.has(v), 'a level (ADM0…ADM5, QUAD)');
const country = is((v) => isString(v) && COUNTRY.test(v), 'an ISO3 code');
const body = is((v) => isString(v) && BODY.test(v), 'a body (lower-case letters)');
const unitId = is((v) => isString(v) && UNIT_ID.test(v), 'a unit ID');
const unitIds: Check = (v) => checkList(v, unitId);

/** A file of the data tree as a release holds it: {path, sha256, bytes}. */
export const releasedFile: Check = (v) => fields(v, { path, sha256, bytes: count });

/** A published file of a release: a released file, maybe a template. */
export const siteFile: Check = (v) =>
  fields(v, { path, sha256, bytes: count, template: optional(is((t) => t === true, 'true')) });

const area = is((v) => typeof v === 'number' && Number.isFinite(v) && v >= 0, 'an area ≥ 0');
const share = is((v) => typeof v === 'number' && v >= 0 && v <= 1, 'a share from 0 to 1');

/** A level's coverage figures as validate measured them (LevelCoverageFigures). */
const coverageFigures: Check = (v) =>
  fields(v, {
    units: count,
    gap_width_m: area,
    overlaps: (o) => fields(o, { count, area_m2: area }),
    gaps: (g) => fields(g, { count, area_m2: area }),
    edges: count,
    nesting: optional((n) =>
      fields(n, { parent_level: level, parent_covered: share, outside: share, units_outside: count }),
    ),
  });

/** One level of one country: {body, country, level, files: [{path, sha256}], ids, coverage?}. */
export const releasedLevel: Check = (v) =>
  fields(v, {
    body,
    country,
    level,
    files: (f) => checkList(f, (x) => fields(x, { path, sha256 })),
    ids: unitIds,
    coverage: optional(coverageFigures),
  });

/** A unit of the registry. */
export const registryUnit: Check = (v) =>
  fields(v, {
    id: unitId,
    country,
    level,
    code: string,
    name: string,
    first_seen: version,
    last_seen: optional(version), // absent in the chunks for a unit of the release that stores them
    last_changed: version,
    supersedes: optional(unitIds),
    superseded_by: optional(unitIds),
    parent_id: (p) => (p === null ? undefined : unitId(p)),
    file: optional(path),
    feature: optional(count),
  });

const UNIT_CHANGES = new Set([
  'added',
  'removed',
  'renamed',
  'recoded',
  'attributes',
  'geometry',
  'restored',
]);
const GROUP_CHANGES = new Set(['merged', 'split', 'reorganised']);
const COUNTRY_CHANGES = new Set(['country-added', 'country-removed']);
const LEVEL_CHANGES = new Set(['level-added', 'level-removed']);

/** One described field of a `country-changed` entry: its name (from and to are shown as they are). */
const detail: Check = (v) => fields(v, { field: string });

/** One entry of a release's feed: what later code reads of it (other fields are shown as they are). */
export const releaseChange: Check = (v) => {
  const type = isObject(v) ? v.type : undefined;
  if (typeof type !== 'string') return 'type: expected a change type';
  if (UNIT_CHANGES.has(type)) return fields(v, { country, level, id: unitId });
  if (GROUP_CHANGES.has(type)) return fields(v, { country, level, old: unitIds, new: unitIds });
  if (COUNTRY_CHANGES.has(type))
    return fields(v, { country, body, name: string, levels: (l) => checkList(l, level) });
  if (type === 'country-changed')
    return fields(v, { country, body, name: string, fields: (l) => checkList(l, detail) });
  if (LEVEL_CHANGES.has(type)) return fields(v, { country, level, units: count });
  return `type: "${type}" is not a change type`;
};

/** The thresholds a release recorded: an object of numbers. */
const thresholds: Check = (v) =>
  isObject(v) && Object.values(v).every((n) => typeof n === 'number' && Number.isFinite(n))
    ? undefined
    : 'expected an object of numbers';

/** The counts a release recorded: {units, changes: {type: n}}. */
const counts: Check = (v) =>
  fields(v, {
    units: count,
    changes: (c) => (isObject(c) && Object.values(c).every(isCount) ? undefined : 'expected counts by type'),
  });

/**
 * The fields every release record has, whatever its format (release.json's
 * top level, but its lists): `version`, a whole `sequence` ≥ 1, `previous`
 * (a version or null), `code_key`, `thresholds` and `counts`.
 */
export const releaseHead: Check = (v) =>
  fields(v, {
    version,
    sequence: is((n) => Number.isSafeInteger(n) && (n as number) >= 1, 'a whole number ≥ 1'),
    previous: (p) => (p === null ? undefined : version(p)),
    code_key: (k) =>
      k === null || (isString(k) && k.length > 0) ? undefined : 'expected a property name or null',
    thresholds,
    counts,
    date: optional(is((d) => isString(d) && /^\d{4}-\d{2}-\d{2}$/.test(d), 'a date (YYYY-MM-DD)')),
  });
