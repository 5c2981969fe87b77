// The shapes the catalogue publishes as JSON (dist/api/v1/ and dist/search/),
// declared once: the build writes them (build/site/) and the browser code
// reads them (src/client/). Neither DOM nor Node here.
import type { BBox, Level, Manifest } from './manifest.ts';

/** Version of the API's own shape; the manifests inside keep their schema_version. */
export const API_VERSION = 1;

/** One unit (a feature of a level) as a country document lists it. */
/** Units per page of a country page's units list, on the page as built and in the script (one number for both). */
export const UNITS_PAGE = 100;

export interface ApiUnit {
  id: string; // its anchor on the country page, e.g. "US-TX" (#unit-US-TX keeps working)
  unit_id?: string; // its release ID, e.g. "k3f9a2m7x0qp"; absent until a release gives it one
  name: string;
  other_names?: string[];
  code: string;
  parent: string; // parent code, e.g. "USA" or "US-AL"
  bbox: BBox; // plain min/max, as in the manifest
  display_bbox: BBox; // west > east across the antimeridian (RFC 7946 §5.2)
  part?: string; // code of the part file holding the unit
  page: string; // permalink: by unit_id when it has one, e.g. "/earth/USA/#unit-k3f9a2m7x0qp", else "/earth/USA/#unit-US-TX"
  // Its facts, when its units are read from the level's own files (not a preview): docs/catalogue.md#unit-facts
  area_km2?: number; // geodesic area on its body (WGS 84 ellipsoid on the Earth), 6 significant digits
  label_point?: [number, number]; // [lon, lat], inside the unit: the pole of inaccessibility of its largest polygon
  geojson_url?: string; // the unit alone: its feature as the source writes it, in a FeatureCollection
}

/** Where a country document and its page are: URLs that already include the base. */
export interface ApiLinks {
  page: string; // e.g. "/earth/CHL/"
  api: string; // e.g. "/api/v1/earth/CHL.json"
  manifest: string; // e.g. "/data/earth/CHL/manifest.json"
}

/** A published file: its URL and checksum. */
interface ApiFile {
  url: string;
  bytes: number;
  sha256: string;
}

/**
 * One download of a level or part in another format, or a simplified copy
 * of a whole level ("geojson", with its tolerance: docs/catalogue.md).
 */
export interface ApiDownload extends ApiFile {
  format: 'gpkg' | 'fgb' | 'shp' | 'topojson' | 'parquet' | 'geojson';
  quantization?: number[]; // TopoJSON's grid, when it is quantised
  scale?: number[];
  tolerance_m?: number; // a simplified copy's tolerance in metres: 100, 1000 or 10000
}

/** The other formats of a level or part, and what they could not hold. */
interface ApiLayer {
  downloads?: ApiDownload[];
  shapefile_fields?: Record<string, string>; // property → its cut Shapefile field name, where they differ
  not_converted?: { format: string; reason: string }[];
}

/**
 * How a level's units fit together (issue 29 §5), as `validate` measures it
 * (build/coverage/): overlaps and gaps (count, total area in m² on the body's
 * sphere), pairs of neighbours whose edges do not match, and how the level
 * nests in the level above.
 */
export interface LevelCoverageFigures {
  units: number; // units with area
  gap_width_m: number; // holes of the union at most this wide count as gaps
  overlaps: { count: number; area_m2: number };
  gaps: { count: number; area_m2: number };
  edges: number; // findings of edges that do not match vertex for vertex
  nesting?: NestingFigures;
}

/** Returns whether a level's units neither overlap nor leave gaps, and their edges match. */
export function isCleanCoverage(f: LevelCoverageFigures): boolean {
  return f.overlaps.count === 0 && f.gaps.count === 0 && f.edges === 0;
}

/** How a level lies in the level above (validate's nesting summary). */
export interface NestingFigures {
  parent_level: Level; // e.g. "ADM0"
  parent_covered: number; // share of the parent level's area its children cover, 0…1
  outside: number; // share of the children's area outside their parents, 0…1
  units_outside: number; // units more than 1 % outside their parent (or outside every one)
}

/** A dataset's geometry status, where the build checked it. */
interface ApiGeometry {
  geometry?: { invalid: number; checked: number };
}

/** One part of a split level. */
interface ApiPart extends ApiLayer {
  code: string;
  name?: string;
  url: string;
  unit_ids_url?: string; // the release IDs of its features (ApiUnitIds), when it has them
}

/**
 * `api/v1/{body}/{ISO3}/{layer}.unit-ids.json`: the release ID of each
 * feature of one published GeoJSON file, by feature index (the file itself
 * is published byte for byte as its publisher made it). It names no release,
 * so an unchanged file's sidecar has the same bytes in every release.
 */
export interface ApiUnitIds {
  api_version: typeof API_VERSION;
  file: string; // the GeoJSON file's URL
  sha256: string; // of that file: the IDs belong to exactly these bytes
  property: string; // the IDs' property name in the other download formats: "unit_id"
  ids: string[]; // ids[i] is the ID of the file's feature i
}

/** The URLs of one dataset (level) of a country. */
interface ApiDatasetUrls extends ApiLayer, ApiGeometry {
  level: Level;
  url?: string;
  unit_ids_url?: string; // the release IDs of its file's features (ApiUnitIds), when it has them
  preview_url?: string;
  display_bbox?: BBox;
  parts?: ApiPart[];
  coverage?: LevelCoverageFigures; // how the level's units fit together, where validate checked it (its first dataset)
}

/** `api/v1/{body}/{ISO3}.json`: the manifest as published, its URLs and its units. */
export interface CountryDocument extends Omit<ApiLinks, 'manifest'> {
  api_version: typeof API_VERSION;
  manifest: Manifest; // the manifest itself, as published at ApiIndexEntry.manifest
  urls: ApiDatasetUrls[];
  units: Partial<Record<Level, ApiUnit[]>>;
  archive?: ApiFile; // the whole-country .zip
}

/** One entry of `api/v1/index.json`. */
interface ApiIndexEntry extends ApiLinks {
  body: Manifest['body'];
  iso_a3: string;
  iso_a2?: string;
  name: Manifest['name'];
  m49_region?: string;
  status: Manifest['status'];
  license: Manifest['source']['license'];
  licenses: string[];
  levels: string[];
  datasets: ({
    level: Level;
    features: number;
    url?: string;
    bytes?: number;
    sha256?: string;
    parts?: number;
    license: string;
  } & ApiGeometry)[];
}

/**
 * One world file: every country's features of a level of a body in one file
 * (e.g. all ADM1 of the Earth as GeoPackage), rebuilt by every build and
 * published at its one URL, never frozen into a release.
 */
interface ApiWorldFile {
  body: Manifest['body'];
  level: Level;
  format: 'geojson' | 'gpkg' | 'parquet';
  url: string;
  bytes: number;
  sha256: string;
}

/** `api/v1/index.json`: every manifest, in catalogue order, and the world files (none in a release's copy). */
export interface ApiIndex {
  api_version: typeof API_VERSION;
  count: number;
  entries: ApiIndexEntry[];
  world_files: ApiWorldFile[]; // by body, then level, then format
}

/**
 * One search result as stored in a shard (`search/{key}.json`), an array to
 * keep shards small: [kind, display name, matching names ([] = the display
 * name), level, country, parent, link, countries, names in other languages].
 * kind "c" country, "r" M49 region, "u" unit; link relative to the base,
 * e.g. "earth/USA/#unit-US-TX" (by the unit's release ID when it has one); countries: ISO3 codes, space separated (a
 * region's members, a country's own code, a unit's country). A shard lists
 * only the names with a word in it; the other-language names (a unit's
 * "Bayern", "Baviera") rank after its own and English ones, and are left out
 * when there are none ([] when a unit ID follows); unit_id: a unit's release ID,
 * when it has one ("" when facts follow without one); facts: a unit's area in
 * km², its label point and its own GeoJSON's link (relative to the base), when
 * it has them (ApiUnit's area_km2, label_point, geojson_url).
 */
export type SearchRecord = [
  kind: 'c' | 'r' | 'u',
  name: string,
  names: string[],
  level: string,
  country: string,
  parent: string,
  link: string,
  countries: string,
  others?: string[],
  unit_id?: string,
  facts?: UnitSearchFacts,
];

/**
 * A unit's facts in a search record: [area in km², label longitude, label
 * latitude (4 decimals; null without one), its GeoJSON: the path under the
 * country's units folder without ".geojson", e.g. "ADM1/UY-AR" for
 * api/v1/earth/URY/units/ADM1/UY-AR.geojson (the record's page is
 * "earth/URY/"), or a whole path from the base starting with "api/"].
 */
export type UnitSearchFacts = [area_km2: number, lon: number | null, lat: number | null, geojson: string];

/**
 * One unit of the registry a release publishes (and keeps in its ledger):
 * an opaque ID that survives refreshes while the unit stays the same place.
 */
export interface RegistryUnit {
  id: string; // opaque, e.g. "k3f9a2m7x0qp"
  country: string; // ISO3, e.g. "USA"
  level: Level;
  code: string; // "" when the unit has none
  name: string;
  first_seen: string; // release versions, e.g. "2026.11"
  last_seen: string;
  last_changed: string; // the release of its last change (name, code, attributes, geometry)
  supersedes?: string[]; // the IDs it replaced (a merge or split)
  superseded_by?: string[];
  parent_id: string | null; // the unit of the level above that holds it
  file?: string; // where it is in this release, e.g. "data/earth/CHL/CHL_ADM1.geojson"; absent once retired
  feature?: number; // its index among that file's features
}

/** What a geometry change was: a moved boundary, or the same line drawn again. */
export interface GeometryChangeMetrics {
  kind: 'boundary' | 'redigitised';
  area_change: number | null; // (new − old) / old; null when one side has no area
  symmetric_difference: number | null; // share of the old area
  max_distance_m: number | null; // discrete Hausdorff distance, metres
  offset_m: number | null; // ν, the pair's own median vertex offset, metres
  reference_offset_m: number | null; // ν_ref, the noise it was judged against: its neighbours' median ν
}

interface ChangeOf {
  country: string; // ISO3
  level: Level;
}

/** A unit as a change names it: for a unit in the release, its code and name there; for one that left, as it last was. */
export interface ChangedUnit {
  id: string;
  code: string; // "" when none
  name: string;
}

/** A change of one unit (by ID), or of several (a merge, a split), each unit named by its code and name too. */
export type UnitChange = ChangeOf &
  (
    | ({ type: 'added'; derived_from?: string[]; restored?: true } & ChangedUnit) // restored: a removed unit back, with its old ID
    | ({ type: 'removed' } & ChangedUnit)
    | ({ type: 'renamed'; from: string; to: string; spelling_only: boolean } & ChangedUnit)
    | ({ type: 'recoded'; from: string; to: string; by: 'name' | 'geometry' } & ChangedUnit)
    | ({ type: 'attributes'; keys: string[] } & ChangedUnit)
    | ({ type: 'geometry' } & ChangedUnit & GeometryChangeMetrics)
    | {
        type: 'merged' | 'split' | 'reorganised';
        old: string[];
        new: string[];
        old_units: ChangedUnit[]; // the units of `old`, in the same order
        new_units: ChangedUnit[];
      }
  );

/** A country that a release has and the one before had not, or the other way round; its units follow as `added` or `removed`. */
interface CountryChange {
  type: 'country-added' | 'country-removed';
  country: string; // ISO3
  body: string; // e.g. "earth"
  name: string; // its English name, e.g. "Bouvet Island"
  levels: Level[];
}

/** One described field of a country's manifest that differs between two releases. */
export interface DetailChange {
  field: string; // e.g. "name.en", "source.license", "ADM1.license"
  from: string | number | boolean | object | null; // null: absent before
  to: string | number | boolean | object | null; // null: absent now
}

/** A country both releases hold whose manifest describes it differently: name, source, licence… */
export interface CountryDetailsChange {
  type: 'country-changed';
  country: string; // ISO3
  body: string;
  name: string; // its English name now
  fields: DetailChange[];
}

/** A level of a country that one of the two releases lacks; its units follow as `added` or `removed`. */
interface LevelChange {
  type: 'level-added' | 'level-removed';
  country: string; // ISO3
  level: Level;
  units: number;
}

/**
 * One change since the previous release. A release's feed holds every
 * difference from the one before, at every grain: countries, levels, units.
 */
export type ReleaseChange = CountryChange | CountryDetailsChange | LevelChange | UnitChange;

/** Whether a change is about units (it names their IDs), not a whole country or level. */
export function isUnitChange(c: ReleaseChange): c is UnitChange {
  return !c.type.startsWith('country-') && !c.type.startsWith('level-');
}

export type ReleaseChangeType = ReleaseChange['type'];

/** Which release the catalogue at the root is: `release` null when it has changes not yet released. */
export interface ApiReleaseStatus {
  release: string | null; // e.g. "2026.11": the root holds exactly that release's files
  latest: string | null; // the last release made, null before the first
  unreleased_changes: boolean; // the root differs from the last release (or there is none yet)
}

/** One release as dist/api/releases.json lists it. */
interface ApiRelease {
  version: string;
  sequence: number; // 1, 2, 3… in the order they were made
  previous: string | null;
  date: string | null; // the day it was recorded, e.g. "2026-11-27" (null: a release made before geoshelf kept it)
  url: string; // the frozen catalogue, e.g. "/releases/2026.11/"
  changes_url: string; // every change since the previous release (ReleaseChange[])
  counts: { files: number; units: number; changes: Partial<Record<ReleaseChangeType, number>> };
  coverage?: ApiReleaseCoverage; // absent for a release recorded before the coverage check
}

/** What a release recorded of its levels' coverage (each level's figures are in its ledger record). */
export interface ApiReleaseCoverage {
  levels: number; // levels whose coverage validate checked
  clean: number; // of them, with no overlap, gap or mismatched edge
  became_clean: string[]; // clean in this release and not in the one before, e.g. ["earth/CHL/ADM1"]
}

/** dist/api/releases.json. */
export interface ApiReleases {
  api_version: typeof API_VERSION;
  current: ApiReleaseStatus;
  units_url: string | null; // every unit ID ever given, as of the latest release (RegistryUnit[]); null before the first
  releases: ApiRelease[]; // newest first
}

/** One change of a unit in one release, as its history lists it. */
interface ApiUnitChange {
  release: string; // e.g. "2026.11"
  type: ReleaseChangeType;
  summary: string; // e.g. "renamed: Antofagasta → Antofagasta Norte"
}

/** One unit's history across releases (a registry entry and its changes). */
export interface ApiUnitHistory extends Omit<
  RegistryUnit,
  'file' | 'feature' | 'parent_id' | 'country' | 'last_seen'
> {
  last_seen?: string; // the last release that held it; absent while it is current (it is the latest release)
  current: boolean; // in the latest release
  changes: ApiUnitChange[]; // oldest first
}

/**
 * `api/v1/{body}/{ISO3}/history.json`: every release's changes of one
 * country, and the history of every unit the country ever had, by ID.
 */
export interface ApiCountryHistory {
  api_version: typeof API_VERSION;
  country: string; // ISO3
  releases: {
    version: string;
    changes_page: string; // its "What changed" page
    page: string | null; // the country as that release published it; null when that release removed it
    first?: true; // the first release that held the country
    changes: Partial<Record<ReleaseChangeType, number>>; // this country's changes in it
  }[]; // the releases in which the country changed, and its first; newest first
  units: Record<string, ApiUnitHistory>;
}

/**
 * The property that holds a unit's release ID in every download: one name
 * in every format, short enough for a Shapefile field (10 characters).
 */
export const UNIT_ID_PROPERTY = 'unit_id';
