// The formats cache's index (build/formats/formats-cache.ts), in process on
// the build fixture (CHL with three ADM2 parts, FJI, ANT: 7 conversions, 3
// country archives and 3 countries' simplified copies): a build with everything cached takes it all from the
// index; a cache is never a source of truth, so a cached file deleted by hand
// is converted again, and a lost, damaged or hostile index is rebuilt from
// each item's record, without a crash, a conversion or a path outside the cache.
// Everything is converted once, into a template root; each test starts from a
// copy of it (whose cache folders are new, so the copy's first build checks
// each item's record and writes the index again, converting nothing).
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { codeIdentity } from '../../build/core/cache.ts';
import { cacheDir } from '../../build/core/files.ts';
import { prepareDownloads, type Downloads } from '../../build/formats/downloads.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { fixtureCopy, sha256 } from '../build/helpers.ts';

// 7 conversions (CHL ADM0, ADM1, 3 ADM2 parts; FJI ADM0; ANT ADM0) + 3 archives + 3 countries' simplified copies
const ITEMS = 13;

const roots: string[] = [];
afterAll(() => roots.forEach((root) => rmSync(root, { recursive: true, force: true })));

let template: string;
beforeAll(async () => {
  template = fixtureCopy();
  roots.push(template);
  const first = await downloads(template);
  expect([first.converted, first.reused]).toEqual([ITEMS, 0]);
}, 120_000); // a bound for a hang only

/**
 * Returns a scratch copy of the build fixture whose downloads were prepared
 * (everything converted, in the template), and what its first build took:
 * every item from its record, since the copy's folders are not the ones the
 * template's index stamped.
 */
async function converted(): Promise<{ root: string; first: Downloads }> {
  const root = mkdtempSync(`${template}-copy-`);
  roots.push(root);
  cpSync(template, root, { recursive: true });
  const first = await downloads(root);
  expect([first.converted, first.reused]).toEqual([0, ITEMS]);
  return { root, first };
}

/** Prepares the downloads of `root` as a build does, in a fresh measurer (as a new process would). */
async function downloads(root: string): Promise<Downloads> {
  const measurer = new MeasurementCache();
  const { manifests, problems } = await validateManifests(root, {
    measurer,
    geometry: false,
    nesting: false,
  });
  expect(problems.filter((p) => p.severity === 'error')).toEqual([]);
  return prepareDownloads(root, manifests, measurer);
}

const formatsDir = (root: string) => join(cacheDir(root), 'formats', codeIdentity());
const indexFile = (root: string) => join(formatsDir(root), 'index.json');
type Index = {
  conversions: Record<string, { conversion: { layer: string } }>;
  archives: Record<string, unknown>;
  simplified: Record<string, { files: { file: string }[] }>;
};
const readIndex = (root: string) =>
  (JSON.parse(readFileSync(indexFile(root), 'utf8')) as { data: Index }).data;

/** What the downloads publish: dist path → built file and its sha256, and what the pages list. */
function published(d: Downloads): { files: Record<string, string>; listed: string } {
  const files = Object.fromEntries(
    [...d.files]
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([url, { from, sha256: recorded }]) => {
        const sha = sha256(readFileSync(from));
        expect(recorded, url).toBe(sha); // the sha256 the cache states is the file's
        return [url, sha];
      }),
  );
  return { files, listed: JSON.stringify([...d.byManifest]) };
}

describe('formats cache: everything cached → taken from its index', () => {
  it('a second build reuses all 13 items, even with their records unreadable, and does not write the index again', async () => {
    const { root, first } = await converted();
    const index = statSync(indexFile(root));
    expect(Object.keys(readIndex(root).conversions)).toHaveLength(7);
    expect(Object.keys(readIndex(root).archives)).toHaveLength(3);
    expect(Object.keys(readIndex(root).simplified)).toHaveLength(3);
    // Records rewritten in place (their folders unchanged): the index answers, they are not read.
    for (const key of readdirSync(formatsDir(root)).filter((k) => k.length >= 64))
      for (const layer of readdirSync(join(formatsDir(root), key)))
        writeFileSync(join(formatsDir(root), key, layer, 'conversion.json'), 'not JSON');
    for (const key of readdirSync(join(formatsDir(root), 'simplified')))
      writeFileSync(join(formatsDir(root), 'simplified', key, 'simplified.json'), 'not JSON');
    const again = await downloads(root);
    expect([again.converted, again.reused]).toEqual([0, ITEMS]);
    expect(published(again)).toEqual(published(first));
    const after = statSync(indexFile(root));
    expect([after.ino, after.mtimeMs]).toEqual([index.ino, index.mtimeMs]);
  });
});

describe('formats cache: a cache is never a source of truth', () => {
  it('a converted file deleted by hand → that level converted again, the same bytes published', async () => {
    const { root, first } = await converted();
    const gpkg = first.files.get('downloads/earth/CHL/CHL_ADM1.gpkg')!.from;
    rmSync(gpkg);
    const again = await downloads(root);
    expect([again.converted, again.reused]).toEqual([1, ITEMS - 1]);
    expect(existsSync(gpkg)).toBe(true);
    expect(published(again)).toEqual(published(first));
    // The index lists it again: a third build converts nothing.
    expect((await downloads(root)).converted).toBe(0);
  });

  it('a country archive deleted by hand → written again, the same bytes published', async () => {
    const { root, first } = await converted();
    rmSync(first.files.get('downloads/earth/FJI/FJI.zip')!.from);
    const again = await downloads(root);
    expect([again.converted, again.reused]).toEqual([1, ITEMS - 1]);
    expect(published(again)).toEqual(published(first));
  });

  it('a simplified copy deleted by hand → that country’s copies made again, the same bytes published', async () => {
    const { root, first } = await converted();
    rmSync(first.files.get('downloads/earth/CHL/CHL_ADM2.1km.geojson')!.from);
    const again = await downloads(root);
    expect([again.converted, again.reused]).toEqual([1, ITEMS - 1]);
    expect(published(again)).toEqual(published(first));
    expect((await downloads(root)).converted).toBe(0);
  });

  it('a conversion folder emptied and its record put back (its stamp changed) → converted again, no crash', async () => {
    const { root, first } = await converted();
    const dir = join(first.files.get('downloads/earth/ANT/ANT_ADM0.fgb')!.from, '..');
    const record = readFileSync(join(dir, 'conversion.json'));
    rmSync(dir, { recursive: true });
    mkdirSync(dir);
    writeFileSync(join(dir, 'conversion.json'), record);
    const again = await downloads(root);
    expect([again.converted, again.reused]).toEqual([1, ITEMS - 1]);
    expect(published(again)).toEqual(published(first));
  });

  it("a cached record without one of the formats (an older writer's, e.g. before GeoParquet) → converted again", async () => {
    const { root, first } = await converted();
    const dir = join(first.files.get('downloads/earth/ANT/ANT_ADM0.parquet')!.from, '..');
    const drop = (conversion: { files: { format: string }[] }) => ({
      ...conversion,
      files: conversion.files.filter((f) => f.format !== 'parquet'),
    });
    // Rewritten in place, as an older build left them: the folder's stamp holds.
    const record = JSON.parse(readFileSync(join(dir, 'conversion.json'), 'utf8'));
    writeFileSync(join(dir, 'conversion.json'), JSON.stringify(drop(record)));
    const index = JSON.parse(readFileSync(indexFile(root), 'utf8'));
    const id = Object.keys(index.data.conversions).find((k) => k.endsWith('/ANT_ADM0'))!;
    index.data.conversions[id].conversion = drop(index.data.conversions[id].conversion);
    writeFileSync(indexFile(root), JSON.stringify(index));
    const again = await downloads(root);
    expect([again.converted, again.reused]).toEqual([1, ITEMS - 1]);
    expect(published(again)).toEqual(published(first));
  });

  it('a cached file deleted by hand → the next build publishes it again in dist/, the same bytes', async () => {
    const root = fixtureCopy();
    roots.push(root);
    const out = join(root, 'dist');
    const build = async () => {
      const result = await buildCatalogue({ root, out });
      expect(result.ok).toBe(true);
      return sha256(readFileSync(join(out, 'downloads/earth/CHL/CHL_ADM1.shp.zip')));
    };
    const before = await build();
    const key = Object.keys(readIndex(root).conversions).find((id) => id.endsWith('/CHL_ADM1'))!;
    rmSync(join(formatsDir(root), key, 'CHL_ADM1.shp.zip'));
    rmSync(out, { recursive: true }); // not a no-op build
    expect(await build()).toBe(before);
    // dist/ hard-links the cached files (their ctime changes, their folders' do not): a third build
    // finds every item by the index, which it therefore leaves as it is.
    const index = statSync(indexFile(root));
    rmSync(out, { recursive: true });
    expect(await build()).toBe(before);
    const after = statSync(indexFile(root));
    expect([after.ino, after.mtimeMs]).toEqual([index.ino, index.mtimeMs]);
  });
});

describe('formats cache: a lost, damaged or hostile index → rebuilt from the records, nothing converted', () => {
  /** Each case turns the good index into a bad one. */
  const cases: [string, (good: string) => string | undefined][] = [
    ['absent', () => undefined],
    ['empty', () => ''],
    ['not JSON', (good) => good.slice(0, good.length / 2)],
    ['null', () => 'null'],
    ['of other code', (good) => good.replace(`{"stamp":"${codeIdentity()}"`, '{"stamp":"another"')],
    [
      'lists of the wrong type',
      () => `{"stamp":"${codeIdentity()}","data":{"conversions":[1,2],"archives":"x"}}`,
    ],
    ['entries of the wrong type', (good) => good.replace(/"conversion":\{/g, '"conversion":7,"x":{')],
    ['stamps of the wrong type', (good) => good.replace(/"stamp":\[/g, '"stamp":"[",",":[')],
    [
      'a file named outside its folder',
      (good) => good.replace(/"file":"CHL_ADM1\.gpkg"/, '"file":"../../../../../etc/passwd"'),
    ],
    [
      'an archive named outside its folder',
      (good) => good.replace(/"file":"FJI\.zip"/, '"file":"../FJI.zip"'),
    ],
    [
      'a simplified copy named outside its folder',
      (good) => good.replace(/"file":"CHL_ADM1\.1km\.geojson"/, '"file":"../../CHL_ADM1.1km.geojson"'),
    ],
    ['simplified copies of the wrong type', (good) => good.replace(/"files":\[/g, '"files":7,"x":[')],
    ['a record of another layer', (good) => good.replace(/"layer":"FJI_ADM0"/, '"layer":"CHL_ADM0"')],
    ['a sha256 that is not one', (good) => good.replace(/"sha256":"[0-9a-f]{64}"/, '"sha256":"<script>"')],
    ['negative bytes', (good) => good.replace(/"bytes":\d+/, '"bytes":-1')],
    ['warnings that are not a list', (good) => good.replace(/"warnings":\[\]/, '"warnings":{"length":3}')],
    [
      'a warning of an unknown rule',
      (good) =>
        good.replace(
          /"warnings":\[\]/,
          '"warnings":[{"format":"gpkg","rule":"toString","pointer":"","message":"x"}]',
        ),
    ],
    [
      'a __proto__ entry',
      (good) => good.replace('"conversions":{', '"conversions":{"__proto__":{"conversion":null},'),
    ],
  ];

  it.each(cases)(
    'index %s → every item reused, the same files published, the index whole again',
    async (_, spoil) => {
      const { root, first } = await converted();
      const good = readFileSync(indexFile(root), 'utf8');
      const bad = spoil(good);
      if (bad === undefined) rmSync(indexFile(root));
      else writeFileSync(indexFile(root), bad);
      const again = await downloads(root);
      expect([again.converted, again.reused]).toEqual([0, ITEMS]);
      expect(published(again)).toEqual(published(first));
      for (const { from } of again.files.values())
        expect(from.startsWith(`${formatsDir(root)}/`), from).toBe(true);
      const rebuilt = readIndex(root);
      expect(Object.keys(rebuilt.conversions)).toHaveLength(7);
      expect(Object.keys(rebuilt.archives)).toHaveLength(3);
      expect(Object.keys(rebuilt.simplified)).toHaveLength(3);
    },
  );

  it('index.json is a folder → every item reused from its record, no crash, the folder left alone', async () => {
    const { root, first } = await converted();
    rmSync(indexFile(root));
    mkdirSync(indexFile(root));
    for (let run = 0; run < 2; run++) {
      const again = await downloads(root);
      expect([again.converted, again.reused]).toEqual([0, ITEMS]);
      expect(published(again)).toEqual(published(first));
    }
    expect(statSync(indexFile(root)).isDirectory()).toBe(true);
  });
});

describe('formats cache: what no manifest uses is removed', () => {
  it('a country removed → its conversions, archive and simplified copies leave the cache and the index', async () => {
    const { root } = await converted();
    const folders = () =>
      readdirSync(formatsDir(root)).filter((k) => !['country', 'simplified', 'index.json'].includes(k));
    expect(folders()).toHaveLength(7);
    rmSync(join(root, 'data/earth/FJI'), { recursive: true });
    const again = await downloads(root);
    expect([again.converted, again.reused]).toEqual([0, ITEMS - 3]);
    expect(folders()).toHaveLength(6);
    expect(readdirSync(join(formatsDir(root), 'country'))).toHaveLength(2);
    expect(readdirSync(join(formatsDir(root), 'simplified'))).toHaveLength(2);
    expect(Object.keys(readIndex(root).simplified)).toHaveLength(2);
    const index = readIndex(root);
    expect(
      Object.values(index.conversions)
        .map((e) => e.conversion.layer)
        .sort(),
    ).toEqual([
      'ANT_ADM0',
      'CHL_ADM0',
      'CHL_ADM1',
      'CHL_ADM2_CL-AN',
      'CHL_ADM2_CL-RM',
      'CHL_ADM2_unassigned',
    ]);
    expect(
      Object.keys(index.archives)
        .map((id) => id.split('/')[1])
        .sort(),
    ).toEqual(['ANT.zip', 'CHL.zip']);
    for (const id of [...Object.keys(index.conversions), ...Object.keys(index.archives)])
      expect(existsSync(join(formatsDir(root), id.endsWith('.zip') ? 'country' : '', id)), id).toBe(true);
  });
});
