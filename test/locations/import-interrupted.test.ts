// A killed import, a read-only folder or a full disk leave the target as it
// was, with real processes (long project: seconds of child processes; the
// quick project checks a failed import in process, test/locations/import.test.ts).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLocationStore } from '../../src/locations/db.ts';
import { importLocations } from '../../src/locations/import.ts';
import { tempDir } from '../server/helpers.ts';
import { BIN } from '../support/cli.ts';
import { csv, sha } from '../support/locations-csv.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

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
