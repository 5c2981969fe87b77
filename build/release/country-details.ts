// What a release says about a country beside its units: its name, codes,
// CRS, status, source, notes and each level's licence and provider, as the
// manifest describes them. A publisher who renames a country or changes its
// source or licence makes a release that a citing reader must be told of,
// so the feed gets a `country-changed` entry listing each field, from → to.
// The numbers `validate` measures (bytes, sha256, counts, bbox, properties),
// the preview's `simplification` (what `preview` made)
// and the files' paths are not details: their changes are the units'.
import type { CountryDetailsChange, DetailChange } from '../core/shared/api.ts';
import { isObject } from '../core/json-value.ts';
import type { Manifest, MeasuredFile } from '../core/shared/manifest.ts';
import type { Ledger, LedgerRelease, ReleasedFile } from './ledger.ts';
import { readObject } from './object-store.ts';

/** The manifest's fields that describe the country, compared key by key one level down. */
const COUNTRY_FIELDS = ['name', 'iso_a2', 'm49_region', 'crs', 'status', 'source', 'notes'] as const;
/** Each level's fields that describe it, by level (e.g. "ADM1.license"). */
const LEVEL_FIELDS = ['license', 'src_provider', 'src_year'] as const;

type Json = DetailChange['from'];

/**
 * Returns the manifest of `body/country` as the release `previous` recorded
 * it, parsed, or undefined when the ledger does not hold it or it is not
 * JSON (a damaged copy is the ledger check's to report).
 */
export async function previousManifest(
  root: string,
  ledger: Ledger,
  previous: LedgerRelease,
  body: string,
  country: string,
): Promise<Record<string, unknown> | undefined> {
  const file = previous.record.files.find(
    (f: MeasuredFile) => f.path === `data/${body}/${country}/manifest.json`,
  );
  const object = file && ledger.objects.get(file.sha256);
  if (!file || !object) return undefined;
  try {
    const manifest = JSON.parse((await readObject(root, file.sha256, object)).toString('utf8')) as unknown;
    return isObject(manifest) ? manifest : undefined;
  } catch {
    return undefined;
  }
}

/** Returns the described fields of a manifest, flattened one level ("source.license", "ADM1.license"). */
function details(m: Record<string, unknown>): Map<string, Json> {
  const out = new Map<string, Json>();
  const put = (field: string, v: unknown) => {
    if (v !== undefined) out.set(field, v as Json);
  };
  for (const key of COUNTRY_FIELDS) {
    const v = m[key];
    if (isObject(v)) for (const [k, x] of Object.entries(v)) put(`${key}.${k}`, x);
    else put(key, v);
  }
  for (const d of Array.isArray(m.datasets) ? m.datasets : []) {
    if (!isObject(d) || typeof d.level !== 'string') continue;
    for (const key of LEVEL_FIELDS) put(`${d.level}.${key}`, d[key]);
  }
  return out;
}

/**
 * Returns the `country-changed` entry of a country both releases hold, or
 * undefined when its manifest is byte for byte the recorded one or no
 * described field differs. Fields of a level only one release has are left
 * out: that level is reported added or removed.
 */
export async function countryDetailsChange(
  root: string,
  ledger: Ledger,
  previous: LedgerRelease,
  current: { file: string; manifest: Manifest },
  files: ReleasedFile[],
): Promise<CountryDetailsChange | undefined> {
  const sha = (list: { path: string; sha256: string }[]) => list.find((f) => f.path === current.file)?.sha256;
  if (sha(previous.record.files) === sha(files)) return undefined;
  const { body, iso_a3: country } = current.manifest;
  const before = await previousManifest(root, ledger, previous, body, country);
  if (!before) return undefined;
  const changed = detailChanges(before, current.manifest as unknown as Record<string, unknown>);
  if (!changed.length) return undefined;
  return { type: 'country-changed', country, body, name: current.manifest.name.en, fields: changed };
}

/**
 * Returns each described field that differs between two manifests (as
 * parsed JSON), sorted by field, from → to; a field missing on one side is
 * null there. Fields of a level only one of them has are left out: that
 * level is reported added or removed.
 */
export function detailChanges(before: Record<string, unknown>, now: Record<string, unknown>): DetailChange[] {
  const levels = (m: Record<string, unknown>) =>
    new Set((Array.isArray(m.datasets) ? m.datasets : []).map((d) => (isObject(d) ? d.level : undefined)));
  const [a, b] = [details(before), details(now)];
  const [levelsA, levelsB] = [levels(before), levels(now)];
  const inBoth = (field: string) => {
    const level = field.slice(0, field.indexOf('.'));
    return !/^(ADM\d|QUAD)$/.test(level) || (levelsA.has(level) && levelsB.has(level));
  };
  const changed: DetailChange[] = [];
  for (const field of [...new Set([...a.keys(), ...b.keys()])].sort()) {
    const [from, to] = [a.get(field) ?? null, b.get(field) ?? null];
    if (inBoth(field) && JSON.stringify(from) !== JSON.stringify(to)) changed.push({ field, from, to });
  }
  return changed;
}
