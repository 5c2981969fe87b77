// USA ADM1 (states) and ADM2 (counties) from the U.S. Census Bureau's 2017
// cartographic boundary files, as shipped in the us-atlas npm package
// (counties-10m.json: states are merged from the same counties, so every
// county lies exactly inside its state).
import { createRequire } from 'node:module';
import type { GeometryCollection, MultiPolygon, Polygon, Topology } from 'topojson-specification';
import { topoArea } from './adm0.ts';
import { cleanArea, type OutFeature } from './geometry.ts';

const require = createRequire(import.meta.url);

/**
 * State FIPS code → ISO 3166-2 code, for the 50 states and DC. Puerto Rico
 * (72) and the island areas (60, 66, 69, 78) have ISO 3166-1 codes of their
 * own (PRI, ASM, GUM, MNP, VIR), so they are left out of USA's levels.
 */
export const STATE_ISO: Record<string, string> = {
  '01': 'US-AL', '02': 'US-AK', '04': 'US-AZ', '05': 'US-AR', '06': 'US-CA', '08': 'US-CO',
  '09': 'US-CT', '10': 'US-DE', '11': 'US-DC', '12': 'US-FL', '13': 'US-GA', '15': 'US-HI',
  '16': 'US-ID', '17': 'US-IL', '18': 'US-IN', '19': 'US-IA', '20': 'US-KS', '21': 'US-KY',
  '22': 'US-LA', '23': 'US-ME', '24': 'US-MD', '25': 'US-MA', '26': 'US-MI', '27': 'US-MN',
  '28': 'US-MS', '29': 'US-MO', '30': 'US-MT', '31': 'US-NE', '32': 'US-NV', '33': 'US-NH',
  '34': 'US-NJ', '35': 'US-NM', '36': 'US-NY', '37': 'US-NC', '38': 'US-ND', '39': 'US-OH',
  '40': 'US-OK', '41': 'US-OR', '42': 'US-PA', '44': 'US-RI', '45': 'US-SC', '46': 'US-SD',
  '47': 'US-TN', '48': 'US-TX', '49': 'US-UT', '50': 'US-VT', '51': 'US-VA', '53': 'US-WA',
  '54': 'US-WV', '55': 'US-WI', '56': 'US-WY',
}; // prettier-ignore

type Unit = (Polygon | MultiPolygon) & { id: string; properties: { name: string } };

/** Returns the polygonal units of one us-atlas object ("states" or "counties"), sorted by FIPS id. */
function unitsOf(topology: Topology, name: string): Unit[] {
  const collection = topology.objects[name] as GeometryCollection;
  return (collection.geometries as Unit[])
    .filter((unit) => unit.type === 'Polygon' || unit.type === 'MultiPolygon')
    .sort((a, b) => (a.id < b.id ? -1 : 1));
}

/** Returns the cleaned geometry of `unit`; throws when nothing is left of it. */
function geometryOf(topology: Topology, unit: Unit) {
  const geometry = cleanArea(topoArea(topology, unit));
  if (!geometry) throw new Error(`us-atlas unit ${unit.id} (${unit.properties.name}) has no area`);
  return geometry;
}

/** Returns true when `unit` keeps some area once cleaned (us-atlas' simplification flattens a few tiny cities). */
function hasArea(topology: Topology, unit: Unit): boolean {
  return cleanArea(topoArea(topology, unit)) !== undefined;
}

/**
 * Returns the USA's ADM1 features (51: states and DC, id "USA:ADM1:US-CA")
 * and ADM2 features (counties and equivalents, id "USA:ADM2:US-CA.06069",
 * with the county's FIPS code as `src_shape_id` and its state as parent), and
 * the counties left out because us-atlas flattened them to no area, e.g.
 * "Falls Church (51610)".
 */
export function readUnitedStates(): { adm1: OutFeature[]; adm2: OutFeature[]; flattened: string[] } {
  const topology = require('us-atlas/counties-10m.json') as Topology;
  const adm1 = unitsOf(topology, 'states')
    .filter((state) => STATE_ISO[state.id])
    .map((state) => ({
      id: `USA:ADM1:${STATE_ISO[state.id]}`,
      properties: {
        shapeName: state.properties.name,
        shapeISO: STATE_ISO[state.id],
        shapeGroup: 'USA',
        shapeType: 'ADM1',
        parentISO: 'USA',
        parentID: 'USA:ADM0:USA',
        src_shape_id: state.id,
      },
      geometry: geometryOf(topology, state),
    }));
  const counties = unitsOf(topology, 'counties').filter((county) => STATE_ISO[county.id.slice(0, 2)]);
  const flattened = counties
    .filter((county) => !hasArea(topology, county))
    .map((county) => `${county.properties.name} (${county.id})`);
  const adm2 = counties
    .filter((county) => hasArea(topology, county))
    .map((county) => {
      const parent = STATE_ISO[county.id.slice(0, 2)];
      return {
        id: `USA:ADM2:${parent}.${county.id}`,
        properties: {
          shapeName: county.properties.name,
          shapeISO: '', // counties have no ISO 3166-2 code
          shapeGroup: 'USA',
          shapeType: 'ADM2',
          parentISO: parent,
          parentID: `USA:ADM1:${parent}`,
          src_shape_id: county.id,
        },
        geometry: geometryOf(topology, county),
      };
    });
  if (adm1.length !== 51) throw new Error(`us-atlas: expected 51 states and DC, got ${adm1.length}`);
  return { adm1, adm2, flattened };
}
