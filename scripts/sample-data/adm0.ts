// ADM0 outlines from Natural Earth admin-0 countries, as shipped in the
// world-atlas npm package (TopoJSON, Natural Earth 4.1.0): one outline per
// ISO3, from the 1:50m file, with the 1:10m file for units 1:50m lacks.
import { createRequire } from 'node:module';
import { feature, merge } from 'topojson-client';
import type {
  GeometryCollection,
  GeometryObject,
  MultiPolygon,
  Polygon,
  Topology,
} from 'topojson-specification';
import { alpha3OfNumeric, KOSOVO } from './countries.ts';
import { cleanArea, type Area } from './geometry.ts';

const require = createRequire(import.meta.url);

export interface Outline {
  iso3: string;
  geometry: Area;
  scale: '50m' | '10m';
}

type CountryObject = (Polygon | MultiPolygon) & { id?: string; properties?: { name?: string } };

/**
 * Natural Earth units without an ISO numeric id in world-atlas, and what to do
 * with each: publish under a code, merge into a country, split, or skip.
 */
const UNCODED: Record<string, string | undefined> = {
  Kosovo: KOSOVO.iso3,
  Somaliland: 'SOM', // merged
  'N. Cyprus': 'CYP', // merged
  'Indian Ocean Ter.': 'CXR+CCK', // split by longitude
  'Siachen Glacier': undefined, // disputed between India and Pakistan: skipped
};

/** Returns the countries object of a world-atlas file, e.g. "countries-50m.json". */
function loadCountries(file: string): { topology: Topology; objects: CountryObject[] } {
  const topology = require(`world-atlas/${file}`) as Topology;
  const collection = topology.objects.countries as GeometryCollection;
  const objects = (collection.geometries as GeometryObject[]).filter(
    (object): object is CountryObject => object.type === 'Polygon' || object.type === 'MultiPolygon',
  );
  return { topology, objects };
}

/** Returns the ISO3 target of a world-atlas country object (see UNCODED), or undefined to skip it. */
function targetOf(object: CountryObject): string | undefined {
  const name = object.properties?.name ?? '';
  if (object.id === undefined) {
    if (!(name in UNCODED)) throw new Error(`world-atlas unit "${name}" has no id and no rule in UNCODED`);
    return UNCODED[name];
  }
  const iso3 = alpha3OfNumeric(object.id);
  if (!iso3) throw new Error(`world-atlas id ${object.id} ("${name}") is not an ISO 3166-1 numeric code`);
  return iso3;
}

/** Returns the objects grouped by ISO3 target, in first-seen order. */
function groupByTarget(objects: CountryObject[]): Map<string, CountryObject[]> {
  const groups = new Map<string, CountryObject[]>();
  for (const object of objects) {
    const target = targetOf(object);
    if (target === undefined) continue;
    groups.set(target, [...(groups.get(target) ?? []), object]);
  }
  return groups;
}

/** Returns the GeoJSON geometry of one polygonal TopoJSON object. */
export function topoArea(topology: Topology, object: Polygon | MultiPolygon): Area {
  return object.type === 'Polygon' ? feature(topology, object).geometry : feature(topology, object).geometry;
}

/** Returns one geometry for the group: merged along shared borders when there are several units. */
function groupGeometry(topology: Topology, group: CountryObject[]): Area {
  if (group.length > 1) return merge(topology, group);
  return topoArea(topology, group[0]);
}

/** Returns the polygons of `geometry` whose first corner is east (or west) of `lon`. */
function polygonsBeside(geometry: Area, lon: number, east: boolean): Area {
  const polygons = geometry.type === 'Polygon' ? [geometry.coordinates] : geometry.coordinates;
  return { type: 'MultiPolygon', coordinates: polygons.filter((rings) => rings[0][0][0] > lon === east) };
}

/** Returns ISO3 → cleaned outline for the world-atlas objects in `objects`. */
function outlinesOf(
  topology: Topology,
  objects: CountryObject[],
  scale: Outline['scale'],
): Map<string, Outline> {
  const outlines = new Map<string, Outline>();
  const add = (iso3: string, geometry: Area) => {
    const cleaned = cleanArea(geometry);
    if (cleaned) outlines.set(iso3, { iso3, geometry: cleaned, scale });
  };
  for (const [target, group] of groupByTarget(objects)) {
    const geometry = groupGeometry(topology, group);
    if (target === 'CXR+CCK') {
      add('CXR', polygonsBeside(geometry, 100, true));
      add('CCK', polygonsBeside(geometry, 100, false));
    } else {
      add(target, geometry);
    }
  }
  return outlines;
}

/**
 * Returns every ADM0 outline, sorted by ISO3: the 1:50m outline where there
 * is one, else the 1:10m outline of an ISO-coded unit 1:50m lacks (Gibraltar,
 * Tuvalu, US Minor Outlying Islands). The 1:10m file's extra uncoded units
 * (Akrotiri, Baikonur, reefs and banks…) are not taken.
 */
export function readOutlines(): Outline[] {
  const medium = loadCountries('countries-50m.json');
  const outlines = outlinesOf(medium.topology, medium.objects, '50m');
  const large = loadCountries('countries-10m.json');
  const missing = large.objects.filter((object) => {
    const iso3 = object.id === undefined ? undefined : alpha3OfNumeric(object.id);
    return iso3 !== undefined && !outlines.has(iso3);
  });
  for (const [iso3, outline] of outlinesOf(large.topology, missing, '10m')) outlines.set(iso3, outline);
  return [...outlines.values()].sort((a, b) => (a.iso3 < b.iso3 ? -1 : 1));
}
