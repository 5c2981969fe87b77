// The one place raw manifest JSON becomes a checked `Manifest`: validates it
// against public/schema/manifest.v1.json (draft 2020-12 + formats), through
// the code ajv generated from it at compile time (lib/manifest-validator.cjs,
// made by bin/compile.js), and turns ajv's errors into one readable message
// per real problem.
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { LIB_DIR } from '../core/compiled.ts';
import { PACKAGE_DIR } from '../core/files.ts';
import type { Body, Dataset, Manifest, Source } from '../core/shared/manifest.ts';

/** The schema file, published by the site build at `dist/schema/manifest.v1.json`. */
export const SCHEMA_PATH = pathToFileURL(join(PACKAGE_DIR, 'public/schema/manifest.v1.json'));

/** The schema's validators: the whole manifest, and pieces of one that failed as a whole. */
interface SchemaValidators {
  manifest: ValidateFunction;
  body: ValidateFunction;
  isoA3: ValidateFunction;
  source: ValidateFunction;
  dataset: ValidateFunction;
}

/** A schema problem: where in the manifest (a JSON pointer, "" for the root) and what. */
interface SchemaProblem {
  pointer: string; // e.g. "/datasets/0/sha256"
  message: string; // e.g. 'must be 64 lowercase hexadecimal characters, got "ABC"'
}

export type SchemaResult = { ok: true; manifest: Manifest } | { ok: false; problems: SchemaProblem[] };

const validators = createRequire(import.meta.url)(
  join(LIB_DIR, 'manifest-validator.cjs'),
) as SchemaValidators;
const check = validators.manifest as ValidateFunction<Manifest>;

/**
 * Type guards for pieces of a manifest that failed the schema as a whole, so
 * the validator can still check the datasets that are fine on their own.
 */
export const isValid = {
  body: validators.body as ValidateFunction<Body>,
  isoA3: validators.isoA3 as ValidateFunction<string>,
  source: validators.source as ValidateFunction<Source>,
  dataset: validators.dataset as ValidateFunction<Dataset>,
};

/**
 * Returns `{ ok: true, manifest }` when `value` (parsed JSON) satisfies manifest
 * schema v1, else every problem found, one per real mistake (ajv's follow-on
 * errors from `if/then` and the like are dropped).
 */
export function checkManifest(value: unknown): SchemaResult {
  if (check(value)) return { ok: true, manifest: value };
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of check.errors ?? []) {
    const problem = translate(error);
    if (!problem) continue;
    const key = `${problem.pointer}\0${problem.message}`;
    if (seen.has(key)) continue;
    seen.add(key);
    problems.push(problem);
  }
  return { ok: false, problems };
}

/** Returns `pointer` extended by one property name or index, escaped per RFC 6901. */
function childPointer(pointer: string, key: string | number): string {
  return `${pointer}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/** Returns a short JSON rendering of `value` for messages, e.g. `"ADM7"` or `[1,2]`. */
export function show(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 80 ? `${text.slice(0, 77)}…` : text;
}

function article(type: unknown): string {
  const name = String(type);
  return /^[aeiou]/.test(name) ? `an ${name}` : `a ${name}`;
}

function typeName(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'an integer' : 'a number';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

// Friendlier wording for patterns, keyed by the pattern itself.
const PATTERNS: Record<string, string> = {
  '^[A-Z]{3}$': 'must be 3 capital letters (ISO 3166-1 alpha-3)',
  '^[A-Z]{2}$': 'must be 2 capital letters (ISO 3166-1 alpha-2)',
  '^[^\\n\\r]*$': 'must be a single line (no line break)',
  '^\\d{4}-\\d{2}-\\d{2}$': 'must be a date YYYY-MM-DD',
  '^data/[a-z]+/[A-Z]{3}/.+\\.geojson$': 'must be a path like data/{body}/{ISO3}/….geojson',
  '^[0-9a-f]{64}$': 'must be 64 lowercase hexadecimal characters',
  '^(ADM[0-5]|QUAD)$': 'must be ADM0 … ADM5 or QUAD',
  '^data/[a-z]+/[A-Z]{3}/preview/[A-Z]{3}_(ADM[0-5]|QUAD)\\.preview\\.geojson$':
    'must be a path like data/{body}/{ISO3}/preview/{ISO3}_{LEVEL}.preview.geojson',
};

/** Returns the readable problem for one ajv error, or undefined for a follow-on error. */
function translate(error: ErrorObject): SchemaProblem | undefined {
  const at = error.instancePath;
  const value = error.data;
  const params = error.params as Record<string, unknown>;
  const got = `, got ${show(value)}`;
  switch (error.keyword) {
    case 'if': // "must match then schema": the `required` inside `then` says it better
      return undefined;
    case 'required': {
      const name = String(params.missingProperty);
      const when = error.schemaPath.includes('/then/') ? ' when license is "mixed"' : '';
      return { pointer: childPointer(at, name), message: `required property is missing${when}` };
    }
    case 'not': // source: `licenses` present while `license` is a single licence
      return {
        pointer: childPointer(at, 'licenses'),
        message: 'only allowed when license is "mixed" (a single licence covers every dataset)',
      };
    case 'dependentRequired':
      return {
        pointer: childPointer(at, String(params.missingProperty)),
        message: `required property is missing (required when "${String(params.property)}" is present)`,
      };
    case 'additionalProperties':
      return {
        pointer: childPointer(at, String(params.additionalProperty)),
        message: 'unknown property (not allowed here)',
      };
    case 'type':
      return {
        pointer: at,
        message: `must be ${[params.type].flat().map(article).join(' or ')}, got ${typeName(value)}`,
      };
    case 'const':
      return { pointer: at, message: `must be ${show(params.allowedValue)}${got}` };
    case 'enum':
      return {
        pointer: at,
        message: `must be one of ${(params.allowedValues as unknown[]).map(show).join(', ')}${got}`,
      };
    case 'pattern':
      return {
        pointer: at,
        message: `${PATTERNS[String(params.pattern)] ?? `must match ${params.pattern}`}${got}`,
      };
    case 'minimum':
    case 'maximum':
      return {
        pointer: at,
        message: `must be ${error.keyword === 'minimum' ? 'at least' : 'at most'} ${params.limit}${got}`,
      };
    case 'minLength':
      return { pointer: at, message: 'must not be empty' };
    case 'minItems':
    case 'maxItems':
      return at.endsWith('/bbox')
        ? { pointer: at, message: `must have exactly 4 numbers [west, south, east, north]${got}` }
        : {
            pointer: at,
            message: `must have ${error.keyword === 'minItems' ? 'at least' : 'at most'} ${params.limit} item(s)`,
          };
    case 'uniqueItems': {
      const [first, second] = [Number(params.j), Number(params.i)].sort((a, b) => a - b);
      const item = show((value as unknown[])[first!]);
      return {
        pointer: at,
        message: `items ${first} and ${second} are equal (${item}); items must be unique`,
      };
    }
    case 'format':
      return { pointer: at, message: `must be a ${String(params.format).toUpperCase()}${got}` };
    default:
      return { pointer: at, message: error.message ?? `fails ${error.keyword}` };
  }
}
