// Builds each country's manifest.json: identity, source and licence from this
// script, derived numbers measured from the written file, and the fields other
// geoshelf commands add (preview, split parts) kept from the existing manifest.
import { createHash } from 'node:crypto';
import type { Identity, Remark } from './countries.ts';
import { bboxOf, type OutFeature } from './geometry.ts';

/** The date the pinned package versions were retrieved; fixed so re-runs are byte-identical. */
const RETRIEVED = '2026-11-22';

export interface LevelOutput {
  level: 'ADM0' | 'ADM1' | 'ADM2';
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  text: string; // the file's content
  features: OutFeature[];
  srcProvider: string; // e.g. "Natural Earth"
  srcYear?: string; // e.g. "2018"
}

export interface Source {
  name: string;
  url: string;
}

type Json = Record<string, unknown>;

/** Dataset keys in the corpus manifests' order; keys this script does not know go last. */
const DATASET_ORDER = [
  'level',
  'path',
  'bytes',
  'sha256',
  'features',
  'bbox',
  'geometry_types',
  'properties',
  'preview',
  'preview_bytes',
  'split_by',
  'parts',
  'simplification',
  'license',
  'src_provider',
  'src_year',
  'unassigned',
];

/** Keys this script owns in a dataset; every other key of an existing dataset is kept. */
const OWNED = new Set([
  'level',
  'path',
  'bytes',
  'sha256',
  'features',
  'bbox',
  'geometry_types',
  'properties',
]);
OWNED.add('license').add('src_provider').add('src_year');

/** Returns the numbers `geoshelf measure` reports for a file with this text and these features. */
function measure(text: string, features: OutFeature[]): Json {
  const geometryTypes: Record<string, number> = {};
  for (const { geometry } of features) geometryTypes[geometry.type] = (geometryTypes[geometry.type] ?? 0) + 1;
  const properties = [...new Set(features.flatMap((feature) => Object.keys(feature.properties)))].sort();
  return {
    bytes: Buffer.byteLength(text),
    sha256: createHash('sha256').update(text).digest('hex'),
    features: features.length,
    bbox: bboxOf(features.map((feature) => feature.geometry)),
    geometry_types: Object.fromEntries(Object.entries(geometryTypes).sort()),
    properties,
  };
}

/** Returns `dataset` with its keys in DATASET_ORDER. */
function ordered(dataset: Json): Json {
  const rank = (key: string) =>
    DATASET_ORDER.includes(key) ? DATASET_ORDER.indexOf(key) : DATASET_ORDER.length;
  return Object.fromEntries(Object.entries(dataset).sort(([a], [b]) => rank(a) - rank(b)));
}

/** Returns the dataset entry of one level, keeping the non-owned keys of `previous` (same level). */
function datasetOf(output: LevelOutput, previous: Json | undefined): Json {
  const kept = Object.fromEntries(Object.entries(previous ?? {}).filter(([key]) => !OWNED.has(key)));
  return ordered({
    level: output.level,
    path: output.path,
    ...measure(output.text, output.features),
    ...kept,
    license: 'public-domain',
    src_provider: output.srcProvider,
    ...(output.srcYear ? { src_year: output.srcYear } : {}),
  });
}

/**
 * Returns the manifest of one country, in the corpus' key order, from its
 * identity, remark, source and written levels; `previous` is the manifest
 * already on disk, if any, whose preview and split fields are kept.
 */
export function manifestOf(
  identity: Identity,
  remark: Remark | undefined,
  source: Source,
  levels: LevelOutput[],
  previous: Json | undefined,
): Json {
  const previousDatasets = Array.isArray(previous?.datasets) ? (previous.datasets as Json[]) : [];
  return {
    schema_version: 1,
    body: 'earth',
    iso_a3: identity.iso3,
    ...(identity.iso2 ? { iso_a2: identity.iso2 } : {}),
    ...(identity.m49Region ? { m49_region: identity.m49Region } : {}),
    name: identity.name,
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: remark?.status ?? 'ok',
    source: { name: source.name, url: source.url, license: 'public-domain', retrieved: RETRIEVED },
    ...(remark ? { notes: remark.notes } : {}),
    datasets: levels.map((output) =>
      datasetOf(
        output,
        previousDatasets.find((dataset) => dataset.level === output.level),
      ),
    ),
  };
}
