// The bodies geoshelf publishes and the coordinate reference systems a
// manifest's `crs` may name, declared once: each CRS with its body and with
// what every download format writes for it. The texts are GDAL's own (GDAL
// 3.6 with PROJ's IAU_2015 database: `ogr2ogr -a_srs IAU_2015:30100`, and
// `gdalsrsinfo -o wkt1`), so a file reads back in GDAL, QGIS and the rest as
// the manifest's CRS; test/formats/crs.test.ts compares them with GDAL's.
import type { Body } from './manifest.ts';

/** A body's reference figure: an ellipsoid, or a sphere (inverse flattening 0). */
export interface Figure {
  name: string; // e.g. "Moon (2015) - Sphere"
  semiMajorM: number;
  inverseFlattening: number; // 0: a sphere
}

/** Each body's figure (its CRSs' ellipsoid), and the sphere areas and distances are measured on. */
export const BODIES: Record<Body, { figure: Figure; radiusM: number }> = {
  // IUGG's mean radius R1 = (2a + b) / 3 of the WGS 84 ellipsoid, rounded as IUGG publishes it.
  earth: {
    figure: { name: 'WGS 84', semiMajorM: 6_378_137, inverseFlattening: 298.257223563 },
    radiusM: 6_371_008.8,
  },
  // IAU 2015 (Archinal et al. 2018) spheres, as IAU_2015:30100 and IAU_2015:49900 define them;
  // Mars's is its equatorial radius ("semi-major radius as sphere for interoperability").
  moon: {
    figure: { name: 'Moon (2015) - Sphere', semiMajorM: 1_737_400, inverseFlattening: 0 },
    radiusM: 1_737_400,
  },
  mars: {
    figure: { name: 'Mars (2015) - Sphere', semiMajorM: 3_396_190, inverseFlattening: 0 },
    radiusM: 3_396_190,
  },
};

/** Each body's radius in metres: what "metres" and "m²" mean on it, in every check and figure. */
export const BODY_RADIUS_M: Record<Body, number> = {
  earth: BODIES.earth.radiusM,
  moon: BODIES.moon.radiusM,
  mars: BODIES.mars.radiusM,
};

/**
 * Metres per degree along each body's equator, a·π/180 of its figure (e.g.
 * 111,319.49 on the Earth): the equirectangular scale that turns short
 * distances in degrees into metres (identity matching, previews).
 */
export const METRES_PER_DEGREE: Record<Body, number> = {
  earth: (BODIES.earth.figure.semiMajorM * Math.PI) / 180,
  moon: (BODIES.moon.figure.semiMajorM * Math.PI) / 180,
  mars: (BODIES.mars.figure.semiMajorM * Math.PI) / 180,
};

/** A `crs` as a manifest names it, e.g. {authority: "IAU_2015", code: "30100", epsg: 0}. */
export interface ManifestCrs {
  authority: string;
  code: string;
  epsg: number;
}

/** One CRS geoshelf accepts: geographic, longitude/latitude in degrees, on `body`. */
export interface CrsDefinition extends ManifestCrs {
  body: Body;
  name: string; // e.g. "Moon (2015) - Sphere / Ocentric"
  /** Its row of gpkg_spatial_ref_sys, as GDAL writes it (srs_id also in each geometry's header). */
  gpkg: {
    srsName: string;
    srsId: number;
    organization: string;
    organizationCoordsysId: number;
    definition: string; // WKT1
    description: string | null;
  };
  prj: string; // a Shapefile's .prj (ESRI WKT1)
  /** A FlatGeobuf header's crs table: `org` absent where GDAL writes none (OGC:CRS84), then code 0. */
  fgb: { org?: string; code: number; name: string; wkt: string }; // wkt: WKT2:2019
}

const WGS84_PRJ =
  'GEOGCS["GCS_WGS_1984",DATUM["D_WGS_1984",SPHEROID["WGS_1984",6378137.0,298.257223563]],PRIMEM["Greenwich",0.0],UNIT["Degree",0.0174532925199433]]';

/** EPSG:4326: also the row every GeoPackage holds (GeoPackage 1.2, requirement 11). */
export const EPSG_4326: CrsDefinition = {
  authority: 'EPSG',
  code: '4326',
  epsg: 4326,
  body: 'earth',
  name: 'WGS 84',
  gpkg: {
    srsName: 'WGS 84 geodetic',
    srsId: 4326,
    organization: 'EPSG',
    organizationCoordsysId: 4326,
    definition:
      'GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563,AUTHORITY["EPSG","7030"]],AUTHORITY["EPSG","6326"]],PRIMEM["Greenwich",0,AUTHORITY["EPSG","8901"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["EPSG","4326"]]',
    description: 'longitude/latitude coordinates in decimal degrees on the WGS 84 spheroid',
  },
  prj: WGS84_PRJ,
  fgb: {
    org: 'EPSG',
    code: 4326,
    name: 'WGS 84',
    wkt: 'GEOGCRS["WGS 84",ENSEMBLE["World Geodetic System 1984 ensemble",MEMBER["World Geodetic System 1984 (Transit)"],MEMBER["World Geodetic System 1984 (G730)"],MEMBER["World Geodetic System 1984 (G873)"],MEMBER["World Geodetic System 1984 (G1150)"],MEMBER["World Geodetic System 1984 (G1674)"],MEMBER["World Geodetic System 1984 (G1762)"],MEMBER["World Geodetic System 1984 (G2139)"],ELLIPSOID["WGS 84",6378137,298.257223563,LENGTHUNIT["metre",1]],ENSEMBLEACCURACY[2.0]],PRIMEM["Greenwich",0,ANGLEUNIT["degree",0.0174532925199433]],CS[ellipsoidal,2],AXIS["geodetic latitude (Lat)",north,ORDER[1],ANGLEUNIT["degree",0.0174532925199433]],AXIS["geodetic longitude (Lon)",east,ORDER[2],ANGLEUNIT["degree",0.0174532925199433]],USAGE[SCOPE["Horizontal component of 3D system."],AREA["World."],BBOX[-90,-180,90,180]],ID["EPSG",4326]]',
  },
};

/**
 * OGC:CRS84, WGS 84 with longitude first: written as EPSG:4326, as GDAL
 * writes a GeoJSON source (RFC 7946 coordinates are CRS84) to GeoPackage and
 * FlatGeobuf. Both store longitude as x whatever the CRS's axis order, and
 * EPSG:4326 is the identifier QGIS, DuckDB and PostGIS recognise; GDAL's own
 * text for OGC:CRS84 (srs_id 100000, organization NONE) names no authority.
 */
const OGC_CRS84: CrsDefinition = {
  ...EPSG_4326,
  authority: 'OGC',
  code: 'CRS84',
  epsg: 4326,
  fgb: {
    ...EPSG_4326.fgb,
    // GDAL's text for a GeoJSON source's WGS 84: its datum, not the ensemble of EPSG's definition.
    wkt: 'GEOGCRS["WGS 84",DATUM["World Geodetic System 1984",ELLIPSOID["WGS 84",6378137,298.257223563,LENGTHUNIT["metre",1]]],PRIMEM["Greenwich",0,ANGLEUNIT["degree",0.0174532925199433]],CS[ellipsoidal,2],AXIS["geodetic latitude (Lat)",north,ORDER[1],ANGLEUNIT["degree",0.0174532925199433]],AXIS["geodetic longitude (Lon)",east,ORDER[2],ANGLEUNIT["degree",0.0174532925199433]],ID["EPSG",4326]]',
  },
};

/** IAU_2015:30100, the Moon's planetocentric sphere (east longitudes). No EPSG code. */
const MOON_2015: CrsDefinition = {
  authority: 'IAU_2015',
  code: '30100',
  epsg: 0,
  body: 'moon',
  name: 'Moon (2015) - Sphere / Ocentric',
  gpkg: {
    srsName: 'Moon (2015) - Sphere / Ocentric',
    srsId: 30100, // GDAL's choice too: the code, which collides with no other row of the file
    organization: 'IAU_2015',
    organizationCoordsysId: 30100,
    definition:
      'GEOGCS["Moon (2015) - Sphere / Ocentric",DATUM["Moon (2015) - Sphere",SPHEROID["Moon (2015) - Sphere",1737400,0,AUTHORITY["IAU","30100"]],AUTHORITY["IAU","30100"]],PRIMEM["Reference Meridian",0,AUTHORITY["IAU","30100"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["IAU","30100"]]',
    description: null,
  },
  prj: 'GEOGCS["GCS_Moon_2015_-_Sphere_Ocentric",DATUM["D_Moon_2015_-_Sphere",SPHEROID["Moon_2015_-_Sphere",1737400.0,0.0]],PRIMEM["Reference_Meridian",0.0],UNIT["Degree",0.0174532925199433]]',
  fgb: {
    org: 'IAU_2015',
    code: 30100,
    name: 'Moon (2015) - Sphere / Ocentric',
    wkt: 'GEOGCRS["Moon (2015) - Sphere / Ocentric",DATUM["Moon (2015) - Sphere",ELLIPSOID["Moon (2015) - Sphere",1737400,0,LENGTHUNIT["metre",1]]],PRIMEM["Reference Meridian",0,ANGLEUNIT["degree",0.0174532925199433]],CS[ellipsoidal,2],AXIS["geodetic latitude (Lat)",north,ORDER[1],ANGLEUNIT["degree",0.0174532925199433]],AXIS["geodetic longitude (Lon)",east,ORDER[2],ANGLEUNIT["degree",0.0174532925199433]],ID["IAU",30100,2015],REMARK["Source of IAU Coordinate systems: doi://10.1007/s10569-017-9805-5"]]',
  },
};

/** IAU_2015:49900, Mars's planetocentric sphere (east longitudes). No EPSG code. */
const MARS_2015: CrsDefinition = {
  authority: 'IAU_2015',
  code: '49900',
  epsg: 0,
  body: 'mars',
  name: 'Mars (2015) - Sphere / Ocentric',
  gpkg: {
    srsName: 'Mars (2015) - Sphere / Ocentric',
    srsId: 49900,
    organization: 'IAU_2015',
    organizationCoordsysId: 49900,
    definition:
      'GEOGCS["Mars (2015) - Sphere / Ocentric",DATUM["Mars (2015) - Sphere",SPHEROID["Mars (2015) - Sphere",3396190,0,AUTHORITY["IAU","49900"]],AUTHORITY["IAU","49900"]],PRIMEM["Reference Meridian",0,AUTHORITY["IAU","49900"]],UNIT["degree",0.0174532925199433,AUTHORITY["EPSG","9122"]],AXIS["Latitude",NORTH],AXIS["Longitude",EAST],AUTHORITY["IAU","49900"]]',
    description: null,
  },
  prj: 'GEOGCS["GCS_Mars_2015_-_Sphere_Ocentric",DATUM["D_Mars_2015_-_Sphere",SPHEROID["Mars_2015_-_Sphere",3396190.0,0.0]],PRIMEM["Reference_Meridian",0.0],UNIT["Degree",0.0174532925199433]]',
  fgb: {
    org: 'IAU_2015',
    code: 49900,
    name: 'Mars (2015) - Sphere / Ocentric',
    wkt: 'GEOGCRS["Mars (2015) - Sphere / Ocentric",DATUM["Mars (2015) - Sphere",ELLIPSOID["Mars (2015) - Sphere",3396190,0,LENGTHUNIT["metre",1]],ANCHOR["Viking 1 lander: 47.95137 W"]],PRIMEM["Reference Meridian",0,ANGLEUNIT["degree",0.0174532925199433]],CS[ellipsoidal,2],AXIS["geodetic latitude (Lat)",north,ORDER[1],ANGLEUNIT["degree",0.0174532925199433]],AXIS["geodetic longitude (Lon)",east,ORDER[2],ANGLEUNIT["degree",0.0174532925199433]],ID["IAU",49900,2015],REMARK["Use semi-major radius as sphere for interoperability. Source of IAU Coordinate systems: doi://10.1007/s10569-017-9805-5"]]',
  },
};

/** Every CRS a manifest may name, by body in the spec's order. */
export const ACCEPTED_CRS: readonly CrsDefinition[] = [OGC_CRS84, EPSG_4326, MOON_2015, MARS_2015];

/** Returns "authority:code", e.g. "IAU_2015:30100". */
export function crsName(crs: { authority: string; code: string }): string {
  return `${crs.authority}:${crs.code}`;
}

/** Returns the accepted CRS named by `crs`'s authority and code (whatever its epsg), or undefined. */
export function findCrs(crs: { authority: string; code: string }): CrsDefinition | undefined {
  return ACCEPTED_CRS.find((c) => c.authority === crs.authority && c.code === crs.code);
}

/**
 * Returns the definition of a checked manifest's `crs`. Validation refuses
 * every other (rule crs, build/manifest/validate-crs.ts): one here is a bug.
 */
export function crsDefinition(crs: { authority: string; code: string }): CrsDefinition {
  const found = findCrs(crs);
  if (!found) throw new Error(`${crsName(crs)} is not an accepted CRS, yet the manifest was validated`);
  return found;
}

/**
 * Returns the CRS a file joining every manifest of `body` declares (a world
 * file): its first accepted CRS. Every CRS of a body is longitude/latitude
 * in degrees on the same figure, so only the declaration differs: the Earth's
 * is OGC:CRS84, written as EPSG:4326 as for a manifest naming CRS84.
 */
export function bodyCrs(body: Body): CrsDefinition {
  return ACCEPTED_CRS.find((c) => c.body === body)!;
}
