// The importer under pressure: big inputs are streamed, problems are listed
// up to a limit and then counted, bytes that are not UTF-8 are a row error,
// and a killed import, a read-only folder or a full disk leave the target as it was.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../build/core/problem.ts';
import { openLocationStore } from '../../src/locations/db.ts';
import { importLocations, MAX_LISTED_PROBLEMS } from '../../src/locations/import.ts';
import { readLocationFile } from '../../src/locations/read-input.ts';
import { tempDir } from '../server/helpers.ts';

const run = promisify(execFile);
import { BIN } from '../support/cli.ts';
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A CSV of `count` valid rows (ids given), about 110 bytes each. */
function csv(count: number, from = 0): string {
  const lines = ['id,name,description,type,latitude,longitude'];
  for (let i = from; i < from + count; i++) {
    const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    lines.push(`${id},Lugar ${i},Descripción del lugar ${i},bencinera,-33.${i % 1000},-70.${i % 997}`);
  }
  return `${lines.join('\n')}\n`;
}

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

describe('an interrupted or failing import leaves the target as it was', () => {
  it('SIGKILL at any moment → a fresh open serves the rows of before; the next import removes the leftovers', async () => {
    const db = join(dir, 'x.sqlite');
    await writeFile(join(dir, 'first.csv'), csv(100));
    await importLocations({ files: [join(dir, 'first.csv')], db });
    const before = sha(db);
    const input = join(dir, 'more.csv');
    await writeFile(input, csv(150_000, 1000));
    // appends are checked row by row; --replace loads a new table in bulk, its key built at the end
    for (const [delay, replace] of [
      [0, false],
      [150, false],
      [400, false],
      [100, true],
      [500, true],
    ] as const) {
      const args = [BIN, 'locations', 'import', input, '--db', db, ...(replace ? ['--replace'] : [])];
      const child = spawn('node', args, { stdio: 'ignore' });
      // wait until this import has begun writing its own temporary copy (a leftover of the run
      // before does not count: the import removes those first), then kill it a little later
      const own = `.import-${child.pid}-`;
      while (
        !readdirSync(dir).some((name) => name.includes(own) && name.endsWith('.tmp')) &&
        child.exitCode === null
      ) {
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
      const exited =
        child.exitCode === null ? new Promise((resolve) => child.once('exit', resolve)) : Promise.resolve();
      child.kill('SIGKILL');
      await exited;
      expect(sha(db)).toBe(before);
      const store = openLocationStore(db);
      expect(store.count(null)).toBe(100);
      store.close();
    }
    expect(readdirSync(dir).filter((name) => name.includes('.import-')).length).toBeGreaterThan(0);
    await writeFile(join(dir, 'last.csv'), csv(1, 500));
    expect((await importLocations({ files: [join(dir, 'last.csv')], db })).total).toBe(101);
    expect(readdirSync(dir).filter((name) => name.includes('.import-'))).toEqual([]);
  });

  // a read-only folder and a full disk need mounts: in a private mount namespace (unshare), as CI's root can
  const canMount = spawnSync('unshare', ['-rm', 'true']).status === 0;

  /** Runs `script` with sh in a private mount namespace; returns its output. */
  const inNamespace = (script: string) =>
    spawnSync('unshare', ['-rm', 'sh', '-c', script], {
      encoding: 'utf8',
      env: { ...process.env, BIN, DIR: dir },
    });

  it.skipIf(!canMount)('a read-only folder → one line, exit 1, the database intact', async () => {
    await writeFile(join(dir, 'first.csv'), csv(10));
    await writeFile(join(dir, 'more.csv'), csv(10, 100));
    const db = join(dir, 'x.sqlite');
    await importLocations({ files: [join(dir, 'first.csv')], db });
    const before = sha(db);
    const out = inNamespace(
      'mount --bind "$DIR" "$DIR" && mount -o remount,bind,ro "$DIR" && node "$BIN" locations import "$DIR/more.csv" --db "$DIR/x.sqlite"; echo "exit $?"',
    );
    expect(out.stdout.trim()).toBe('exit 1');
    expect(out.stderr.trimEnd().split('\n')).toEqual([
      `${db}: cannot write in ${dir}: read-only file system (nothing written)`,
    ]);
    expect(sha(db)).toBe(before);
  });

  it.skipIf(!canMount)(
    'a full disk → one line, exit 1, the database intact, no temporary file left',
    async () => {
      await writeFile(join(dir, 'more.csv'), csv(25_000, 100)); // about 2.7 MB of rows into a 1 MB disk
      await writeFile(join(dir, 'first.csv'), csv(10));
      const out = inNamespace(
        [
          'mkdir "$DIR/disk" && mount -t tmpfs -o size=1m tmpfs "$DIR/disk"',
          'node "$BIN" locations import "$DIR/first.csv" --db "$DIR/disk/x.sqlite" > /dev/null',
          'sha256sum < "$DIR/disk/x.sqlite"',
          'node "$BIN" locations import "$DIR/more.csv" --db "$DIR/disk/x.sqlite"; echo "exit $?"',
          'sha256sum < "$DIR/disk/x.sqlite"',
          // --replace loads a new table in bulk: the same line when the disk fills
          'node "$BIN" locations import "$DIR/more.csv" --db "$DIR/disk/x.sqlite" --replace; echo "exit $?"',
          'sha256sum < "$DIR/disk/x.sqlite"',
          'ls -A "$DIR/disk"',
        ].join(' && '),
      );
      const [shaBefore, exit, shaAfter, exitBulk, shaAfterBulk, ...files] = out.stdout.trim().split('\n');
      expect([exit, exitBulk]).toEqual(['exit 1', 'exit 1']);
      const full = `${join(dir, 'disk', 'x.sqlite')}: disk full while writing the new version beside it (nothing written)`;
      expect(out.stderr.trimEnd().split('\n')).toEqual([full, full]);
      expect([shaAfter, shaAfterBulk]).toEqual([shaBefore, shaBefore]);
      expect(files).toEqual(['x.sqlite']);
      expect(existsSync(join(dir, 'disk'))).toBe(true);
    },
  );
});
