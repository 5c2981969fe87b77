// Each unit's own GeoJSON and facts (build/site/unit-files.ts): the file is
// the unit's feature exactly as its source writes it, alone in a valid
// FeatureCollection that GDAL reads as one feature, written into dist/ from
// the source's bytes (no copy in the cache) and refused when the source
// changed since; the facts are made once per source content and body, and
// read back from the cache after.
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  writeFileSync,
  mkdirSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { attachFacts, sourceFacts, unitFilePath } from '../../build/site/unit-files.ts';
import type { Unit } from '../../build/site/units.ts';
import { writeDist, type BuiltFile } from '../../build/output/write-dist.ts';
import { UserError } from '../../build/core/errors.ts';

const root = mkdtempSync(join(tmpdir(), 'geoshelf-unit-files-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

// Written as a publisher might: spaces, "1.50", escapes, key order of its own.
const FEATURES = [
  '{ "properties": {"shapeName": "Norte", "pop": 1.50, "note": "caf\\u00e9"},\n  "type": "Feature",\n  "geometry": {"type": "Polygon", "coordinates": [[[0,0],[1,0],[1,1],[0,1],[0,0]]]} }',
  '{"type":"Feature","properties":{"shapeName":"Sur"},"geometry":{"type":"MultiPolygon","coordinates":[[[[0,-1],[1,-1],[1,0],[0,0],[0,-1]]],[[[179.5,-1],[180,-1],[180,0],[179.5,0],[179.5,-1]]]]}}',
];
const TEXT = `{"type":"FeatureCollection","features":[\n${FEATURES.join(',\n')}\n]}\n`;
const PATH = 'data/earth/XTA/XTA_ADM1.geojson';
mkdirSync(join(root, 'data/earth/XTA'), { recursive: true });
writeFileSync(join(root, PATH), TEXT);
const SHA = createHash('sha256').update(TEXT).digest('hex');

describe("each unit's own file and facts", () => {
  it('a unit file is its feature byte for byte, in a FeatureCollection GDAL reads as one feature', async () => {
    const facts = (await sourceFacts(root, [{ path: PATH, sha256: SHA, body: 'earth' }])).get(PATH)!;
    const out = join(root, 'dist-bytes');
    await writeDist(
      root,
      out,
      { generated: new Map(), data: new Map(), built: unitsBuilt(facts) },
      emptyCache(),
    );
    for (const i of [0, 1]) {
      const file = join(out, `api/v1/earth/XTA/units/ADM1/U${i}.geojson`);
      const text = readFileSync(file, 'utf8');
      expect(text).toBe(`{"type":"FeatureCollection","features":[${FEATURES[i]}]}\n`);
      expect(facts.features[i]!.sha256).toBe(createHash('sha256').update(text).digest('hex'));
      expect(facts.features[i]!.bytes).toBe(Buffer.byteLength(text));
      const info = execFileSync('ogrinfo', ['-ro', '-al', '-so', file], {
        encoding: 'utf8',
        timeout: 30_000,
      });
      expect(info).toMatch(/Feature Count: 1\n/);
    }
    expect(facts.features).toHaveLength(2);
  });

  it('a source changed since its facts were made → its units are not written: one file-changed line naming it', async () => {
    const other = mkdtempSync(join(tmpdir(), 'geoshelf-unit-files-changed-'));
    try {
      mkdirSync(join(other, 'data/earth/XTA'), { recursive: true });
      writeFileSync(join(other, PATH), TEXT);
      const facts = (await sourceFacts(other, [{ path: PATH, sha256: SHA, body: 'earth' }])).get(PATH)!;
      writeFileSync(join(other, PATH), TEXT.replace('Norte', 'North')); // the same length
      const out = join(other, 'dist');
      const writing = writeDist(
        other,
        out,
        { generated: new Map(), data: new Map(), built: unitsBuilt(facts) },
        emptyCache(),
      );
      await expect(writing).rejects.toThrow(UserError);
      await expect(writing).rejects.toMatchObject({
        problems: [expect.objectContaining({ file: PATH, rule: 'file-changed' })],
      });
      expect(existsSync(out)).toBe(false);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('its facts: the area in km² (holes subtract, parts add) and a label point inside its largest polygon', async () => {
    const facts = (await sourceFacts(root, [{ path: PATH, sha256: SHA, body: 'earth' }])).get(PATH)!;
    const [norte, sur] = facts.features;
    expect(norte!.area_km2).toBeCloseTo(12308.8, 0); // a 1° box at the equator on WGS 84
    expect(sur!.area_km2).toBeCloseTo(1.5 * 12308.8, -1);
    expect(norte!.label![0]).toBeGreaterThan(0.4);
    expect(norte!.label![0]).toBeLessThan(0.6);
    expect(sur!.label![0]).toBeGreaterThan(0); // on the larger part, not the sliver at 180°
    expect(sur!.label![0]).toBeLessThan(1);
  });

  it('made once per content and body: read back from the cache, another body measured anew', async () => {
    const cached = join(root, `.cache/geoshelf/units/${SHA}.earth.json`);
    const first = (await sourceFacts(root, [{ path: PATH, sha256: SHA, body: 'earth' }])).get(PATH)!;
    const made = statSync(cached).mtimeMs;
    const again = (await sourceFacts(root, [{ path: PATH, sha256: SHA, body: 'earth' }])).get(PATH)!;
    expect(statSync(cached).mtimeMs).toBe(made);
    expect(again.features).toEqual(first.features);
    const moon = (await sourceFacts(root, [{ path: PATH, sha256: SHA, body: 'moon' }])).get(PATH)!;
    const ratio = moon.features[0]!.area_km2 / first.features[0]!.area_km2;
    expect(ratio).toBeCloseTo((1_737_400 / 6_371_007.181) ** 2, 2);
  });

  it('the cache holds one facts file per source and body, no unit files; what no source uses is removed', async () => {
    const top = join(root, '.cache/geoshelf/units');
    mkdirSync(join(top, `${'0'.repeat(64)}.earth`), { recursive: true }); // the earlier layout: a folder of unit files
    writeFileSync(join(top, `${'0'.repeat(64)}.earth/0.geojson`), '{}');
    await sourceFacts(root, [{ path: PATH, sha256: SHA, body: 'earth' }]);
    expect(readdirSync(top)).toEqual([`${SHA}.earth.json`]);
  });

  it('units are published at api/v1/{body}/{ISO3}/units/{LEVEL}/[{part}/]{id}.geojson', async () => {
    const facts = (await sourceFacts(root, [{ path: PATH, sha256: SHA, body: 'earth' }])).get(PATH)!;
    const unit = (id: string, feature: number, part?: string) => ({ id, feature, part }) as Unit;
    const units = [unit('XT-N', 0), unit('XT-S', 1, 'XT-SUR'), unit('XT-X', 2)]; // no feature 2: no facts
    const built = new Map<string, BuiltFile>();
    attachFacts({ body: 'earth', iso_a3: 'XTA' }, 'ADM1', units, facts, built);
    expect([...built.keys()]).toEqual([
      'api/v1/earth/XTA/units/ADM1/XT-N.geojson',
      'api/v1/earth/XTA/units/ADM1/XT-SUR/XT-S.geojson',
    ]);
    expect(units.map((u) => u.geojson)).toEqual([...built.keys(), undefined]);
    expect(unitFilePath({ body: 'earth', iso_a3: 'XTA' }, 'ADM1', units[0]!)).toBe(units[0]!.geojson);
    expect(units[0]!.area_km2).toBe(facts.features[0]!.area_km2);
  });
});

/** The built files of the two features of PATH as units U0 and U1 of ADM1. */
function unitsBuilt(facts: Parameters<typeof attachFacts>[3]): Map<string, BuiltFile> {
  const built = new Map<string, BuiltFile>();
  const units = [0, 1].map((feature) => ({ id: `U${feature}`, feature }) as Unit);
  attachFacts({ body: 'earth', iso_a3: 'XTA' }, 'ADM1', units, facts, built);
  return built;
}

/** A build cache that knows no earlier build. */
function emptyCache(): Parameters<typeof writeDist>[3] {
  return { files: {}, sources: {}, links: {} };
}
