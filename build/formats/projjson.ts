// The manifest CRSs as PROJJSON, for GeoParquet's `crs` (its spec asks for PROJJSON):
// exactly what `projinfo -o PROJJSON -q AUTHORITY:CODE` prints with PROJ 9.1 on
// this machine (GDAL 3.6 has no Parquet driver to write them for us). Only
// the lon/lat CRSs a manifest may name; GeoParquet stores x (longitude)
// before y (latitude) whatever axis order the CRS declares.

/** PROJJSON of each CRS, by "authority:code" as a manifest names it. */
const PROJJSON: Record<string, object> = {
  'OGC:CRS84': {
    $schema: 'https://proj.org/schemas/v0.5/projjson.schema.json',
    type: 'GeographicCRS',
    name: 'WGS 84 (CRS84)',
    datum_ensemble: {
      name: 'World Geodetic System 1984 ensemble',
      members: [
        { name: 'World Geodetic System 1984 (Transit)', id: { authority: 'EPSG', code: 1166 } },
        { name: 'World Geodetic System 1984 (G730)', id: { authority: 'EPSG', code: 1152 } },
        { name: 'World Geodetic System 1984 (G873)', id: { authority: 'EPSG', code: 1153 } },
        { name: 'World Geodetic System 1984 (G1150)', id: { authority: 'EPSG', code: 1154 } },
        { name: 'World Geodetic System 1984 (G1674)', id: { authority: 'EPSG', code: 1155 } },
        { name: 'World Geodetic System 1984 (G1762)', id: { authority: 'EPSG', code: 1156 } },
        { name: 'World Geodetic System 1984 (G2139)', id: { authority: 'EPSG', code: 1309 } },
      ],
      ellipsoid: { name: 'WGS 84', semi_major_axis: 6378137, inverse_flattening: 298.257223563 },
      accuracy: '2.0',
      id: { authority: 'EPSG', code: 6326 },
    },
    coordinate_system: {
      subtype: 'ellipsoidal',
      axis: [
        { name: 'Geodetic longitude', abbreviation: 'Lon', direction: 'east', unit: 'degree' },
        { name: 'Geodetic latitude', abbreviation: 'Lat', direction: 'north', unit: 'degree' },
      ],
    },
    scope: 'Not known.',
    area: 'World.',
    bbox: { south_latitude: -90, west_longitude: -180, north_latitude: 90, east_longitude: 180 },
    id: { authority: 'OGC', code: 'CRS84' },
  },
  'EPSG:4326': {
    $schema: 'https://proj.org/schemas/v0.5/projjson.schema.json',
    type: 'GeographicCRS',
    name: 'WGS 84',
    datum_ensemble: {
      name: 'World Geodetic System 1984 ensemble',
      members: [
        { name: 'World Geodetic System 1984 (Transit)', id: { authority: 'EPSG', code: 1166 } },
        { name: 'World Geodetic System 1984 (G730)', id: { authority: 'EPSG', code: 1152 } },
        { name: 'World Geodetic System 1984 (G873)', id: { authority: 'EPSG', code: 1153 } },
        { name: 'World Geodetic System 1984 (G1150)', id: { authority: 'EPSG', code: 1154 } },
        { name: 'World Geodetic System 1984 (G1674)', id: { authority: 'EPSG', code: 1155 } },
        { name: 'World Geodetic System 1984 (G1762)', id: { authority: 'EPSG', code: 1156 } },
        { name: 'World Geodetic System 1984 (G2139)', id: { authority: 'EPSG', code: 1309 } },
      ],
      ellipsoid: { name: 'WGS 84', semi_major_axis: 6378137, inverse_flattening: 298.257223563 },
      accuracy: '2.0',
      id: { authority: 'EPSG', code: 6326 },
    },
    coordinate_system: {
      subtype: 'ellipsoidal',
      axis: [
        { name: 'Geodetic latitude', abbreviation: 'Lat', direction: 'north', unit: 'degree' },
        { name: 'Geodetic longitude', abbreviation: 'Lon', direction: 'east', unit: 'degree' },
      ],
    },
    scope: 'Horizontal component of 3D system.',
    area: 'World.',
    bbox: { south_latitude: -90, west_longitude: -180, north_latitude: 90, east_longitude: 180 },
    id: { authority: 'EPSG', code: 4326 },
  },
  'IAU_2015:30100': {
    $schema: 'https://proj.org/schemas/v0.5/projjson.schema.json',
    type: 'GeographicCRS',
    name: 'Moon (2015) - Sphere / Ocentric',
    datum: {
      type: 'GeodeticReferenceFrame',
      name: 'Moon (2015) - Sphere',
      ellipsoid: { name: 'Moon (2015) - Sphere', radius: 1737400 },
      prime_meridian: { name: 'Reference Meridian', longitude: 0 },
    },
    coordinate_system: {
      subtype: 'ellipsoidal',
      axis: [
        { name: 'Geodetic latitude', abbreviation: 'Lat', direction: 'north', unit: 'degree' },
        { name: 'Geodetic longitude', abbreviation: 'Lon', direction: 'east', unit: 'degree' },
      ],
    },
    id: { authority: 'IAU', code: 30100, version: 2015 },
    remarks: 'Source of IAU Coordinate systems: doi://10.1007/s10569-017-9805-5',
  },
  'IAU_2015:49900': {
    $schema: 'https://proj.org/schemas/v0.5/projjson.schema.json',
    type: 'GeographicCRS',
    name: 'Mars (2015) - Sphere / Ocentric',
    datum: {
      type: 'GeodeticReferenceFrame',
      name: 'Mars (2015) - Sphere',
      anchor: 'Viking 1 lander: 47.95137 W',
      ellipsoid: { name: 'Mars (2015) - Sphere', radius: 3396190 },
      prime_meridian: { name: 'Reference Meridian', longitude: 0 },
    },
    coordinate_system: {
      subtype: 'ellipsoidal',
      axis: [
        { name: 'Geodetic latitude', abbreviation: 'Lat', direction: 'north', unit: 'degree' },
        { name: 'Geodetic longitude', abbreviation: 'Lon', direction: 'east', unit: 'degree' },
      ],
    },
    id: { authority: 'IAU', code: 49900, version: 2015 },
    remarks:
      'Use semi-major radius as sphere for interoperability. Source of IAU Coordinate systems: doi://10.1007/s10569-017-9805-5',
  },
};

/**
 * Returns the PROJJSON of a checked manifest's `crs` (e.g. {authority:
 * "EPSG", code: "4326"}). Validation refuses every other CRS: one here is a
 * bug.
 */
export function projjson(crs: { authority: string; code: string }): object {
  const found = PROJJSON[`${crs.authority}:${crs.code}`];
  if (!found) throw new Error(`${crs.authority}:${crs.code} has no PROJJSON, yet the manifest was validated`);
  return found;
}
