// The states of the GeoJSON scanner (./scanner.ts): what it
// expects next, which container it is in, and what the next value means.

// What the scanner expects next in the innermost container.
export const E_VALUE = 0; // after ':' or ',' in an array, or at the start of the file
export const E_VALUE_OR_CLOSE = 1; // after '['
export const E_KEY_OR_CLOSE = 2; // after '{'
export const E_KEY = 3; // after ',' in an object
export const E_COLON = 4;
export const E_COMMA_OR_CLOSE = 5;
export const E_DONE = 6; // the top-level value is complete: only whitespace may follow
export const E_SKIP_STRING = 7; // inside a string whose content does not matter (may span chunks)

// Containers on the stack.
export const F_TOP = 1; // the FeatureCollection object
export const F_FEATURES = 2; // its "features" array
export const F_FEATURE = 3;
export const F_GEOMETRY = 4;
export const F_PROPERTIES = 5;
export const F_SKIP_OBJECT = 6; // any other object: checked as JSON, otherwise ignored
export const F_SKIP_ARRAY = 7;
export const F_BBOX = 8; // the array of a "bbox" member (of the collection, a feature or a geometry)

// The role of the value about to be read, decided by its container and key.
export const R_ANY = 0; // skipped
export const R_TOP = 1;
export const R_FEATURES = 2;
export const R_FEATURE = 3;
export const R_COLLECTION_TYPE = 4;
export const R_FEATURE_TYPE = 5;
export const R_GEOMETRY = 6;
export const R_PROPERTIES = 7;
export const R_GEOMETRY_TYPE = 8;
export const R_COORDINATES = 9;
export const R_BBOX = 10; // the value of a "bbox" member: checked, not trusted (RFC 7946 5)
export const R_BBOX_ITEM = 11; // a value inside that array

// Keys with a meaning, as bit flags so duplicates are caught: JSON.parse keeps
// the last of two "geometry" members, and counting both would disagree with it.
// "bbox" has no bit: it is checked, never used, so the last one is checked, as
// JSON.parse would keep it (a duplicate was never an error).
export const KEY_ROLES: Record<number, Record<string, [bit: number, role: number]>> = {
  [F_TOP]: { type: [1, R_COLLECTION_TYPE], features: [2, R_FEATURES], bbox: [0, R_BBOX] },
  [F_FEATURE]: {
    type: [1, R_FEATURE_TYPE],
    geometry: [2, R_GEOMETRY],
    properties: [4, R_PROPERTIES],
    bbox: [0, R_BBOX],
  },
  [F_GEOMETRY]: { type: [1, R_GEOMETRY_TYPE], coordinates: [2, R_COORDINATES], bbox: [0, R_BBOX] },
};

export const MAX_DEPTH = 10_000;

/** Positions of Polygon coordinates are nested 3 arrays deep, MultiPolygon 4. */
export const LEAF_DEPTH: Record<string, number> = { Polygon: 3, MultiPolygon: 4 };

/** Returns why the value about to be read as `role` has the wrong JSON kind (`features`: features begun so far). */
export function wrongKindReason(role: number, features: number, where: (what: string) => string): string {
  switch (role) {
    case R_TOP:
      return 'not a FeatureCollection: the top-level value is not an object';
    case R_FEATURES:
      return '"features" is not an array';
    case R_FEATURE:
      return `features[${features}] is not an object`; // not counted yet
    case R_COLLECTION_TYPE:
      return 'not a FeatureCollection: "type" is not a string';
    case R_FEATURE_TYPE:
      return `${where('type')} is not a string`;
    case R_GEOMETRY:
      return `${where('geometry')} is not an object`;
    case R_PROPERTIES:
      return `${where('properties')} is not an object or null`;
    case R_GEOMETRY_TYPE:
      return `${where('geometry.type')} is not a string`;
    default:
      return `${where('geometry.coordinates')} is not an array`;
  }
}

/** Returns where the scan is, for messages, e.g. "features[3].geometry" (`features`: features begun so far). */
export function placeOf(what: number | string, features: number): string {
  if (what === F_TOP) return 'the FeatureCollection';
  const feature = `features[${features - 1}]`;
  if (what === F_FEATURE) return feature;
  if (what === F_GEOMETRY) return `${feature}.geometry`;
  return `${feature}.${String(what)}`;
}

/**
 * Returns why `value` cannot be the "type" of the member `role` names (the
 * collection's, a feature's or a geometry's), or undefined when it can.
 */
export function typeValueProblem(
  role: number,
  value: string,
  where: (what: string) => string,
): string | undefined {
  const shown = JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
  if (role === R_COLLECTION_TYPE) {
    return value === 'FeatureCollection' ? undefined : `not a FeatureCollection: "type" is ${shown}`;
  }
  if (role === R_FEATURE_TYPE)
    return value === 'Feature' ? undefined : `${where('type')} is ${shown}, not "Feature"`;
  return Object.hasOwn(LEAF_DEPTH, value)
    ? undefined
    : `${where('geometry.type')} ${shown} is not Polygon or MultiPolygon`;
}

/** Returns the first of `names` whose bit (1, 2, 4… in order) is not set in `seen`. */
export function firstMissing(seen: number, names: string[]): string | undefined {
  return names.find((_, k) => !(seen & (1 << k)));
}
