// A country's downloads folder as a Frictionless Data Package
// (build/site/datapackage.ts): its datapackage.json validates against the
// official Data Package 2.0 profile (test/fixtures/stac/datapackage-v2.0.json,
// see test/fixtures/stac/SOURCE.md: no network at test
// time), lists every file of the folder with its true bytes and sha256, and
// the folder holds each level's full-detail GeoJSON as the same bytes (one
// inode) as the published data file; SHA256SUMS names the same files.
import { readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { fixtureCopy, sha256 } from './helpers.ts';

const PROFILE = new URL('../fixtures/stac/datapackage-v2.0.json', import.meta.url).pathname;

interface Resource {
  name: string;
  path: string;
  bytes: number;
  hash: string;
  format: string;
}

let root: string;
let out: string;
beforeAll(async () => {
  root = fixtureCopy();
  out = join(root, 'dist');
  expect((await buildCatalogue({ root, out })).ok).toBe(true);
}, 120_000); // a bound for a hang only
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Each country's folder (downloads/earth/world/ holds the world files, no Data Package).
const folders = () =>
  readdirSync(join(out, 'downloads/earth'))
    .filter((name) => name !== 'world')
    .map((iso) => join(out, 'downloads/earth', iso));

describe('Data Package per country', () => {
  it('validates against the Data Package 2.0 profile, and a broken one does not', () => {
    const check = new Ajv({ strict: false, allErrors: true }).compile(
      JSON.parse(readFileSync(PROFILE, 'utf8')),
    );
    expect(folders().length).toBeGreaterThanOrEqual(3);
    for (const folder of folders()) {
      const doc = JSON.parse(readFileSync(join(folder, 'datapackage.json'), 'utf8')) as {
        resources: Resource[];
      };
      expect(check(doc) ? [] : check.errors, folder).toEqual([]);
      const broken = { ...doc, resources: [{ ...doc.resources[0]!, path: '../../../data/x.geojson' }] };
      expect(check(broken), `${folder}: a path leaving the folder`).toBe(false);
    }
  });

  it('lists every file of the folder with its bytes and sha256, as SHA256SUMS does', () => {
    for (const folder of folders()) {
      const doc = JSON.parse(readFileSync(join(folder, 'datapackage.json'), 'utf8')) as {
        resources: Resource[];
      };
      const files = readdirSync(folder).filter((f) => f !== 'datapackage.json' && f !== 'SHA256SUMS');
      expect(doc.resources.map((r) => r.path).sort()).toEqual(files.sort());
      const sums: string[] = [];
      for (const r of doc.resources) {
        const bytes = readFileSync(join(folder, r.path));
        expect(r.bytes, r.path).toBe(bytes.length);
        expect(r.hash, r.path).toBe(`sha256:${sha256(bytes)}`);
        sums.push(`${sha256(bytes)}  ${r.path}`);
      }
      expect(readFileSync(join(folder, 'SHA256SUMS'), 'utf8').trimEnd().split('\n').sort()).toEqual(
        sums.sort(),
      );
    }
  });

  it("holds each level's and part's full-detail GeoJSON as the published data file's bytes, one file in dist/", () => {
    const chile = join(out, 'downloads/earth/CHL');
    for (const level of ['ADM0', 'ADM1']) {
      const copy = join(chile, `CHL_${level}.geojson`);
      const data = join(out, `data/earth/CHL/CHL_${level}.geojson`);
      expect(statSync(copy).ino).toBe(statSync(data).ino);
    }
    const parts = readdirSync(join(out, 'downloads/earth')).flatMap((iso) =>
      readdirSync(join(out, 'downloads/earth', iso)).filter(
        (f) => /_ADM\d_.+\.geojson$/.test(f) && !/\.\d+k?m\.geojson$/.test(f),
      ),
    );
    expect(parts.length).toBeGreaterThan(0); // the fixture's split level
  });
});
