// Every rule `validate` reports a problem under, each with a false/ fixture
// in test/fixtures/manifests/ (README "Manifests" says what each checks).
// Checks take a `Rule`, so a new rule cannot be reported without being listed.
export const RULES = [
  'json', // not JSON, or nested deeper than a manifest can be
  'utf8', // the manifest's bytes are not UTF-8
  'too-large', // the manifest is over 64 MiB
  'schema', // the JSON Schema (spec 2.2)
  'folder', // body and iso_a3 match the manifest's folder
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
  'part-code-duplicate',
  'part-code', // a part code that cannot name a file on every host (hidden, a separator, a control character)
  'part-path',
  'part-features-sum',
  'parts-stats', // a parts-only dataset's stats are its parts'
  'unassigned',
  'geometry', // a feature of a listed GeoJSON file is not a valid polygon (README "Geometry")
] as const;

export type Rule = (typeof RULES)[number];
