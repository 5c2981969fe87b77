// The manifest schema's validators as code: ajv's standalone output, made
// once and kept in the tool cache (build/core/tool-cache.ts) under the sha256
// of the schema, ajv's and ajv-formats' versions and the options. Loading ajv
// and compiling the schema took 120-140 ms of every command that reads
// manifests (most of `validate`'s start-up); the cached code loads in about
// 5 ms. ajv itself is loaded only to make the code, so there is one way a
// manifest is checked: the generated code, fresh or cached.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ValidateFunction } from 'ajv';
import { writeFileAtomicSync } from '../core/atomic-write.ts';
import { toolCacheDir } from '../core/tool-cache.ts';

/** The schema's validators: the whole manifest, and pieces of one that failed as a whole. */
export interface SchemaValidators {
  manifest: ValidateFunction;
  body: ValidateFunction;
  isoA3: ValidateFunction;
  source: ValidateFunction;
  dataset: ValidateFunction;
}

/** Each validator's JSON pointer into the schema file. */
const FRAGMENTS: Record<keyof SchemaValidators, string> = {
  manifest: '',
  body: '/properties/body',
  isoA3: '/properties/iso_a3',
  source: '/$defs/source',
  dataset: '/$defs/dataset',
};

const OPTIONS = { allErrors: true, verbose: true, strictTypes: false, code: { source: true } };

const require = createRequire(import.meta.url);

/**
 * Returns the validators of the schema at `schemaPath`, from the code cached
 * in `cacheDir` (tests: their own) when it was made from the same schema by
 * the same ajv, else made now (and cached when the folder is writable).
 */
export function loadSchemaValidators(schemaPath: URL, cacheDir = toolCacheDir()): SchemaValidators {
  const text = readFileSync(schemaPath, 'utf8');
  const versions = ['ajv', 'ajv-formats'].map(
    (name) => (require(`${name}/package.json`) as { version: string }).version,
  );
  const key = createHash('sha256')
    .update(JSON.stringify([text, versions, OPTIONS, FRAGMENTS]))
    .digest('hex')
    .slice(0, 16);
  const file = join(cacheDir, `manifest-schema-${key}.cjs`);
  try {
    return run(readFileSync(file, 'utf8'));
  } catch {
    // Not cached yet (or the cached file is damaged): made again.
    const code = compile(JSON.parse(text) as { $id: string });
    save(file, code);
    return run(code);
  }
}

/**
 * Runs ajv's standalone code, CommonJS that requires ajv's small runtime
 * helpers (and the uri format), with this module's require, so they resolve
 * as ours do.
 */
function run(code: string): SchemaValidators {
  const module = { exports: {} as SchemaValidators };
  new Function('require', 'module', 'exports', code)(require, module, module.exports);
  for (const name of Object.keys(FRAGMENTS)) {
    if (typeof module.exports[name as keyof SchemaValidators] !== 'function')
      throw new Error(`no ${name} validator`);
  }
  return module.exports;
}

/** Returns ajv's standalone code exporting one validator per FRAGMENTS entry. */
function compile(schema: { $id: string }): string {
  const { Ajv2020 } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  const addFormats = require('ajv-formats') as typeof import('ajv-formats').default;
  const standaloneCode = (require('ajv/dist/standalone') as typeof import('ajv/dist/standalone')).default;
  const ajv = new Ajv2020(OPTIONS);
  addFormats(ajv);
  ajv.addSchema(schema);
  const refs = Object.fromEntries(
    Object.entries(FRAGMENTS).map(([name, fragment]) => [name, `${schema.$id}#${fragment}`]),
  );
  return standaloneCode(ajv, refs);
}

/** Writes the code atomically, or not at all: e.g. a read-only install. */
function save(file: string, code: string): void {
  try {
    mkdirSync(dirname(file), { recursive: true });
    writeFileAtomicSync(file, code);
  } catch {
    // made again next time
  }
}
