// `geoshelf locations import` as a user runs it: one line per problem, exit 1, never a stack.
// The first case runs the real binary; the others run the same main() in-process.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cli, cliProcess } from '../support/cli.ts';

const lines = (text: string) => text.split('\n').filter(Boolean);
import { tempDir } from '../server/helpers.ts';

describe('geoshelf locations import (CLI)', () => {
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => ({ dir, cleanup } = await tempDir()));
  afterAll(() => cleanup());

  it('prints a one-line summary on success (no progress when stdout is not a terminal)', async () => {
    const db = join(dir, 'ok.sqlite');
    const { stdout } = await cliProcess(
      'locations',
      'import',
      'test/fixtures/locations/true/stations.csv',
      '--db',
      db,
    );
    expect(stdout).toBe(`${db}: created with 4 locations (4 in total)\n`);
  });

  it('one location, one problem: counted in the singular', async () => {
    const csv = join(dir, 'one.csv');
    const [header, row] = readFileSync('test/fixtures/locations/true/stations.csv', 'utf8').split('\n');
    writeFileSync(csv, `${header}\n${row}\n`);
    const db = join(dir, 'one.sqlite');
    expect(await cli('locations', 'import', csv, '--db', db)).toEqual({
      code: 0,
      stdout: `${db}: created with 1 location (1 in total)\n`,
      stderr: '',
    });
    writeFileSync(csv, `${header}\n${row!.replace(/^[^,]*,[^,]*/, (head) => head.replace(/,.*/, ','))}\n`);
    const bad = await cli('locations', 'import', csv, '--db', join(dir, 'none.sqlite'));
    expect(lines(bad.stderr).at(-1)).toBe(`${join(dir, 'none.sqlite')}: nothing written: 1 problem`);
  });

  it('malformed JSON → FILE:LINE:COLUMN, as editors jump to', async () => {
    const json = join(dir, 'broken.json');
    writeFileSync(json, '[\n  {"id": "a",\n   "name": "x",, }\n]\n');
    const result = await cli('locations', 'import', json, '--db', join(dir, 'never.sqlite'));
    expect(result.code).toBe(1);
    expect(lines(result.stderr)[0]).toBe(`${json}:3:16: invalid JSON: Expected double-quoted property name`);
  });

  it('bad rows → exit 1, one line per rejected row, then what happened; nothing written', async () => {
    const db = join(dir, 'bad.sqlite');
    const error = await cli('locations', 'import', 'test/fixtures/locations/false/bad.csv', '--db', db);
    expect(error.code).toBe(1);
    const lines = error.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(7);
    expect(lines[0]).toBe('test/fixtures/locations/false/bad.csv:3: name is empty');
    expect(lines[6]).toBe(`${db}: nothing written: 6 problems`);
    expect(existsSync(db)).toBe(false);
  });

  it('importing the same file twice → one line: the records are already there, use --replace', async () => {
    const db = join(dir, 'twice.sqlite');
    const csv = 'test/fixtures/locations/true/stations.csv';
    expect((await cli('locations', 'import', csv, '--db', db)).code).toBe(0);
    const again = await cli('locations', 'import', csv, '--db', db);
    expect(again).toEqual({
      code: 1,
      stdout: '',
      stderr: `${db}: nothing written: 4 records are already in it (the same ids, e.g. ${csv}:2); was this input imported before? Add --replace to replace every row with the input, or import a different file\n`,
    });
    // with other problems too, each is listed as before
    const mixed = await cli('locations', 'import', csv, 'test/fixtures/locations/false/bad.csv', '--db', db);
    expect(mixed.stderr).toContain(`${csv}:2: id `);
    expect(mixed.stderr).toContain('bad.csv:3: name is empty');
    expect((await cli('locations', 'import', csv, '--db', db, '--replace')).code).toBe(0);
  });

  it('bad flags → exit 2 (usage), one line', async () => {
    const csv = 'test/fixtures/locations/true/stations.csv';
    for (const [args, message] of [
      [
        ['--type', 'gasolinera', csv],
        '--type: expected one of convenience, bencinera, servicio, otro, got "gasolinera"',
      ],
      [
        ['--map', 'nombre=Name', csv],
        '--map: unknown field "nombre" (fields: id, name, description, type, latitude, longitude)',
      ],
      [['--map', 'name', csv], '--map: expected field=column pairs separated by commas, got "name"'],
      [[], 'no input FILE given (see --help)'],
    ] as const) {
      const error = await cli('locations', 'import', ...args, '--db', join(dir, 'flags.sqlite'));
      expect([error.code, error.stderr]).toEqual([2, `geoshelf locations import: ${message}\n`]);
    }
  });
});
