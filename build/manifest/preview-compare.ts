// Compares a preview with the dataset it was made from: the same units, told
// apart by code and name, and for each unit an extent its simplification
// could have produced. A preview made by `geoshelf preview` (build/preview/)
// keeps every feature in order with its identifying properties, and each of
// its positions is one of the data's, rounded; so a fresh preview always
// passes, and a preview made before the data changed is found out.
import type { Simplification } from '../core/shared/manifest.ts';
import { readFeatureCollection } from '../geojson/features.ts';
import type { FeatureListener } from '../geojson/feature-listener.ts';
import { GeometrySink } from '../geometry/feature-sink.ts';
import type { FlatGeometry } from '../geometry/flat-geometry.ts';
import { CODE_KEYS, NAME_KEYS, textValues } from '../identity/keys.ts';
import { extentDifference, extentRule } from './preview-extent.ts';

/** A file as the comparison reads it: its path as shown, and the real path read. */
export interface ReadFile {
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  real: string;
}

/** What a preview is compared with. */
export interface PreviewComparison {
  files: ReadFile[]; // the dataset's files, in order: its path, or its parts
  preview: ReadFile;
  properties: { data: string[]; preview: string[] }; // the property names each side's features have
  simplification?: Simplification; // as the manifest states it; without it, extents are not compared
  perDegree: number; // metres per degree on the manifest's body (METRES_PER_DEGREE), what tolerance_m is measured in
}

/** How a stale preview differs: the first difference, e.g. `"Valparaíso" (CL-VS) is missing from it`, and how many units differ. */
export interface Staleness {
  first: string;
  units: number;
}

/** A unit's identity and where it is, e.g. { code: "CL-VS", name: "Valparaíso", at: "/features/5" }. */
interface Identity {
  code: string;
  name: string;
  at: string;
}

/** A unit of the preview, with what the extent check needs. */
interface PreviewUnit extends Identity {
  index: number;
  box: number[]; // [west, south, east, north] of its positions
  vertices: number; // its positions, less each ring's closing one
}

interface Difference {
  order: number; // the data unit's index; after every data unit for the preview's own
  text: string;
}

/**
 * Returns how the preview differs from its dataset, or undefined when it is
 * what `geoshelf preview` could have made of it. Units are matched by code
 * and name (CODE_KEYS, NAME_KEYS: those both files have), in order; a unit
 * matched by one of them only is renamed or re-coded. Each unit matched by
 * both must have an extent its simplification allows (./preview-extent.ts).
 * The files must be valid GeoJSON (measured before).
 */
export async function comparePreview(c: PreviewComparison): Promise<Staleness | undefined> {
  const keys = sharedKeys(c.properties.data, c.properties.preview);
  const rule = c.simplification ? extentRule(c.simplification, c.perDegree) : undefined;
  const previewUnits: PreviewUnit[] = [];
  await eachUnit([c.preview], keys, (identity, g) => {
    const { box, vertices } = summary(g);
    previewUnits.push({ ...identity, index: previewUnits.length, box, vertices });
  });

  // Exact matches as the data streams by (a fresh preview matches every unit so, in order).
  const taken = new Set<PreviewUnit>();
  const exact = new Queues(previewUnits, identityKey, taken);
  const differences: Difference[] = [];
  const unmatched: (Identity & { order: number })[] = [];
  let order = 0;
  await eachUnit(c.files, keys, (identity, g) => {
    const match = exact.take(identityKey(identity));
    if (!match) unmatched.push({ ...identity, order });
    else if (rule) {
      const text = extentDifference(g, summary(g), match, rule);
      if (text) differences.push({ order, text: `${label(identity)} ${text}` });
    }
    order++;
  });
  const left = previewUnits.filter((u) => !taken.has(u));
  differences.push(...identityDifferences(unmatched, left, order));
  if (differences.length === 0) return undefined;
  differences.sort((a, b) => a.order - b.order);
  return { first: differences[0]!.text, units: differences.length };
}

/** The keys that name and code a unit on both sides: a preview keeps only some (build/preview/preview.ts). */
function sharedKeys(data: string[], preview: string[]): { code: string[]; name: string[] } {
  const both = (key: string) => data.includes(key) && preview.includes(key);
  return { code: CODE_KEYS.filter(both), name: NAME_KEYS.filter(both) };
}

function identityKey(unit: Identity): string {
  return `${unit.code}\0${unit.name}`;
}

/**
 * Returns the differences of the units not matched by code and name: matched
 * by code (renamed), else by name (re-coded), else missing from the preview;
 * then the preview's units left over. `end`: the order after every data unit.
 */
function identityDifferences(
  unmatched: (Identity & { order: number })[],
  left: PreviewUnit[],
  end: number,
): Difference[] {
  const taken = new Set<PreviewUnit>();
  const withCode = new Queues(left, (u) => u.code, taken);
  const withName = new Queues(left, (u) => u.name, taken);
  const found: Difference[] = [];
  for (const unit of unmatched) {
    const byCode = unit.code ? withCode.take(unit.code) : undefined;
    const byName = byCode || !unit.name ? undefined : withName.take(unit.name);
    let text: string;
    if (byCode) text = byCode.name ? `is named "${byCode.name}" in it` : 'has no name in it';
    else if (byName) text = byName.code ? `has code ${byName.code} in it` : 'has no code in it';
    else text = 'is missing from it';
    found.push({ order: unit.order, text: `${label(unit)} ${text}` });
  }
  for (const unit of left) {
    if (taken.has(unit)) continue;
    const text = unit.code || unit.name ? `${label(unit)} is in it` : `its unit at ${unit.at} is`;
    found.push({ order: end + unit.index, text: `${text} but not in the dataset` });
  }
  return found;
}

/**
 * Preview units by a key (units whose key is "" are left out), each taken at
 * most once, in order; `taken` is shared by queues over the same units.
 * Lookups, not scans: a level of 50,000 units whose codes all changed stays linear.
 */
class Queues {
  private readonly queues = new Map<string, { units: PreviewUnit[]; next: number }>();

  constructor(
    units: PreviewUnit[],
    key: (unit: PreviewUnit) => string,
    private readonly taken: Set<PreviewUnit>,
  ) {
    for (const unit of units) {
      const value = key(unit);
      if (!value) continue; // no code (or no name): not matched by it
      const queue = this.queues.get(value);
      if (queue) queue.units.push(unit);
      else this.queues.set(value, { units: [unit], next: 0 });
    }
  }

  /** Returns the first unit with key `value` not taken yet, and takes it. */
  take(value: string): PreviewUnit | undefined {
    const queue = this.queues.get(value);
    while (queue && queue.next < queue.units.length) {
      const unit = queue.units[queue.next++]!;
      if (this.taken.has(unit)) continue;
      this.taken.add(unit);
      return unit;
    }
    return undefined;
  }
}

/** Returns a unit as messages name it: `"Valparaíso" (CL-VS)`, `"Valparaíso"`, `CL-VS`, or `the unit at /features/3`. */
function label(unit: Identity): string {
  if (unit.name && unit.code) return `"${unit.name}" (${unit.code})`;
  if (unit.name) return `"${unit.name}"`;
  return unit.code || `the unit at ${unit.at}`;
}

/** Returns a geometry's bbox and its positions less each ring's closing one. */
function summary(g: FlatGeometry): { box: number[]; vertices: number } {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  const { xy } = g;
  for (let i = 0; i < g.positions; i++) {
    const x = xy[2 * i]!;
    const y = xy[2 * i + 1]!;
    if (x < box[0]!) box[0] = x;
    if (y < box[1]!) box[1] = y;
    if (x > box[2]!) box[2] = x;
    if (y > box[3]!) box[3] = y;
  }
  return { box, vertices: g.positions - g.rings };
}

/**
 * Hands each feature of `files` (one after the other) to `visit`: its code
 * and name by `keys`, and its geometry, valid only during the call.
 */
async function eachUnit(
  files: ReadFile[],
  keys: { code: string[]; name: string[] },
  visit: (identity: Identity, g: FlatGeometry) => void,
): Promise<void> {
  for (const file of files) {
    let geometry: FlatGeometry | undefined;
    let properties: Record<string, unknown> = {};
    const sink = new GeometrySink((_, g) => (geometry = g));
    const listener: FeatureListener = {
      keep: 'properties',
      properties: (bytes) => {
        const value = JSON.parse(bytes.toString('utf8')) as unknown;
        properties = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
      },
      feature: ({ index }) => {
        const code = textValues(properties, keys.code)[0] ?? '';
        const name = textValues(properties, keys.name)[0] ?? '';
        const at = files.length > 1 ? `${file.path} /features/${index}` : `/features/${index}`;
        visit({ code, name, at }, geometry!);
        properties = {};
      },
    };
    await readFeatureCollection(file.real, listener, { sink });
  }
}
