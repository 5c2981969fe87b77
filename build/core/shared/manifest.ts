// The checked shape of a manifest (spec section B, 2.2). Raw JSON becomes a
// `Manifest` only through the schema check in build/manifest/schema.ts; code
// downstream takes these types and never re-validates.

export type Body = 'earth' | 'moon' | 'mars';
type Status = 'ok' | 'review' | 'deprecated';
export type Level = 'ADM0' | 'ADM1' | 'ADM2' | 'ADM3' | 'ADM4' | 'ADM5' | 'QUAD';

/** The spec's cap on a preview file (`preview_bytes`): 2 MiB. */
export const MAX_PREVIEW_BYTES = 2_097_152;

/** The licence identifiers the spec allows. */
export const LICENSES = [
  'CC0-1.0',
  'CC-BY-2.5',
  'CC-BY-3.0',
  'CC-BY-3.0-IGO',
  'CC-BY-4.0',
  'DL-DE-BY-2.0',
  'Etalab-2.0',
  'ODC-By-1.0',
  'OGL-Canada-2.0',
  'OGL-UK-3.0',
  'public-domain',
] as const;
export type License = (typeof LICENSES)[number];

/** `[west, south, east, north]` in degrees: plain min/max of all coordinates. */
export type BBox = [number, number, number, number];

/** Feature counts by geometry type; a type with no features is absent. */
export interface GeometryTypes {
  MultiPolygon?: number;
  Polygon?: number;
}

/** The numbers recomputed from a GeoJSON file (what `geoshelf measure` prints, less `path`). */
export interface FileStats {
  bytes: number;
  sha256: string;
  features: number;
  bbox: BBox;
  geometry_types: GeometryTypes;
  properties: string[];
}

export interface Part extends FileStats {
  code: string; // e.g. "US-CA" or "unassigned"
  path: string; // e.g. "data/earth/USA/ADM2/US-CA.geojson"
}

export interface Simplification {
  method: 'visvalingam' | 'douglas-peucker' | 'none';
  tolerance_m: number;
}

export interface Dataset {
  level: Level;
  path?: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"; absent when published only as parts
  bytes?: number;
  sha256?: string;
  features: number;
  bbox: BBox;
  geometry_types: GeometryTypes;
  properties: string[];
  license: License;
  preview?: string; // e.g. "data/earth/CHL/preview/CHL_ADM1.preview.geojson"
  preview_bytes?: number;
  simplification?: Simplification;
  src_provider?: string;
  src_year?: string | number;
  unassigned?: number;
  split_by?: 'ADM1';
  parts?: Part[];
}

export interface Source {
  name: string;
  url: string;
  license: License | 'mixed';
  licenses?: License[];
  retrieved: string; // e.g. "2026-08-11"
}

export interface Manifest {
  schema_version: 1;
  body: Body;
  iso_a3: string; // e.g. "CHL"
  iso_a2?: string; // e.g. "CL"
  m49_region?: string;
  name: { en: string; es?: string };
  crs: { authority: string; code: string; epsg: number };
  status: Status;
  source: Source;
  notes?: string;
  datasets: Dataset[];
}

/** A file a manifest lists, as `validate` measured it now. */
export interface MeasuredFile {
  path: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  bytes: number;
  sha256: string;
}

/**
 * A dataset as `validate` hands it on: when it has a file, `bytes` and
 * `sha256` are that file's as measured (the schema lets a manifest leave
 * them out), so no later stage trusts or asserts the manifest's own numbers.
 */
export type CheckedDataset = Dataset &
  (
    | { path: string; bytes: number; sha256: string }
    | { path?: undefined; bytes?: undefined; sha256?: undefined }
  );

/** A manifest that passed `validate` with no error: every listed file measured (build/manifest/validate.ts). */
export interface CheckedManifest extends Omit<Manifest, 'datasets'> {
  datasets: CheckedDataset[];
}
