// Splits a level into one file per ADM1 parent: each feature goes to the
// parent its code property names, else to the parent it overlaps most, else
// to `unassigned`. Returns the part texts; the CLI writes them.
import { UserError } from '../core/errors.ts';
import { problem } from '../core/problem.ts';
import type { Dataset, Level, Manifest } from '../core/shared/manifest.ts';
import { byCodepoint } from '../measure/measure.ts';
import type { GeoFeature } from '../geojson/level-features.ts';
import { boxesMeet, overlapArea, planarArea, shapeOf, type Shape } from './geometry.ts';

/** The property each feature of a part gets: its parent's part code, as in the corpus. */
const PARENT_PROPERTY = 'adm1ISO';
/** Properties that may name a feature's ADM1 parent, tried in this order. */
const PARENT_CODE_PROPERTIES = ['parentISO', 'adm1ISO'];
/** A best overlap below this share of the feature's area is flagged in the summary. */
export const SMALL_OVERLAP = 0.5;

export interface Parent {
  code: string; // part code: the ISO 3166-2 code, e.g. "AR-C", or a slug, e.g. "buenos-aires"
  iso: string; // the feature's own code (shapeISO), possibly "" or the country's code
  name: string;
  shape?: Shape;
}

export interface Assignment {
  index: number; // the feature's position in the level
  name: string; // e.g. "Comuna 1"
  code: string; // the parent's part code, or "unassigned"
  how: 'code' | 'overlap' | 'unassigned';
  share?: number; // by overlap: the best parent's share of the feature's area, 0–1
  note?: string; // e.g. "polygon-clipping failed against AR-B: …"
}

/**
 * Returns the ADM1 features as parents with unique part codes: the feature's
 * ISO 3166-2 code when it has one that is not the country's own code, else a
 * slug of its name (e.g. "la-rioja"), else "adm1-N"; a repeat gets "-2", "-3"….
 */
export function parentsOf(adm1: GeoFeature[], countryCodes: string[]): Parent[] {
  const used = new Set<string>(['unassigned']);
  return adm1.map((feature, i) => {
    const props = feature.properties ?? {};
    const iso = typeof props.shapeISO === 'string' ? props.shapeISO : '';
    const name = nameOf(feature) || `ADM1 ${i + 1}`;
    const valid = /^[A-Z]{2}-[A-Z0-9]{1,3}$/.test(iso) && !countryCodes.includes(iso);
    const base = valid ? iso : slug(name) || `adm1-${i + 1}`;
    let code = base;
    for (let n = 2; used.has(code); n++) code = `${base}-${n}`;
    used.add(code);
    return { code, iso, name, shape: shapeOf(feature.geometry) };
  });
}

/** Returns a lowercase ASCII slug, e.g. "Tierra del Fuego, Antártida" → "tierra-del-fuego-antartida". */
export function slug(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

function nameOf(feature: GeoFeature): string {
  const props = feature.properties ?? {};
  const name = props.shapeName ?? props.name ?? props.NAME;
  return typeof name === 'string' ? name : '';
}

/**
 * Returns how each feature is assigned: to the parent whose code (ISO or part
 * code) one of `codeProperties` holds; else to the parent sharing the largest
 * area with it (candidates prefiltered by bbox); else "unassigned" (no parent
 * overlaps it, or it has no geometry).
 */
export function assignFeatures(
  features: GeoFeature[],
  parents: Parent[],
  codeProperties: string[] = PARENT_CODE_PROPERTIES,
): Assignment[] {
  const byCode = new Map<string, Parent>();
  for (const parent of parents) {
    if (parent.iso && !byCode.has(parent.iso)) byCode.set(parent.iso, parent);
    if (!byCode.has(parent.code)) byCode.set(parent.code, parent);
  }
  return features.map((feature, index) => {
    const name = nameOf(feature) || `feature ${index}`;
    for (const key of codeProperties) {
      const value = feature.properties?.[key];
      const parent = typeof value === 'string' && value !== 'unassigned' ? byCode.get(value) : undefined;
      if (parent) return { index, name, code: parent.code, how: 'code' };
    }
    return assignByOverlap(feature, index, name, parents);
  });
}

function assignByOverlap(feature: GeoFeature, index: number, name: string, parents: Parent[]): Assignment {
  const shape = shapeOf(feature.geometry);
  if (!shape) return { index, name, code: 'unassigned', how: 'unassigned', note: 'no geometry' };
  const lat0 = (shape.box[1] + shape.box[3]) / 2;
  const own = planarArea(shape.polygons, lat0);
  let best: { parent: Parent; area: number } | undefined;
  const notes: string[] = [];
  for (const parent of parents) {
    if (!parent.shape || !boxesMeet(shape.box, parent.shape.box)) continue;
    let area = 0;
    try {
      area = overlapArea(shape, parent.shape, lat0);
    } catch (error) {
      notes.push(`overlap with ${parent.code} not computed: ${(error as Error).message}`);
    }
    if (area > 0 && (!best || area > best.area)) best = { parent, area };
  }
  const note = notes.length > 0 ? notes.join('; ') : undefined;
  if (!best) return { index, name, code: 'unassigned', how: 'unassigned', ...(note ? { note } : {}) };
  const share = own > 0 ? Math.min(1, best.area / own) : 1;
  return { index, name, code: best.parent.code, how: 'overlap', share, ...(note ? { note } : {}) };
}

/** One file of the split, not yet written. */
export interface PartText {
  code: string; // e.g. "US-CA" or "unassigned"
  path: string; // e.g. "data/earth/USA/ADM2/US-CA.geojson"
  text: string;
  features: number;
}

/**
 * Returns the part files: one per parent that received features, in code
 * order (codepoint), then `unassigned`; features in level order, each with
 * `adm1ISO` set to its part code (placed before `parentISO` when new), in
 * the corpus layout (one feature per line, bbox of the part, no final newline).
 */
export function partTexts(
  folder: string,
  level: Level,
  features: GeoFeature[],
  assignments: Assignment[],
): PartText[] {
  const groups = new Map<string, GeoFeature[]>();
  for (const { index, code } of assignments) {
    const list = groups.get(code) ?? [];
    list.push(withParent(features[index]!, code));
    groups.set(code, list);
  }
  const codes = [...groups.keys()].filter((c) => c !== 'unassigned').sort(byCodepoint);
  if (groups.has('unassigned')) codes.push('unassigned');
  return codes.map((code) => {
    const members = groups.get(code)!;
    return {
      code,
      path: `${folder}${level}/${code}.geojson`,
      text: collectionText(members),
      features: members.length,
    };
  });
}

function withParent(feature: GeoFeature, code: string): GeoFeature {
  const entries = Object.entries(feature.properties ?? {}).filter(([key]) => key !== PARENT_PROPERTY);
  const old = Object.keys(feature.properties ?? {});
  const at = old.includes(PARENT_PROPERTY)
    ? old.indexOf(PARENT_PROPERTY)
    : entries.findIndex(([key]) => key === 'parentISO');
  entries.splice(at < 0 ? entries.length : at, 0, [PARENT_PROPERTY, code]);
  return { ...feature, properties: Object.fromEntries(entries) };
}

function collectionText(features: GeoFeature[]): string {
  const box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const feature of features) {
    const shape = shapeOf(feature.geometry);
    if (!shape) continue;
    for (const polygon of shape.polygons) {
      for (const ring of polygon) {
        for (const [x, y] of ring) {
          if (x < box[0]!) box[0] = x;
          if (y < box[1]!) box[1] = y;
          if (x > box[2]!) box[2] = x;
          if (y > box[3]!) box[3] = y;
        }
      }
    }
  }
  const head = box[0] === Infinity ? '' : `"bbox":[${box.join(',')}],`;
  return `{"type":"FeatureCollection",${head}"features":[\n${features.map((f) => JSON.stringify(f)).join(',\n')}\n]}`;
}

/** What `split` needs from a manifest: the level to split and the ADM1 parents' file. */
export interface SplitPlan {
  index: number; // of the level's dataset in the manifest
  dataset: Dataset;
  inputs: string[]; // the level's `path`, or its parts when published only as parts
  adm1: string; // e.g. "data/earth/ARG/ARG_ADM1.geojson"
}

/** Returns the plan for splitting `level` of `manifest` (in `file`), or throws a UserError saying what is missing. */
export function planSplit(file: string, manifest: Manifest, level: Level): SplitPlan {
  if (level === 'ADM0' || level === 'ADM1')
    throw new UserError(`--level ${level}: only levels below ADM1 can be split by ADM1`);
  const index = manifest.datasets.findIndex((d) => d.level === level);
  if (index < 0) throw new UserError(problem(file, `no ${level} dataset to split`));
  const dataset = manifest.datasets[index]!;
  const parent = manifest.datasets.find((d) => d.level === 'ADM1');
  if (!parent?.path)
    throw new UserError(problem(file, `no ADM1 dataset with a path, needed to split ${level}`));
  const inputs = dataset.path ? [dataset.path] : (dataset.parts ?? []).map((p) => p.path);
  return { index, dataset, inputs, adm1: parent.path };
}
