// The importer under pressure: big inputs are streamed, problems are listed
// up to a limit and then counted, and bytes that are not UTF-8 are a row
// error. (A killed import, a read-only folder or a full disk leave the target
// as it was: test/locations/import-interrupted.test.ts, long project; a
// failed import in process: test/locations/import.test.ts.)
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../build/core/problem.ts';
import { importLocations, MAX_LISTED_PROBLEMS } from '../../src/locations/import.ts';
import { readLocationFile } from '../../src/locations/read-input.ts';
import { tempDir } from '../server/helpers.ts';

const run = promisify(execFile);
import { BIN } from '../support/cli.ts';
import { csv, sha } from '../support/locations-csv.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

describe('import at scale', () => {
  it('a CSV is read in batches as it streams, not whole', async () => {
    const input = join(dir, 'big.csv');
    await writeFile(input, csv(40_000)); // about 4 MB: several 1 MiB chunks
    let batches = 0;
    let records = 0;
    for await (const item of readLocationFile(input)) {
      if ('records' in item) {
        batches++;
        records += item.records.length;
      }
    }
    expect(records).toBe(40_000);
    expect(batches).toBeGreaterThan(2);
  });

  it(`re-importing the same file → the first ${MAX_LISTED_PROBLEMS} problems and a count, nothing written`, async () => {
    const input = join(dir, 'rows.csv');
    await writeFile(input, csv(1500));
    const db = join(dir, 'x.sqlite');
    expect((await importLocations({ files: [input], db })).inserted).toBe(1500);
    const before = sha(db);
    const again = await importLocations({ files: [input], db });
    expect([again.problemCount, again.existing]).toEqual([1500, 1500]);
    expect(again.problems).toHaveLength(MAX_LISTED_PROBLEMS);
    expect(formatProblem(again.problems[0]!)).toBe(
      `${input}:2: id 00000000-0000-4000-8000-000000000000 is already in ${db}`,
    );
    expect(sha(db)).toBe(before);
  });

  it('the CLI prints those problems, "… and N more", and one summary line', async () => {
    const input = join(dir, 'rows.csv');
    await writeFile(input, csv(300).replaceAll(',bencinera,', ',gasolinera,')); // 300 bad types
    const db = join(dir, 'x.sqlite');
    const failure = await run('node', [BIN, 'locations', 'import', input, '--db', db]).then(
      () => undefined,
      (error: { code: number; stderr: string }) => error,
    );
    expect(failure?.code).toBe(1);
    const lines = failure!.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(MAX_LISTED_PROBLEMS + 2);
    expect(lines.at(-2)).toBe(`geoshelf locations import: … and ${300 - MAX_LISTED_PROBLEMS} more problems`);
    expect(lines.at(-1)).toBe(`${db}: nothing written: 300 problems`);
  });

  it('bytes that are not UTF-8 in a CSV row → a row error with its line; other rows are checked as usual', async () => {
    const input = join(dir, 'latin1.csv');
    await writeFile(
      input,
      Buffer.concat([
        Buffer.from('name,type,latitude,longitude\nUno,otro,1,2\nCami'),
        Buffer.from([0xf3, 0x6e]), // "ón" in Latin-1
        Buffer.from(',otro,1,2\nTres,otro,1,2\n'),
      ]),
    );
    const result = await importLocations({ files: [input], db: join(dir, 'x.sqlite') });
    expect(result.problems.map(formatProblem)).toEqual([
      `${input}:3: not valid UTF-8 (the file must be UTF-8 encoded)`,
    ]);
  });

  it('bytes that are not UTF-8 in a JSON file → a problem naming the line', async () => {
    const input = join(dir, 'latin1.json');
    await writeFile(
      input,
      Buffer.concat([Buffer.from('[\n{"name": "Cami'), Buffer.from([0xf3]), Buffer.from('n"}\n]')]),
    );
    const result = await importLocations({ files: [input], db: join(dir, 'x.sqlite') });
    expect(result.problems.map(formatProblem)).toEqual([`${input}:2: not valid UTF-8`]);
  });
});
