// The schema's validators run as ajv's standalone code, cached by the schema's
// sha256: they must judge every manifest as ajv's own compiled schema does
// (same verdict, same errors), and never run from a stale cache.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSchemaValidators } from '../../build/manifest/schema-code.ts';
import { SCHEMA_PATH } from '../../build/manifest/schema.ts';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ??
  addFormatsModule) as typeof addFormatsModule;

const FIXTURES = new URL('../fixtures/manifests/', import.meta.url);

/** Every manifest of the fixtures, parsed (those that are JSON at all), with changes that break each rule. */
function manifests(): unknown[] {
  const found = readdirSync(FIXTURES, { recursive: true, encoding: 'utf8' })
    .filter((path) => path.endsWith('manifest.json'))
    .flatMap((path) => {
      try {
        return [JSON.parse(readFileSync(new URL(path, FIXTURES), 'utf8')) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
  const base = found[0]!;
  const broken = [
    { ...base, iso_a3: 'chl' },
    { ...base, schema_version: 2, extra: true },
    { ...base, datasets: 'none' },
    { ...base, source: { ...(base.source as object), url: 'not a uri' } },
    { ...base, source: { ...(base.source as object), license: 'mixed' } },
    {},
    null,
    [],
  ];
  return [...found, ...broken];
}

describe('compiled manifest schema', () => {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-schema-code-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('the cached code gives the verdict and the errors of ajv compiling the schema itself', () => {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strictTypes: false });
    addFormats(ajv);
    const reference = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);
    const made = loadSchemaValidators(SCHEMA_PATH, join(dir, 'cache'));
    const cached = loadSchemaValidators(SCHEMA_PATH, join(dir, 'cache'));
    expect(readdirSync(join(dir, 'cache'))).toHaveLength(1);
    for (const manifest of manifests()) {
      const expected = reference(manifest);
      const errors = JSON.parse(JSON.stringify(reference.errors ?? null)) as unknown;
      for (const validators of [made, cached]) {
        expect(validators.manifest(manifest)).toBe(expected);
        expect(JSON.parse(JSON.stringify(validators.manifest.errors ?? null))).toEqual(errors);
      }
    }
  });

  it('a changed schema is compiled again, not taken from the cache', () => {
    const schema = (maximum: number) => ({
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      $id: 'urn:geoshelf:test',
      type: 'object',
      properties: { body: { type: 'integer', maximum }, iso_a3: {} },
      $defs: { source: {}, dataset: {} },
    });
    const path = join(dir, 'schema.json');
    const url = pathToFileURL(path);
    writeFileSync(path, JSON.stringify(schema(1)));
    expect(loadSchemaValidators(url, join(dir, 'cache')).manifest({ body: 2 })).toBe(false);
    writeFileSync(path, JSON.stringify(schema(3)));
    expect(loadSchemaValidators(url, join(dir, 'cache')).manifest({ body: 2 })).toBe(true);
  });

  it('a damaged cached file is made again', () => {
    const cache = join(dir, 'damaged');
    loadSchemaValidators(SCHEMA_PATH, cache);
    const [name] = readdirSync(cache);
    writeFileSync(join(cache, name!), 'module.exports = { manifest: (');
    expect(loadSchemaValidators(SCHEMA_PATH, cache).isoA3('CHL')).toBe(true);
    expect(readFileSync(join(cache, name!), 'utf8')).toContain('exports.manifest');
  });

  it('a cache folder that cannot be written still gives working validators', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, '');
    const validators = loadSchemaValidators(SCHEMA_PATH, join(file, 'cache'));
    expect(validators.manifest({})).toBe(false);
    expect(validators.isoA3('CHL')).toBe(true);
    expect(validators.isoA3('chl')).toBe(false);
  });
});
