// Finds, reads and parses every data/{body}/{ISO3}/manifest.json under a root:
// invalid JSON is reported with line:column, and the schema check (build/manifest/schema.ts)
// turns the rest into typed `Manifest`s.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { readdir, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UsageError, UserError } from '../core/errors.ts';
import { outsideProblem, resolveInDataSync } from '../core/data-root.ts';
import { problem, type Problem } from '../core/problem.ts';
import { firstInvalidUtf8 } from '../core/utf8.ts';
import { lineColumn, parseJsonText } from '../core/json-text.ts';
import type { ManifestRule } from '../core/rules.ts';
import type { Manifest } from '../core/shared/manifest.ts';
import { checkManifest } from './schema.ts';

/** A manifest that passed the schema, with the text it was read from. */
export interface LoadedManifest {
  file: string; // e.g. "data/earth/CHL/manifest.json", relative to root
  manifest: Manifest;
  text: string; // the file's exact contents
}

/**
 * Returns the manifest files under `root`, relative and sorted, e.g.
 * ["data/earth/ABW/manifest.json", …]: every `data/*\/*\/manifest.json`.
 * Throws a UserError when `root` has no `data/` folder.
 */
export async function findManifests(root: string): Promise<string[]> {
  const dataDir = join(root, 'data');
  if (!(await isDirectory(dataDir))) {
    // Named relative to the root, as every file is: the reporter shows it from the current folder.
    throw new UserError(problem('data', 'no such folder (--root names the folder that holds data/)'));
  }
  const files: string[] = [];
  for (const body of await sortedDirs(dataDir)) {
    for (const folder of await sortedDirs(join(dataDir, body))) {
      const file = `data/${body}/${folder}/manifest.json`;
      // Synchronously: one stat per country, which through the thread pool waited in turn.
      if (statSync(join(root, file), { throwIfNoEntry: false })?.isFile()) files.push(file);
    }
  }
  return files;
}

/**
 * Returns the manifests of `files` in the folders of the ISO3 `codes` (all
 * when none), e.g. ["CHL"] → ["data/earth/CHL/manifest.json"]: how validate
 * and manifest take their ISO3 arguments. A code that is not three capital
 * letters is a usage mistake (a UsageError, exit 2); one with no manifest is
 * a UserError naming it.
 */
export function selectManifests(files: string[], codes: string[]): string[] {
  if (codes.length === 0) return files;
  const malformed = codes.filter((code) => !/^[A-Z]{3}$/.test(code));
  if (malformed.length > 0) {
    const list = malformed.map((code) => `"${code}"`).join(', ');
    throw new UsageError(`${list}: expected ISO3 codes (3 letters, e.g. CHL)`);
  }
  const absent = codes.filter((code) => !files.some((file) => file.split('/')[2] === code));
  if (absent.length > 0) {
    throw new UserError(absent.map((code) => problem('', `${code}: no data/*/${code}/manifest.json`)));
  }
  return files.filter((file) => codes.includes(file.split('/')[2]!));
}

/**
 * Returns a warning for each manifest.json that findManifests() passes over
 * because it is a folder or two too shallow (directly in data/, in
 * data/{body}/, or in data/{ISO3}/ with no body), naming where it goes.
 */
export function strayManifests(root: string): Problem[] {
  const stray: string[] = [];
  const isFile = (file: string) => statSync(join(root, file), { throwIfNoEntry: false })?.isFile();
  if (isFile('data/manifest.json')) stray.push('data/manifest.json');
  for (const entry of readdirSync(join(root, 'data'), { withFileTypes: true })) {
    if (entry.isDirectory() && isFile(`data/${entry.name}/manifest.json`)) {
      stray.push(`data/${entry.name}/manifest.json`);
    }
  }
  return stray.map((file) => {
    const folder = file.split('/')[1];
    const example =
      folder && /^[A-Z]{3}$/.test(folder)
        ? `data/earth/${folder}/manifest.json`
        : 'data/earth/CHL/manifest.json';
    return {
      file,
      rule: 'folder',
      severity: 'warning',
      message: `not read: a manifest goes in its country's folder, data/{body}/{ISO3}/manifest.json (e.g. ${example})`,
    };
  });
}

/**
 * Reads and checks the manifests `files` (relative to `root`). Returns those
 * that pass the schema; one problem per invalid-JSON file (with line:column)
 * or per schema mistake; and the parsed JSON of the schema-invalid ones
 * (still `unknown`), whose valid pieces the validator goes on checking.
 */
export function loadManifests(
  root: string,
  files: string[],
): {
  manifests: LoadedManifest[];
  problems: Problem[];
  invalid: { file: string; value: unknown }[];
} {
  const manifests: LoadedManifest[] = [];
  const problems: Problem[] = [];
  const invalid: { file: string; value: unknown }[] = [];
  for (const file of files) {
    const read = readManifestText(root, file);
    if ('rule' in read) {
      problems.push({ file, pointer: '', severity: 'error', ...read });
      continue;
    }
    const { text } = read;
    const parsed = parseJson(text);
    if ('error' in parsed) {
      problems.push({ file, pointer: '', rule: 'json', severity: 'error', message: parsed.error });
      continue;
    }
    const result = checkManifest(parsed.value);
    if (result.ok) manifests.push({ file, manifest: result.manifest, text });
    else {
      for (const p of result.problems) problems.push({ file, rule: 'schema', severity: 'error', ...p });
      invalid.push({ file, value: parsed.value });
    }
  }
  return { manifests, problems, invalid };
}

/** The largest manifest read: one with 50,000 parts is about 20 MB. */
const MAX_MANIFEST_BYTES = 64 << 20;

/** The deepest nesting read: a manifest is 4 levels deep (datasets → parts → bbox). */
const MAX_MANIFEST_DEPTH = 32;

/**
 * Returns the text of the manifest `file` (relative to `root`), or why it is
 * not read: it leads outside data/ through a link, is too large, is not
 * UTF-8 (what is published must be its bytes), or nests too deep to be a
 * manifest (which would overflow the stack of every JSON tool after us).
 */
function readManifestText(
  root: string,
  file: string,
): { text: string } | { rule: ManifestRule; message: string; paths?: string[] } {
  // Synchronously: manifests are read one after the other, and each is small (≤ 64 MiB).
  const found = resolveInDataSync(root, file);
  if (found.kind === 'outside') return { rule: 'link-outside', ...outsideProblem(root, file, found.real) };
  if (found.kind !== 'file') return { rule: 'file-missing', message: `cannot read: not a file` };
  if (found.size > MAX_MANIFEST_BYTES) {
    return {
      rule: 'too-large',
      message: `is ${found.size} bytes; a manifest may have at most ${MAX_MANIFEST_BYTES} (64 MiB)`,
    };
  }
  const bytes = readFileSync(found.real);
  const bad = firstInvalidUtf8(bytes);
  if (bad >= 0) return { rule: 'utf8', message: `byte ${bad}: not UTF-8: a manifest must be UTF-8 text` };
  const text = bytes.toString('utf8'); // valid UTF-8: the same bytes when written back
  const deep = tooDeep(text, MAX_MANIFEST_DEPTH);
  if (deep >= 0) {
    const { line, column } = lineColumn(text, deep);
    return {
      rule: 'json',
      message: `nested more than ${MAX_MANIFEST_DEPTH} levels deep at line ${line}, column ${column}; a manifest is at most 4`,
    };
  }
  return { text };
}

/** Returns the offset of the first bracket opened deeper than `max` in JSON `text` (strings skipped), or -1. */
function tooDeep(text: string, max: number): number {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // skip a string: to the next quote not escaped
      for (i++; i < text.length && text.charCodeAt(i) !== 0x22; i++) if (text.charCodeAt(i) === 0x5c) i++;
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return i;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return -1;
}

/**
 * Returns `{ value }` for valid JSON, else `{ error }` such as
 * "invalid JSON at line 3, column 18: Expected ',' or '}' after property value".
 */
export function parseJson(text: string): { value: unknown } | { error: string } {
  const parsed = parseJsonText(text);
  if ('value' in parsed) return parsed;
  return { error: `invalid JSON at line ${parsed.line}, column ${parsed.column}: ${parsed.reason}` };
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

async function sortedDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return (
    entries
      // A linked folder is followed here; whether it stays inside data/ is checked when its manifest is read.
      .filter((e) => (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort()
  );
}
