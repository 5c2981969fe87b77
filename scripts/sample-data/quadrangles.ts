// The published quadrangle schemes of Mars and the Moon, as the sample data's
// data/mars/MCQ/ and data/moon/LQS/ hold them: each chart a latitude/longitude
// box, written as a GeoJSON polygon whose edges follow parallels and meridians
// (a vertex every degree), as on a cylindrical map.
//
// Longitude convention of the output: planetocentric, east-positive, −180…180,
// as IAU_2015:49900 (Mars) and IAU_2015:30100 (Moon) and RFC 7946 read it. Both
// CRSs are spheres, so planetocentric and planetographic latitude coincide.
// - Mars: the USGS publishes the MC charts in west longitude (0…360° W, the
//   Viking-era convention): east = −west, so 120°–180° W is −180…−120.
// - Moon: the LQ scheme is published in east longitude, −180…180, already.
// No chart crosses the antimeridian: every boundary at ±180 is a chart edge.
import type { Position } from 'geojson';

/** One chart as published: its code, name and box; longitudes in the scheme's own convention. */
interface Chart {
  code: string; // e.g. "MC-01"
  name: string; // e.g. "Mare Boreum"
  lat: [number, number]; // [south, north], degrees
  lon: [number, number]; // [from, to] in the scheme's convention (west longitude for Mars)
}

/** A scheme: one body's charts, in published order, and how to read their longitudes. */
export interface Scheme {
  body: 'mars' | 'moon';
  folder: string; // the manifest's iso_a3 and folder, e.g. "MCQ"
  charts: Chart[];
  west: boolean; // longitudes published as degrees west (Mars's MC charts)
}

const cap = (code: string, name: string, lat: [number, number]): Chart => ({
  code,
  name,
  lat,
  lon: [0, 360],
});

/**
 * Mars Chart (MC) quadrangles, 1:5,000,000, USGS (Davies, Batson & Wu,
 * "Geodesy and Cartography", in Kieffer et al., eds., Mars, Univ. of Arizona
 * Press, 1992), in west longitude as published: polar caps above 65°, six
 * 60°-wide charts from 30° to 65°, eight 45°-wide from 0° to 30°, numbered
 * north to south and, in each band, from 180° W eastwards.
 */
const MC: [string, [number, number], [number, number]][] = [
  ['Mare Boreum', [65, 90], [0, 360]],
  ['Diacria', [30, 65], [120, 180]],
  ['Arcadia', [30, 65], [60, 120]],
  ['Mare Acidalium', [30, 65], [0, 60]],
  ['Ismenius Lacus', [30, 65], [300, 360]],
  ['Casius', [30, 65], [240, 300]],
  ['Cebrenia', [30, 65], [180, 240]],
  ['Amazonis', [0, 30], [135, 180]],
  ['Tharsis', [0, 30], [90, 135]],
  ['Lunae Palus', [0, 30], [45, 90]],
  ['Oxia Palus', [0, 30], [0, 45]],
  ['Arabia', [0, 30], [315, 360]],
  ['Syrtis Major', [0, 30], [270, 315]],
  ['Amenthes', [0, 30], [225, 270]],
  ['Elysium', [0, 30], [180, 225]],
  ['Memnonia', [-30, 0], [135, 180]],
  ['Phoenicis Lacus', [-30, 0], [90, 135]],
  ['Coprates', [-30, 0], [45, 90]],
  ['Margaritifer Sinus', [-30, 0], [0, 45]],
  ['Sinus Sabaeus', [-30, 0], [315, 360]],
  ['Iapygia', [-30, 0], [270, 315]],
  ['Mare Tyrrhenum', [-30, 0], [225, 270]],
  ['Aeolis', [-30, 0], [180, 225]],
  ['Phaethontis', [-65, -30], [120, 180]],
  ['Thaumasia', [-65, -30], [60, 120]],
  ['Argyre', [-65, -30], [0, 60]],
  ['Noachis', [-65, -30], [300, 360]],
  ['Hellas', [-65, -30], [240, 300]],
  ['Eridania', [-65, -30], [180, 240]],
  ['Mare Australe', [-90, -65], [0, 360]],
];

export const MARS: Scheme = {
  body: 'mars',
  folder: 'MCQ',
  west: true,
  charts: MC.map(([name, lat, lon], i) => {
    const code = `MC-${String(i + 1).padStart(2, '0')}`;
    return lon[1] - lon[0] === 360 ? cap(code, name, lat) : { code, name, lat, lon };
  }),
};

/**
 * Returns the LQ bands: [south, north, chart width]; the scheme is Mars's
 * layout (USGS Lunar Geologic Mapping Program, 1:2,500,000; Gaddis et al.,
 * LPSC XXXVII, 2006, abstract 2135), charts from −180° E eastwards.
 */
const LQ_BANDS: [number, number, number][] = [
  [65, 90, 360],
  [30, 65, 60],
  [0, 30, 45],
  [-30, 0, 45],
  [-65, -30, 60],
  [-90, -65, 360],
];

/** The LQ charts the USGS has named (the others are known by number only). */
const LQ_NAMES: Record<string, string> = {
  LQ10: 'Marius',
  LQ11: 'Copernicus',
  LQ18: 'Grimaldi',
  LQ19: 'Mare Nubium',
  LQ29: 'Planck',
  LQ30: 'Lunar South Pole',
};

export const MOON: Scheme = {
  body: 'moon',
  folder: 'LQS',
  west: false,
  charts: LQ_BANDS.flatMap(([south, north, width]) =>
    Array.from({ length: 360 / width }, (_, i) => [south, north, -180 + i * width, -180 + (i + 1) * width]),
  ).map(([south, north, from, to], i) => {
    const code = `LQ${String(i + 1).padStart(2, '0')}`;
    return { code, name: LQ_NAMES[code] ?? code, lat: [south!, north!], lon: [from!, to!] };
  }),
};

/** Returns a chart's box in east longitude, −180…180: [west, south, east, north]. */
function eastBox(scheme: Scheme, chart: Chart): [number, number, number, number] {
  const [s, n] = chart.lat;
  if (chart.lon[1] - chart.lon[0] === 360) return [-180, s, 180, n];
  // 0…360 east or west → −180…180 east; e.g. 300°–360° W is 0°–60° E, 120°–180° W is −180…−120.
  const east = scheme.west ? [-chart.lon[1], -chart.lon[0]] : [chart.lon[0], chart.lon[1]];
  const wrap = (x: number) => (x < -180 ? x + 360 : x);
  const w = wrap(east[0]!);
  return [w, s, w + (east[1]! - east[0]!), n];
}

/** Returns the positions from `a` to `b` (both included) every degree along one coordinate. */
function edge(a: Position, b: Position): Position[] {
  const steps = Math.max(Math.abs(b[0]! - a[0]!), Math.abs(b[1]! - a[1]!));
  return Array.from({ length: steps }, (_, i) => [
    a[0]! + ((b[0]! - a[0]!) * i) / steps,
    a[1]! + ((b[1]! - a[1]!) * i) / steps,
  ]);
}

/** Returns the closed ring of a box, counter-clockwise (RFC 7946), a vertex every degree. */
function boxRing([w, s, e, n]: [number, number, number, number]): Position[] {
  const corners: Position[] = [
    [w, s],
    [e, s],
    [e, n],
    [w, n],
  ];
  return [...corners.flatMap((c, i) => edge(c, corners[(i + 1) % 4]!)), [w, s]];
}

/** One chart as a GeoJSON feature; `id` like "MCQ:QUAD:MC-01". */
interface QuadFeature {
  id: string;
  properties: { shapeName: string; code: string; shapeType: 'QUAD'; shapeGroup: string };
  geometry: { type: 'Polygon'; coordinates: Position[][] };
}

/** Returns every chart of `scheme` as a feature, in published order. */
export function quadFeatures(scheme: Scheme): QuadFeature[] {
  return scheme.charts.map((chart) => ({
    id: `${scheme.folder}:QUAD:${chart.code}`,
    properties: { shapeName: chart.name, code: chart.code, shapeType: 'QUAD', shapeGroup: scheme.folder },
    geometry: { type: 'Polygon', coordinates: [boxRing(eastBox(scheme, chart))] },
  }));
}

/** Returns the FeatureCollection text in the corpus layout: one feature per line, no final newline. */
export function quadText(scheme: Scheme): string {
  const features = quadFeatures(scheme);
  const boxes = scheme.charts.map((chart) => eastBox(scheme, chart));
  const bbox = [0, 1, 2, 3].map((i) => (i < 2 ? Math.min : Math.max)(...boxes.map((b) => b[i]!)));
  const lines = features.map((f) => JSON.stringify({ type: 'Feature', ...f }));
  return `{"type":"FeatureCollection","bbox":${JSON.stringify(bbox)},"features":[\n${lines.join(',\n')}\n]}`;
}
