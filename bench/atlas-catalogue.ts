// Generates the large catalogue of `npm run bench:build`: 100 countries (real
// codes and names from world-countries), each with an ADM0, 10 ADM1 and 490
// ADM2 units (square cells with made-up names), so 50,000 units in all, like
// geoBoundaries' ADM2 for the world. Deterministic (seeded); written into a
// scratch folder, never committed. Manifests carry the measured numbers.
import { mkdir, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { measureGeoJSON } from '../build/measure/measure.ts';
import { seededRandom } from '../test/support/random.ts';

const COUNTRIES = 100;
const ADM1_PER_COUNTRY = 10;
const ADM2_PER_ADM1 = 49;
const SYLLABLES =
  'ka lo mi ra te su van do ri el an be co du fa gi ho ja ku ly ma ne os pa qu ro sa ti ur ve wa xi yo za'.split(
    ' ',
  );

type Cell = [number, number, number]; // west, south, size in degrees

const square = ([x, y, d]: Cell) => [
  [
    [x, y],
    [x + d, y],
    [x + d, y + d],
    [x, y + d],
    [x, y],
  ].map(([a, b]) => [Math.round(a * 1e4) / 1e4, Math.round(b * 1e4) / 1e4]),
];

function featureLine(id: string, properties: Record<string, string>, cell: Cell): string {
  return JSON.stringify({
    type: 'Feature',
    id,
    properties,
    geometry: { type: 'Polygon', coordinates: square(cell) },
  });
}

async function writeLevel(path: string, lines: string[]): Promise<void> {
  await writeFile(path, `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}\n`);
}

/** Writes the catalogue under `root` (data/earth/…) and returns how many units it holds. */
export async function generateCatalogue(
  root: string,
): Promise<{ countries: number; units: number; names: string[] }> {
  const rand = seededRandom(11);
  const word = () => {
    const n = 2 + Math.floor(rand() * 3);
    const w = Array.from({ length: n }, () => SYLLABLES[Math.floor(rand() * SYLLABLES.length)]).join('');
    return w[0].toUpperCase() + w.slice(1);
  };
  const world = (
    createRequire(import.meta.url)('world-countries/countries.json') as {
      cca3: string;
      cca2: string;
      name: { common: string };
      subregion?: string;
    }[]
  )
    .filter((c) => c.cca2)
    .slice(0, COUNTRIES);
  const names: string[] = [];
  let units = 0;
  for (const [i, c] of world.entries()) {
    const dir = join(root, 'data', 'earth', c.cca3);
    await mkdir(dir, { recursive: true });
    const x0 = -170 + (i % 20) * 17;
    const y0 = -60 + Math.floor(i / 20) * 25;
    const adm0 = [
      featureLine(`${c.cca3}:ADM0`, { shapeName: c.name.common, shapeISO: c.cca3, shapeType: 'ADM0' }, [
        x0,
        y0,
        14,
      ]),
    ];
    const adm1: string[] = [];
    const adm2: string[] = [];
    for (let r = 0; r < ADM1_PER_COUNTRY; r++) {
      const code = `${c.cca2}-${String(r + 1).padStart(2, '0')}`;
      const cell: Cell = [x0 + (r % 5) * 2.8, y0 + Math.floor(r / 5) * 7, 2.8];
      const name = `${word()} ${word()}`;
      adm1.push(
        featureLine(
          `${c.cca3}:ADM1:${code}`,
          { shapeName: name, shapeISO: code, shapeType: 'ADM1', parentISO: c.cca3 },
          cell,
        ),
      );
      for (let k = 0; k < ADM2_PER_ADM1; k++) {
        const sub: Cell = [cell[0] + (k % 7) * 0.4, cell[1] + Math.floor(k / 7) * 0.4, 0.4];
        const county = rand() < 0.3 ? `${word()} ${word()}` : word();
        names.push(county);
        adm2.push(
          featureLine(
            `${c.cca3}:ADM2:${code}.${k}`,
            { shapeName: county, shapeISO: '', shapeType: 'ADM2', parentISO: code },
            sub,
          ),
        );
      }
    }
    units += adm1.length + adm2.length;
    const datasets = [];
    for (const [level, lines] of [
      ['ADM0', adm0],
      ['ADM1', adm1],
      ['ADM2', adm2],
    ] as const) {
      const path = `data/earth/${c.cca3}/${c.cca3}_${level}.geojson`;
      await writeLevel(join(root, path), lines);
      const stats = await measureGeoJSON(join(root, path));
      datasets.push({ level, path, ...stats, license: 'CC0-1.0', src_provider: 'generated', src_year: 2026 });
    }
    const manifest = {
      schema_version: 1,
      body: 'earth',
      iso_a3: c.cca3,
      iso_a2: c.cca2,
      ...(c.subregion ? { m49_region: c.subregion } : {}),
      name: { en: c.name.common },
      crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
      status: 'ok',
      source: {
        name: 'geoshelf benchmark',
        url: 'https://example.org/',
        license: 'CC0-1.0',
        retrieved: '2026-11-22',
      },
      datasets,
    };
    await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return { countries: world.length, units, names };
}
