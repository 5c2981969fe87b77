// The catalogue as a static STAC 1.1 catalogue under stac/, for the tools
// that crawl one (STAC Browser, pystac, stac-rs, QGIS's STAC source):
//
//   stac/catalog.json                   the root: a Catalog, one child per body
//   stac/{body}/collection.json         a Collection per body, one child per country
//   stac/{body}/{ISO3}/collection.json  a Collection per country: its source,
//                                       licence, extent, and the .zip as an asset
//   stac/{body}/{ISO3}/{item}.json      an Item per dataset (level): every file
//                                       it is published as (GeoJSON, parts,
//                                       preview, downloads) as assets with
//                                       file:size and file:checksum (sha2-256
//                                       multihash), table:row_count and
//                                       table:columns, and the CRS as proj:code
//
// Every link is relative to its document (a "self-contained" catalogue, as
// STAC's best practices call it), so the same bytes work under any base and
// in every release, whose copy is frozen with the rest of its files.
import { countryPage, fileUrl, relativeBase } from '../core/dist-paths.ts';
import type { Body, CheckedDataset, Manifest } from '../core/shared/manifest.ts';
import type { CountryDownloads, Download, LayerDownloads } from '../formats/downloads.ts';
import type { LoadedManifest } from '../manifest/validate.ts';
import { mediaType } from '../core/media-types.ts';
import { BODY_HEADINGS, BODY_NAMES } from './pages/bodies.ts';

const STAC_VERSION = '1.1.0';
const FILE_EXT = 'https://stac-extensions.github.io/file/v2.1.0/schema.json';
const TABLE_EXT = 'https://stac-extensions.github.io/table/v1.2.0/schema.json';
const PROJ_EXT = 'https://stac-extensions.github.io/projection/v2.0.0/schema.json';

type Json = Record<string, unknown>;
interface Link {
  rel: string;
  href: string;
  type?: string;
  title?: string;
}
interface Asset {
  href: string;
  type: string;
  title: string;
  roles: string[];
  'file:size'?: number;
  'file:checksum'?: string;
}

/** Returns a sha256 (hex) as a multihash, as file:checksum holds it: "1220" (sha2-256, 32 bytes) then the digest. */
function multihash(sha256: string): string {
  return `1220${sha256}`;
}

/** Returns the STAC documents of the catalogue: dist path → JSON text. */
export function renderStac(
  loaded: readonly LoadedManifest[],
  downloads: ReadonlyMap<string, CountryDownloads>,
): Map<string, string> {
  const out = new Map<string, string>();
  const put = (path: string, doc: Json) => out.set(path, `${JSON.stringify(doc)}\n`);
  const bodies = new Map<Body, LoadedManifest[]>();
  for (const entry of loaded)
    bodies.set(entry.manifest.body, [...(bodies.get(entry.manifest.body) ?? []), entry]);
  const order = [...bodies.keys()].sort();
  put(ROOT, {
    type: 'Catalog',
    stac_version: STAC_VERSION,
    id: 'geoshelf',
    title: 'geoshelf boundary catalogue',
    description:
      'Administrative boundaries, each level a GeoJSON file with its downloads, size, sha256, source and licence.',
    links: [
      link(ROOT, 'root', ROOT, 'application/json'),
      ...order.map((body) => link(ROOT, 'child', bodyPath(body), 'application/json', body)),
    ],
  });
  for (const body of order) {
    const entries = bodies.get(body)!;
    put(bodyPath(body), bodyCollection(body, entries));
    for (const entry of entries) {
      const dl = downloads.get(entry.file);
      const items = datasetItems(entry.manifest, dl);
      put(countryPath(entry.manifest), countryCollection(entry.manifest, dl, items));
      for (const item of items) put(item.path, item.doc);
    }
  }
  return out;
}

const ROOT = 'stac/catalog.json';
const bodyPath = (body: Body) => `stac/${body}/collection.json`;
const countryPath = (m: Manifest) => `stac/${m.body}/${m.iso_a3}/collection.json`;

/** Returns a link from the document at `from` to the dist path `to`. */
function link(from: string, rel: string, to: string, type: string, title?: string): Link {
  return { rel, href: fileUrl(relativeBase(from), to), type, ...(title ? { title } : {}) };
}

/** Returns the links every document below the root has: to the root and to its parent. */
function upLinks(from: string, parent: string): Link[] {
  return [link(from, 'root', ROOT, 'application/json'), link(from, 'parent', parent, 'application/json')];
}

/** Returns the box holding every box (plain min/max, as the manifest's). */
function union(boxes: readonly number[][]): number[] {
  return boxes.reduce(
    (u, b) => [
      Math.min(u[0]!, b[0]!),
      Math.min(u[1]!, b[1]!),
      Math.max(u[2]!, b[2]!),
      Math.max(u[3]!, b[3]!),
    ],
    [180, 90, -180, -90],
  );
}

/** Returns a manifest licence as STAC names one: an SPDX identifier, or "other" (public domain has none). */
function stacLicense(license: string): string {
  return license === 'public-domain' || license === 'mixed' ? 'other' : license;
}

/** Returns the day a source was retrieved as an RFC 3339 instant (its start, UTC). */
function instant(day: string): string {
  return `${day}T00:00:00Z`;
}

function bodyCollection(body: Body, entries: readonly LoadedManifest[]): Json {
  const path = bodyPath(body);
  const days = entries.map((e) => e.manifest.source.retrieved).sort();
  return {
    type: 'Collection',
    stac_version: STAC_VERSION,
    id: body,
    title: BODY_HEADINGS[body],
    description: `Boundaries on ${BODY_NAMES[body]}: one collection per country or catalogue.`,
    license: 'other', // each country's collection names its own
    extent: {
      spatial: { bbox: [union(entries.flatMap((e) => e.manifest.datasets.map((d) => d.bbox)))] },
      temporal: { interval: [[instant(days[0]!), instant(days.at(-1)!)]] },
    },
    links: [
      ...upLinks(path, ROOT),
      ...entries.map((e) =>
        link(path, 'child', countryPath(e.manifest), 'application/json', e.manifest.name.en),
      ),
    ],
  };
}

interface ItemDoc {
  path: string;
  id: string;
  title: string;
  doc: Json;
}

function countryCollection(m: Manifest, dl: CountryDownloads | undefined, items: readonly ItemDoc[]): Json {
  const path = countryPath(m);
  const licenses = [...new Set(m.datasets.map((d) => d.license))];
  return {
    type: 'Collection',
    stac_version: STAC_VERSION,
    stac_extensions: dl ? [FILE_EXT] : [],
    id: `${m.body}-${m.iso_a3}`,
    title: m.name.en,
    description: `Administrative boundaries of ${m.name.en} (${m.datasets.map((d) => d.level).join(', ')}), from ${m.source.name}.`,
    license: licenses.length === 1 ? stacLicense(licenses[0]!) : 'other',
    providers: [{ name: m.source.name, url: m.source.url, roles: ['producer', 'licensor'] }],
    extent: {
      spatial: { bbox: [union(m.datasets.map((d) => d.bbox))] },
      temporal: { interval: [[instant(m.source.retrieved), null]] },
    },
    links: [
      ...upLinks(path, bodyPath(m.body)),
      link(path, 'via', `${countryPage(m)}`, 'text/html', 'The country page'),
      link(
        path,
        'describedby',
        `data/${m.body}/${m.iso_a3}/manifest.json`,
        'application/json',
        'manifest.json',
      ),
      ...items.map((item) => link(path, 'item', item.path, 'application/geo+json', item.title)),
    ],
    ...(dl
      ? { assets: { archive: asset(path, dl.archive, 'Every file of the country, zipped', ['data']) } }
      : {}),
  };
}

/** Returns a published file as an asset of the document at `from`. */
function asset(from: string, file: Download, title: string, roles: string[]): Asset {
  return {
    href: fileUrl(relativeBase(from), file.url),
    type: mediaType(file.format),
    title,
    roles,
    'file:size': file.bytes,
    'file:checksum': multihash(file.sha256),
  };
}

/** Returns a data file of the manifest (a level's GeoJSON, a part, a preview) as an asset of `from`. */
function dataAsset(
  from: string,
  path: string,
  bytes: number | undefined,
  sha256: string | undefined,
  title: string,
  roles: string[],
): Asset {
  return {
    href: fileUrl(relativeBase(from), path),
    type: mediaType('geojson'),
    title,
    roles,
    ...(bytes !== undefined ? { 'file:size': bytes } : {}),
    ...(sha256 !== undefined ? { 'file:checksum': multihash(sha256) } : {}),
  };
}

/** Returns the assets of one layer's downloads (a whole level or a part), keyed from `prefix`. */
function layerAssets(
  from: string,
  layer: LayerDownloads | undefined,
  prefix: string,
  what: string,
): [string, Asset][] {
  return (layer?.files ?? []).map((f) => [
    `${prefix}${f.format}`,
    asset(from, f, `${what} as ${f.format}`, ['data']),
  ]);
}

/** Returns one Item per dataset of `m`, in manifest order; a second dataset of a level gets "-2", and so on. */
function datasetItems(m: Manifest, dl: CountryDownloads | undefined): ItemDoc[] {
  const seen = new Map<string, number>();
  return (m.datasets as CheckedDataset[]).map((d, i) => {
    const n = (seen.get(d.level) ?? 0) + 1;
    seen.set(d.level, n);
    const id = `${m.iso_a3}_${d.level}${n > 1 ? `-${n}` : ''}`;
    const path = `stac/${m.body}/${m.iso_a3}/${id}.json`;
    const title = `${m.name.en} ${d.level}`;
    const downloads = dl?.datasets[i];
    const assets: [string, Asset][] = [];
    if (d.path)
      assets.push(['geojson', dataAsset(path, d.path, d.bytes, d.sha256, `${title}, GeoJSON`, ['data'])]);
    assets.push(...layerAssets(path, downloads?.whole, '', title));
    for (const [j, p] of (d.parts ?? []).entries()) {
      assets.push([
        `part-${p.code}`,
        dataAsset(path, p.path, p.bytes, p.sha256, `${title}, part ${p.code}, GeoJSON`, ['data']),
      ]);
      assets.push(...layerAssets(path, downloads?.parts[j], `part-${p.code}-`, `${title}, part ${p.code},`));
    }
    for (const s of downloads?.simplified ?? [])
      assets.push([
        `simplified-${s.tolerance_m}m`,
        asset(path, s, `${title}, simplified to ${s.tolerance_m} m`, ['data']),
      ]);
    if (d.preview)
      assets.push([
        'preview',
        dataAsset(path, d.preview, d.preview_bytes, undefined, `${title}, preview`, ['overview']),
      ]);
    const [w, s, e, n2] = d.bbox;
    const doc: Json = {
      type: 'Feature',
      stac_version: STAC_VERSION,
      stac_extensions: [FILE_EXT, TABLE_EXT, PROJ_EXT],
      id,
      collection: `${m.body}-${m.iso_a3}`,
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [w, s],
            [e, s],
            [e, n2],
            [w, n2],
            [w, s],
          ],
        ],
      },
      bbox: d.bbox,
      properties: {
        title,
        datetime: null,
        start_datetime: instant(m.source.retrieved),
        end_datetime: instant(m.source.retrieved),
        license: stacLicense(d.license),
        'proj:code': `${m.crs.authority}:${m.crs.code}`,
        'table:row_count': d.features,
        'table:columns': d.properties.map((name) => ({ name })),
        'table:primary_geometry': 'geometry',
      },
      links: [...upLinks(path, countryPath(m)), link(path, 'collection', countryPath(m), 'application/json')],
      assets: Object.fromEntries(assets),
    };
    return { path, id, title, doc };
  });
}
