// Every rule a problem is reported under (Problem.rule), listed once: a rule
// that is not here is a type error wherever a problem is made.

/**
 * The rules `validate` checks a data tree against, each with a false/ fixture
 * in test/fixtures/manifests/ (README "Manifests" says what each checks).
 */
export const MANIFEST_RULES = [
  'json', // not JSON, or nested deeper than a manifest can be
  'utf8', // the manifest's bytes are not UTF-8
  'too-large', // the manifest is over 64 MiB (preview and split: a level too large to read whole)
  'schema', // the JSON Schema (spec 2.2)
  'folder', // body and iso_a3 match the manifest's folder
  'crs', // crs is a longitude/latitude CRS geoshelf accepts for the body, with its epsg (build/core/shared/crs.ts)
  'level-duplicate',
  'license', // dataset licences agree with source.license(s)
  'no-data', // a dataset with neither path nor parts
  'path-outside', // a listed file outside the manifest's folder
  'link-outside', // a listed file (or the manifest) leads outside data/ through a link
  'file-missing',
  'geojson', // a listed file is not valid GeoJSON (or not UTF-8)
  'stats', // bytes, sha256, features, bbox, geometry_types, properties
  'preview-name',
  'preview-size', // a preview over 2 MiB
  'preview-bytes',
  'preview-stale', // a preview whose units or extents no longer match its dataset's (made before the data changed)
  'part-code-duplicate',
  'part-code', // a part code that cannot name a file on every host (hidden, a separator, a control character)
  'part-path',
  'part-features-sum',
  'parts-stats', // a parts-only dataset's stats are its parts'
  'unassigned',
  'geometry', // a feature of a listed GeoJSON file is not a valid polygon (README "Geometry")
  'bbox-member', // a listed GeoJSON file's own bbox member does not hold its extent (RFC 7946 5)
  'nesting', // a level's units lie outside the level above (one summary per pair of levels), or a unit outside every unit of it
  'coverage', // a level's units overlap, leave a narrow gap, or have neighbouring edges that do not match
] as const;

/** The rules of the other commands' problems. */
const OTHER_RULES = [
  'input', // bad input with no rule of its own: an unreadable file, a code that names nothing
  'usage', // how a command was called: an unknown flag, a bad flag value (exit 2)
  'location', // locations import: a record (or a whole input file) that can't be imported
  'id-exists', // locations import: a record whose id is already in the database
  'write', // locations import: the database can't be written
  'ledger', // release, build: a file of the release ledger (data/releases/) is missing or unreadable
  'release-exists', // release: the version is recorded with other content
  'release-order', // release: the version does not come after the latest release (docs/releases.md#versions)
  'release-empty', // release: nothing changed since the latest release (--allow-empty records it anyway)
  'release-base-mark', // release: text from the data holds what a release reserves for its own URL or version
  'file-changed', // release, build: a file changed while the command read it (its sha256 is not the one validated)
  'locked', // release, build, manifest, preview, split: another run holds the root's lock
  'release-base', // build: a release of the first ledger layout was built for another --base
  'z-dropped', // build: a level's z values cannot be kept in one of its download formats (TopoJSON is 2D)
  'unit-id-kept', // build: a level has a unit_id property of its own, so its downloads carry no release IDs
  'shard', // build --merge: a shard folder is missing, foreign, failed, damaged, or of another version or --base
] as const;

export const RULES = [...MANIFEST_RULES, ...OTHER_RULES] as const;

export type Rule = (typeof RULES)[number];
export type ManifestRule = (typeof MANIFEST_RULES)[number];
