// Writes the sample data of the other bodies: data/mars/MCQ/ (the USGS Mars
// Chart quadrangles) and data/moon/LQS/ (the USGS lunar 1:2,500,000
// quadrangles), each a QUAD level and its manifest, from the published
// definitions in quadrangles.ts; then has `geoshelf manifest` recompute the
// derived numbers. Needs no package of this folder:
//   npx tsx scripts/sample-data/bodies.ts [--root DIR]   (from the repository root; DIR defaults to it)
//   npm run bodies                                        (from this folder)
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../../build/core/atomic-write.ts';
import { MARS, MOON, quadFeatures, quadText, type Scheme } from './quadrangles.ts';

/** The day the definitions were looked up; fixed so re-runs are byte-identical. */
const RETRIEVED = '2026-11-27';

/** What a manifest says about a scheme beyond its data: names, CRS, source, notes. */
const ABOUT: Record<Scheme['body'], Record<string, unknown>> = {
  mars: {
    name: { en: 'Mars Chart (MC) quadrangles', es: 'Cuadrángulos de las cartas de Marte (MC)' },
    crs: { authority: 'IAU_2015', code: '49900', epsg: 0 },
    source: {
      name: 'USGS Mars Chart (MC) quadrangles, 1:5,000,000 (Davies, Batson and Wu, "Geodesy and Cartography", in Mars, University of Arizona Press, 1992)',
      url: 'https://planetarynames.wr.usgs.gov/',
      license: 'public-domain',
      retrieved: RETRIEVED,
    },
    notes:
      'The 30 USGS Mars Chart quadrangles MC-01 to MC-30 as latitude/longitude boxes, a vertex every degree; published in west longitude, converted to planetocentric east longitude (-180 to 180) of IAU_2015:49900 (east = -west).',
  },
  moon: {
    name: { en: 'Lunar quadrangles (LQ), 1:2,500,000', es: 'Cuadrángulos lunares (LQ), 1:2.500.000' },
    crs: { authority: 'IAU_2015', code: '30100', epsg: 0 },
    source: {
      name: 'USGS Lunar Geologic Mapping Program, 1:2,500,000 quadrangles LQ01 to LQ30 (Gaddis and others, Lunar and Planetary Science XXXVII, 2006, abstract 2135)',
      url: 'https://astrogeology.usgs.gov/',
      license: 'public-domain',
      retrieved: RETRIEVED,
    },
    notes:
      'The 30 USGS lunar 1:2,500,000 quadrangles LQ01 to LQ30 as latitude/longitude boxes in east longitude (-180 to 180), a vertex every degree; charts the USGS has not named are named by their number.',
  },
};

/** Returns the manifest of a scheme, its derived numbers measured from `text`; `previous` keys kept. */
function manifestOf(scheme: Scheme, path: string, text: string, previous: Record<string, unknown>) {
  const features = quadFeatures(scheme);
  const xs = features.flatMap((f) => f.geometry.coordinates[0]!.map((p) => p[0]!));
  const ys = features.flatMap((f) => f.geometry.coordinates[0]!.map((p) => p[1]!));
  const old = (Array.isArray(previous.datasets) ? previous.datasets[0] : {}) as Record<string, unknown>;
  const dataset = {
    level: 'QUAD',
    path,
    bytes: Buffer.byteLength(text),
    sha256: createHash('sha256').update(text).digest('hex'),
    features: features.length,
    bbox: [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)],
    geometry_types: { Polygon: features.length },
    properties: Object.keys(features[0]!.properties).sort(),
    // what other commands add (preview, simplification) is kept
    ...Object.fromEntries(
      Object.entries(old).filter(([k]) => ['preview', 'preview_bytes', 'simplification'].includes(k)),
    ),
    license: 'public-domain',
    src_provider: 'USGS Astrogeology Science Center',
  };
  const { name, crs, source, notes } = ABOUT[scheme.body];
  return {
    schema_version: 1,
    body: scheme.body,
    iso_a3: scheme.folder,
    name,
    crs,
    status: 'ok',
    source,
    notes,
    datasets: [dataset],
  };
}

/** Writes one scheme's files under `root`: its GeoJSON and manifest (unchanged files are not rewritten). */
async function writeScheme(root: string, scheme: Scheme): Promise<void> {
  const folder = `data/${scheme.body}/${scheme.folder}`;
  const path = `${folder}/${scheme.folder}_QUAD.geojson`;
  const text = quadText(scheme);
  await mkdir(join(root, folder), { recursive: true });
  const manifestPath = join(root, folder, 'manifest.json');
  const previous = existsSync(manifestPath)
    ? (JSON.parse(readFileSync(manifestPath, 'utf8')) as Record<string, unknown>)
    : {};
  const manifest = `${JSON.stringify(manifestOf(scheme, path, text, previous), null, 2)}\n`;
  for (const [file, content] of [
    [join(root, path), text],
    [manifestPath, manifest],
  ] as const) {
    if (!existsSync(file) || readFileSync(file, 'utf8') !== content) await writeFileAtomic(file, content);
  }
}

const { values } = parseArgs({
  options: { root: { type: 'string', default: join(import.meta.dirname, '../..') } },
});
const root = resolve(values.root);
for (const scheme of [MARS, MOON]) await writeScheme(root, scheme);
const geoshelf = join(import.meta.dirname, '../../bin/geoshelf.js');
const codes = [MARS.folder, MOON.folder];
execFileSync('node', [geoshelf, 'manifest', '--root', root, ...codes], { stdio: 'inherit' });
execFileSync('node', [geoshelf, 'validate', '--root', root, ...codes], { stdio: 'inherit' });
