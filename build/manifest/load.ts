// Finds, reads and parses every data/{body}/{ISO3}/manifest.json under a root:
// invalid JSON is reported with line:column, and the schema check (build/schema.ts)
// turns the rest into typed `Manifest`s.
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../core/errors.ts';
import type { Problem } from '../core/problem.ts';
import type { Manifest } from './types.ts';
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
  if (!(await isDirectory(dataDir))) throw new UserError(`${root}: no data/ folder here (see --root)`);
  const files: string[] = [];
  for (const body of await sortedDirs(dataDir)) {
    for (const folder of await sortedDirs(join(dataDir, body))) {
      const file = `data/${body}/${folder}/manifest.json`;
      if ((await stat(join(root, file)).catch(() => undefined))?.isFile()) files.push(file);
    }
  }
  return files;
}

/**
 * Reads and checks the manifests `files` (relative to `root`). Returns those
 * that pass the schema; one problem per invalid-JSON file (with line:column)
 * or per schema mistake; and the parsed JSON of the schema-invalid ones
 * (still `unknown`), whose valid pieces the validator goes on checking.
 */
export async function loadManifests(
  root: string,
  files: string[],
): Promise<{
  manifests: LoadedManifest[];
  problems: Problem[];
  invalid: { file: string; value: unknown }[];
}> {
  const manifests: LoadedManifest[] = [];
  const problems: Problem[] = [];
  const invalid: { file: string; value: unknown }[] = [];
  for (const file of files) {
    const text = await readFile(join(root, file), 'utf8');
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

/**
 * Returns `{ value }` for valid JSON, else `{ error }` such as
 * "invalid JSON at line 3, column 18: Expected ',' or '}' after property value".
 */
export function parseJson(text: string): { value: unknown } | { error: string } {
  // A byte order mark, as some editors write, is not JSON; skip it (columns still count it).
  if (text.startsWith('\uFEFF')) return parseJson(` ${text.slice(1)}`);
  try {
    return { value: JSON.parse(text) as unknown };
  } catch (error) {
    const message = (error as Error).message;
    // V8 says "… in JSON at position 42" (Node 20) and may add "(line 3 column 18)".
    const position = /at position (\d+)/.exec(message);
    const offset = position ? Number(position[1]) : text.length;
    const reason = message
      .replace(/ in JSON at position \d+.*$/s, '')
      .replace(/^Unexpected end of JSON input$/, 'unexpected end of file');
    const { line, column } = lineColumn(text, offset);
    return { error: `invalid JSON at line ${line}, column ${column}: ${reason}` };
  }
}

/** Returns the 1-based line and column of character `offset` in `text`. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) {
    line += 1;
    lineStart = i + 1;
  }
  return { line, column: offset - lineStart + 1 };
}

async function isDirectory(path: string): Promise<boolean> {
  return (await stat(path).catch(() => undefined))?.isDirectory() ?? false;
}

async function sortedDirs(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  return entries
    .filter((e) => e.isDirectory() && !e.name.startsWith('.'))
    .map((e) => e.name)
    .sort();
}
