// The location record shared by the importer, the database layer and the server.

/** The four location types, as stored and served (always lowercase). */
export const LOCATION_TYPES = ['convenience', 'bencinera', 'servicio', 'otro'] as const;
export type LocationType = (typeof LOCATION_TYPES)[number];

/**
 * Route segment under `/ubicaciones/` → the type it lists, e.g. "bencineras" → "bencinera".
 * `null` stands for "every type" (the route `/ubicaciones/` itself). A Map, not
 * an object: "constructor" or "__proto__" must not be found on a prototype.
 */
export const ROUTE_TYPES: ReadonlyMap<string, LocationType> = new Map([
  ['convenience', 'convenience'],
  ['bencineras', 'bencinera'],
  ['servicios', 'servicio'],
  ['otros', 'otro'],
]);

/** One checked location, as stored in the `locations` table and served in this key order. */
export interface Location {
  id: string; // lowercase hyphenated UUID, e.g. "120a2e23-f90f-4013-978b-bb7f2736a423"
  name: string;
  description: string;
  type: LocationType;
  latitude: number; // [-90, 90]
  longitude: number; // [-180, 180]
}

/** A row as read back from a database: legacy files may hold types outside LOCATION_TYPES. */
export type StoredLocation = Omit<Location, 'type'> & { type: string };
