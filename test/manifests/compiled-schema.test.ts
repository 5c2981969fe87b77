// The schema's validators run as the code ajv generated at compile time
// (lib/manifest-validator.cjs): they must judge every manifest as ajv's own
// in-memory compile of the schema does, with the same verdict and errors.
import { readFileSync, readdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import { LIB_DIR } from '../../build/core/compiled.ts';
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
  const compiled = createRequire(import.meta.url)(join(LIB_DIR, 'manifest-validator.cjs')) as Record<
    'manifest' | 'body' | 'isoA3' | 'source' | 'dataset',
    ValidateFunction
  >;

  it('the compiled code gives the verdict and the errors of ajv compiling the schema itself', () => {
    const ajv = new Ajv2020({ allErrors: true, verbose: true, strictTypes: false });
    addFormats(ajv);
    const reference = ajv.compile(JSON.parse(readFileSync(SCHEMA_PATH, 'utf8')) as object);
    for (const manifest of manifests()) {
      const expected = reference(manifest);
      expect(compiled.manifest(manifest)).toBe(expected);
      expect(JSON.parse(JSON.stringify(compiled.manifest.errors ?? null))).toEqual(
        JSON.parse(JSON.stringify(reference.errors ?? null)),
      );
    }
  });

  it('the validators of pieces judge them as the schema does', () => {
    expect(compiled.isoA3('CHL')).toBe(true);
    expect(compiled.isoA3('chl')).toBe(false);
    expect(compiled.body('moon')).toBe(true);
    expect(compiled.body('venus')).toBe(false);
  });
});
