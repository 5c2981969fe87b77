// The build's STAC catalogue (build/site/stac.ts), checked as a crawler
// would use it: every document validates against the official STAC 1.1
// JSON Schemas and those of the extensions it names (kept in
// test/fixtures/stac/, see test/fixtures/stac/SOURCE.md: there is no network at test time),
// every link and asset resolves to a file the build wrote, every
// file:checksum and file:size is that file's, table:row_count is the
// GeoJSON's feature count, and walking from the root reaches every dataset
// of every manifest.
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { filesUnder, fixtureCopy, sha256 } from './helpers.ts';

const SCHEMAS = new URL('../fixtures/stac/', import.meta.url).pathname;
const ORIGIN = 'https://example.org/'; // where links are resolved: any origin would do

type Doc = {
  type: string;
  stac_extensions?: string[];
  links: { rel: string; href: string }[];
  assets?: Record<string, { href: string; 'file:size'?: number; 'file:checksum'?: string }>;
  properties?: Record<string, unknown>;
  collection?: string;
  id: string;
};

/** Returns an Ajv holding every vendored schema, by its $id. */
function validator(): Ajv {
  const ajv = new Ajv({ strict: false, allErrors: true });
  addFormats.default(ajv);
  // STAC's own formats, which ajv-formats lacks: an IRI is an absolute URL, a reference any URL reference.
  ajv.addFormat('iri', (s: string) => URL.canParse(s));
  ajv.addFormat('iri-reference', (s: string) => URL.canParse(s, 'https://example.org/'));
  for (const dir of ['v1.1.0', 'geojson', 'extensions']) {
    for (const name of readdirSync(join(SCHEMAS, dir))) {
      const schema = JSON.parse(readFileSync(join(SCHEMAS, dir, name), 'utf8')) as { $id: string };
      // STAC 1.1.0's common.json names itself ".../commonjson" (sic); the others refer to "common.json".
      if (name === 'common.json') schema.$id = schema.$id.replace(/commonjson$/, 'common.json');
      ajv.addSchema(schema);
    }
  }
  return ajv;
}

const SPEC = 'https://schemas.stacspec.org/v1.1.0';
const CORE: Record<string, string> = {
  Catalog: `${SPEC}/catalog-spec/json-schema/catalog.json`,
  Collection: `${SPEC}/collection-spec/json-schema/collection.json`,
  Feature: `${SPEC}/item-spec/json-schema/item.json`,
};

let root: string;
let out: string;
let ajv: Ajv;
beforeAll(async () => {
  root = fixtureCopy();
  out = join(root, 'dist');
  expect((await buildCatalogue({ root, out, base: '/geo/' })).ok).toBe(true);
  ajv = validator();
}, 120_000); // a bound for a hang only
afterAll(() => rmSync(root, { recursive: true, force: true }));

const read = (path: string) => JSON.parse(readFileSync(join(out, path), 'utf8')) as Doc;

/** Returns the dist path a relative link of the document at `from` leads to. */
function target(from: string, href: string): string {
  expect(href, `${from}: ${href}`).not.toMatch(/^(?:[a-z]+:|\/)/); // relative: the same bytes under any base
  const url = new URL(href, `${ORIGIN}${from}`);
  expect(url.origin, `${from}: ${href}`).toBe(ORIGIN.slice(0, -1));
  const path = decodeURIComponent(url.pathname.slice(1));
  return path.endsWith('/') ? `${path}index.html` : path;
}

describe('STAC catalogue', () => {
  it('every document validates against the STAC 1.1 schemas and those of its extensions', () => {
    const docs = filesUnder(join(out, 'stac'));
    expect(docs.length).toBeGreaterThan(5);
    for (const file of docs) {
      const doc = read(`stac/${file}`);
      for (const id of [CORE[doc.type]!, ...(doc.stac_extensions ?? [])]) {
        const check = ajv.getSchema(id) ?? ajv.getSchema(`${id}#`);
        expect(check, `${file}: no schema ${id}`).toBeDefined();
        (check as ValidateFunction)(doc);
        expect((check as ValidateFunction).errors ?? [], `${file} against ${id}`).toEqual([]);
      }
    }
  });

  it('a document the schemas refuse is refused (the check can fail)', () => {
    const item = read('stac/earth/CHL/CHL_ADM1.json');
    const broken = { ...item, assets: { geojson: { ...item.assets!.geojson!, 'file:checksum': 'sha256' } } };
    const file = ajv.getSchema(`${'https://stac-extensions.github.io/file/v2.1.0/schema.json'}#`)!;
    expect(file(broken)).toBe(false);
    const core = ajv.getSchema(CORE.Feature!)!;
    expect(core({ ...item, properties: { ...item.properties, datetime: undefined } })).toBe(false);
  });

  it('every link and asset leads to a file the build wrote, and each checksum and size is that file’s', () => {
    const written = new Set(filesUnder(out));
    let assets = 0;
    for (const file of filesUnder(join(out, 'stac'))) {
      const from = `stac/${file}`;
      const doc = read(from);
      for (const l of doc.links)
        expect(written.has(target(from, l.href)), `${from}: ${l.rel} ${l.href}`).toBe(true);
      for (const [key, a] of Object.entries(doc.assets ?? {})) {
        const path = target(from, a.href);
        expect(written.has(path), `${from}: asset ${key} ${a.href}`).toBe(true);
        const bytes = readFileSync(join(out, path));
        expect(a['file:size'], `${from}: ${key}`).toBe(bytes.length);
        if (key !== 'preview') expect(a['file:checksum'], `${from}: ${key}`).toBe(`1220${sha256(bytes)}`);
        assets++;
      }
    }
    expect(assets).toBeGreaterThan(20);
  });

  it('from the root a crawler reaches one item per dataset of every manifest, with its rows, columns and CRS', () => {
    const seen = new Map<string, Doc>();
    const walk = (path: string) => {
      const doc = read(path);
      seen.set(path, doc);
      for (const l of doc.links) if (l.rel === 'child' || l.rel === 'item') walk(target(path, l.href));
    };
    walk('stac/catalog.json');
    const items = [...seen.values()].filter((d) => d.type === 'Feature');
    const manifests = filesUnder(join(root, 'data'))
      .filter((f) => f.endsWith('manifest.json'))
      .map((f) => JSON.parse(readFileSync(join(root, 'data', f), 'utf8')) as Manifest);
    expect(items.map((i) => i.id).sort()).toEqual(
      manifests.flatMap((m) => m.datasets.map((d) => `${m.iso_a3}_${d.level}`)).sort(),
    );
    for (const m of manifests) {
      for (const d of m.datasets) {
        const item = items.find((i) => i.id === `${m.iso_a3}_${d.level}`)!;
        expect(item.collection).toBe(`${m.body}-${m.iso_a3}`);
        expect(item.properties!['table:row_count']).toBe(d.features);
        expect(item.properties!['table:columns']).toEqual(d.properties.map((name) => ({ name })));
        expect(item.properties!['proj:code']).toBe(`${m.crs.authority}:${m.crs.code}`);
        if (d.path) {
          const geojson = JSON.parse(readFileSync(join(out, d.path), 'utf8')) as { features: unknown[] };
          expect(geojson.features.length).toBe(d.features);
        }
      }
    }
  });
});
