// Nothing outside a root's data/ folder is ever read as data or published
// (build/core/data-root.ts): links that leave data/ are problems at the
// pointer that names them; links that stay inside are followed.
import {
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from 'node:fs';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildCatalogue } from '../../build/build.ts';
import { UserError } from '../../build/core/errors.ts';
import { readLevelFeatures } from '../../build/geojson/level-features.ts';
import { validateManifests } from '../../build/manifest/validate.ts';
import { updateManifests } from '../../build/manifest/update-all.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { filesUnder } from '../build/helpers.ts';
import { FIXTURES, tempCopy } from '../manifests/helpers.ts';

const CHL = 'data/earth/CHL';
const MANIFEST = `${CHL}/manifest.json`;
// Stands in for a CI checkout's .git/config or a system file: small, valid-looking, secret.
const SECRET_TEXT = '{"type":"FeatureCollection","features":[],"token":"ghp_secret"}';

/** Returns a copy of the valid fixture tree and a secret file outside its data/. */
function setup(): { root: string; secret: string } {
  const root = tempCopy(join(FIXTURES, 'true'));
  const secret = join(root, 'secret.geojson'); // inside the root, but outside data/
  writeFileSync(secret, SECRET_TEXT);
  return { root, secret };
}

/** Replaces the file `rel` (under root) with a symbolic link to `target`. */
function linkInstead(root: string, rel: string, target: string): void {
  unlinkSync(join(root, rel));
  symlinkSync(target, join(root, rel));
}

const validate = (root: string) => validateManifests(root, { measurer: new MeasurementCache() });

describe('links that leave data/ are refused', () => {
  for (const [what, rel, pointer] of [
    ['a preview', `${CHL}/preview/CHL_ADM0.preview.geojson`, '/datasets/0/preview'],
    ['a level file', `${CHL}/CHL_ADM1.geojson`, '/datasets/1/path'],
    ['a part file', `${CHL}/ADM2/CL-AP.geojson`, '/datasets/2/parts/0/path'],
  ] as const) {
    it(`${what} linked outside data/ → link-outside at ${pointer}; manifest keeps its numbers; build writes nothing`, async () => {
      const { root, secret } = setup();
      linkInstead(root, rel, secret);
      const { problems } = await validate(root);
      expect(problems).toEqual([
        expect.objectContaining({ file: MANIFEST, pointer, rule: 'link-outside', severity: 'error' }),
      ]);
      expect(problems[0]!.message).toBe(
        `file ${rel} leads outside data/ through a symbolic link (to secret.geojson); it is never read or published`,
      );

      const before = readFileSync(join(root, MANIFEST), 'utf8');
      const run = await updateManifests(root, [], { noCache: true });
      expect(run.problems.map((p) => [p.pointer, p.rule])).toEqual([[pointer, 'link-outside']]);
      expect(readFileSync(join(root, MANIFEST), 'utf8')).toBe(before);

      const out = join(root, 'dist');
      const result = await buildCatalogue({ root, out });
      expect(result.ok).toBe(false);
      expect(existsSync(out)).toBe(false);
    });
  }

  it('a country folder that is a link to outside data/ → link-outside on its manifest', async () => {
    const { root } = setup();
    const elsewhere = join(tmpdir(), `geoshelf-elsewhere-${process.pid}-${Date.now()}`);
    renameSync(join(root, CHL), elsewhere);
    symlinkSync(elsewhere, join(root, CHL));
    const { problems } = await validate(root);
    expect(problems.filter((p) => p.file === MANIFEST)).toEqual([
      {
        file: MANIFEST,
        pointer: '',
        rule: 'link-outside',
        severity: 'error',
        message: `file ${MANIFEST} leads outside data/ through a symbolic link (to ${elsewhere}/manifest.json); it is never read or published`,
        paths: [MANIFEST], // named from the current folder under --root
      },
    ]);
  });

  it('a link that stays inside data/ is followed: validated as its target, published as a copy', async () => {
    const { root } = setup();
    const rel = `${CHL}/preview/CHL_ADM0.preview.geojson`;
    const copy = `${CHL}/preview/shared.geojson`;
    renameSync(join(root, rel), join(root, copy));
    symlinkSync('shared.geojson', join(root, rel)); // relative link, inside data/
    expect((await validate(root)).problems).toEqual([]);
    const out = join(root, 'dist');
    const result = await buildCatalogue({ root, out });
    expect(result.ok).toBe(true);
    expect(readFileSync(join(out, rel))).toEqual(readFileSync(join(root, copy)));
    expect(filesUnder(out)).toContain(rel); // a regular file (filesUnder lists files only)
  });

  it('the secret never reaches dist/ by any path', async () => {
    const { root, secret } = setup();
    linkInstead(root, `${CHL}/preview/CHL_ADM1.preview.geojson`, secret);
    await buildCatalogue({ root, out: join(root, 'dist') }).catch(() => undefined);
    const out = join(root, 'dist');
    const published = existsSync(out) ? filesUnder(out).map((f) => readFileSync(join(out, f), 'utf8')) : [];
    expect(published.some((text) => text.includes('ghp_secret'))).toBe(false);
  });
});

describe('manifests that are not text a manifest can be', () => {
  it('a manifest that is not UTF-8 → utf8 problem with its byte offset (never rewritten)', async () => {
    const { root } = setup();
    const path = join(root, MANIFEST);
    const bytes = readFileSync(path);
    const at = bytes.indexOf('"Chile"') + 3;
    bytes[at] = 0xff;
    writeFileSync(path, bytes);
    const { problems } = await validate(root);
    expect(problems).toEqual([
      {
        file: MANIFEST,
        pointer: '',
        rule: 'utf8',
        severity: 'error',
        message: `byte ${at}: not UTF-8: a manifest must be UTF-8 text`,
      },
    ]);
    const run = await updateManifests(root, [], { noCache: true });
    expect(run.problems.map((p) => p.rule)).toEqual(['utf8']);
    expect(readFileSync(path)).toEqual(bytes);
  });

  it('a data file that is not UTF-8 → geojson problem at its pointer', async () => {
    const { root } = setup();
    const rel = `${CHL}/CHL_ADM1.geojson`;
    const bytes = readFileSync(join(root, rel));
    const at = bytes.indexOf('"shapeName"') + 2;
    bytes[at] = 0xc0; // an overlong lead byte: never valid
    writeFileSync(join(root, rel), bytes);
    const { problems } = await validate(root);
    expect(problems).toEqual([
      expect.objectContaining({
        pointer: '/datasets/1/path',
        rule: 'geojson',
        message: `file ${rel} is not valid GeoJSON: byte ${at}: not UTF-8: a GeoJSON file must be UTF-8 text (RFC 8259)`,
      }),
    ]);
  });

  it('a manifest nested thousands of levels deep → one json problem, no stack', async () => {
    const { root } = setup();
    const depth = 100_000;
    writeFileSync(join(root, MANIFEST), `{"datasets":${'['.repeat(depth)}${']'.repeat(depth)}}`);
    const { problems } = await validate(root);
    expect(problems).toEqual([
      {
        file: MANIFEST,
        pointer: '',
        rule: 'json',
        severity: 'error',
        message: 'nested more than 32 levels deep at line 1, column 44; a manifest is at most 4',
      },
    ]);
  });

  it('a manifest of hundreds of MB → too-large, without reading it', async () => {
    const { root } = setup();
    const path = join(root, MANIFEST);
    writeFileSync(path, '');
    // A sparse file: 300 MB on paper, no disk used, and never read.
    const { truncateSync } = await import('node:fs');
    truncateSync(path, 300_000_000);
    const { problems } = await validate(root);
    expect(problems).toEqual([
      expect.objectContaining({
        file: MANIFEST,
        rule: 'too-large',
        message: 'is 300000000 bytes; a manifest may have at most 67108864 (64 MiB)',
      }),
    ]);
  });
});

describe('levels read whole by preview and split', () => {
  it("a level past V8's string limit is read feature by feature: a malformed one says where, without reading on", async () => {
    const { root } = setup();
    const rel = `${CHL}/CHL_ADM1.geojson`;
    const { truncateSync } = await import('node:fs');
    truncateSync(join(root, rel), 600_000_000); // the level, then sparse zeros: the reader stops at the first
    const error = await readLevelFeatures(root, rel).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).message).toMatch(
      new RegExp(`^${rel}: byte \\d+: unexpected byte 0x00 after the FeatureCollection$`),
    );
  });

  it('readLevelFeatures refuses a link that leaves data/', async () => {
    const { root, secret } = setup();
    linkInstead(root, `${CHL}/CHL_ADM1.geojson`, secret);
    await expect(readLevelFeatures(root, `${CHL}/CHL_ADM1.geojson`)).rejects.toThrow(/leads outside data/);
  });
});

it('fixture tree sanity: the valid tree validates clean', async () => {
  const { root } = setup();
  mkdirSync(join(root, 'data', '.hidden'), { recursive: true });
  expect((await validate(root)).problems).toEqual([]);
  expect(readdirSync(join(root, 'data'))).toContain('.hidden');
});
