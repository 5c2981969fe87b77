// The compile step's lock and leftovers (bin/compile-lock.js), in-process:
// a lock is stale when its holder is gone, when its pid names another
// process now, when it was copied from another tree or taken before a
// restart, or when it is older than any compile takes; a waiter says what it
// waits for; what a killed compile left is removed. (test/compile.test.ts
// runs the binary through the same cases where lib/ must be compiled.)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations, run before anything is compiled
import * as compileLock from '../bin/compile-lock.js';
// @ts-expect-error: plain JavaScript without declarations, run before anything is compiled
import * as compileStep from '../bin/compile.js';

interface Owner {
  pid: number;
  start?: string;
  boot?: string;
  host?: string;
  lock?: string;
  at: number;
}
const { lockOwner, staleReason, takeLock, LOCK_MAX_AGE_MS } = compileLock as {
  lockOwner: (lock: string, pid?: number) => Owner;
  staleReason: (folder: string, owner: Owner | undefined, now?: number) => string | undefined;
  takeLock: (dir: string, options: { onWait: (text: string) => void }) => Promise<() => void>;
  LOCK_MAX_AGE_MS: number;
};
const { ensureCompiled } = compileStep as {
  ensureCompiled: (options: { packageDir: string }) => Promise<string | undefined>;
};

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-compile-lock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// A live process that is not compiling anything: it exits by itself, and is killed after each test.
const sleepers: ChildProcess[] = [];
afterEach(() => {
  for (const child of sleepers.splice(0)) child.kill('SIGKILL');
});
function liveProcess(): number {
  const child = spawn('sleep', ['60'], { stdio: 'ignore' });
  sleepers.push(child);
  return child.pid!;
}
/** Returns the pid of a process that has exited. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

describe('a compile lock is stale', () => {
  const folder = join(scratch, 'judged', '.lib.lock');
  mkdirSync(folder, { recursive: true });
  const gone = deadPid();

  it.each<[string, () => Owner, string | undefined]>([
    ['its holder runs, as recorded → held', () => lockOwner(folder), undefined],
    ['its process is gone', () => ({ ...lockOwner(folder), pid: gone }), `process ${gone} is gone`],
    [
      'its pid names another process now (the start time differs: reused after a reboot)',
      () => ({ ...lockOwner(folder), start: '1' }),
      `process ${process.pid} is another process now`,
    ],
    [
      'it was copied from another tree (taken as another path)',
      () => lockOwner('/elsewhere/.lib.lock'),
      'it was taken as /elsewhere/.lib.lock',
    ],
    [
      'it was taken before the machine restarted (another boot id)',
      () => ({ ...lockOwner(folder), boot: 'another-boot' }),
      'it was taken before the machine restarted',
    ],
    [
      'it is older than any compile takes, whoever holds it',
      () => ({ ...lockOwner(folder), at: Date.now() - LOCK_MAX_AGE_MS - 1000 }),
      'it is older than any compile takes',
    ],
    ['it names no process', () => ({ ...lockOwner(folder), pid: 0 }), 'it names no process'],
    [
      'on another host and young → held (no way to ask: the age decides)',
      () => ({ ...lockOwner(folder), host: `not-${hostname()}`, pid: gone }),
      undefined,
    ],
  ])('%s', (_, owner, reason) => {
    expect(staleReason(folder, owner())).toBe(reason);
  });

  it('the earlier form (a pid file alone) naming a process that started after it → another process now', () => {
    const pid = liveProcess();
    expect(staleReason(folder, { pid, at: Date.now() - 60_000 })).toBe(
      `process ${pid} is another process now`,
    );
    expect(staleReason(folder, { pid, at: Date.now() + 5000 })).toBeUndefined(); // written after it started: its own
  });

  it('a lock folder without a record is being taken for 10 s, then stale', () => {
    const now = Date.now();
    expect(staleReason(folder, undefined, now)).toBeUndefined();
    utimesSync(folder, new Date(now - 11_000), new Date(now - 11_000));
    expect(staleReason(folder, undefined, now)).toBe('it names no holder');
  });
});

describe('taking the compile lock', () => {
  it('a live holder → one line naming it and the lock, said once; taken when the holder lets go', async () => {
    const dir = join(scratch, 'held');
    const folder = join(dir, '.lib.lock');
    mkdirSync(folder, { recursive: true });
    const holder = liveProcess();
    writeFileSync(join(folder, 'owner.json'), JSON.stringify(lockOwner(folder, holder)));
    const told: string[] = [];
    const taking = takeLock(dir, {
      onWait: (text) => {
        told.push(text);
        setTimeout(() => rmSync(folder, { recursive: true }), 200); // the holder finishes
      },
    });
    const release = await taking;
    expect(told).toEqual([
      `waiting for process ${holder} to finish compiling lib/ (it holds ${folder}; if it is not compiling, delete that folder)`,
    ]);
    release();
    expect(existsSync(folder)).toBe(false);
  });

  it('a lock naming a live process that is not its holder → taken over at once, nothing said', async () => {
    const dir = join(scratch, 'reused');
    const folder = join(dir, '.lib.lock');
    mkdirSync(folder, { recursive: true });
    writeFileSync(
      join(folder, 'owner.json'),
      JSON.stringify({ ...lockOwner(folder, liveProcess()), start: '1' }),
    );
    const told: string[] = [];
    const release = await takeLock(dir, { onWait: (text) => told.push(text) });
    expect(told).toEqual([]);
    release();
  });
});

describe('what a killed compile left beside lib/', () => {
  // A copy of the package whose lib/ is current (sources, bin/, public/, lib/; node_modules linked).
  const dir = join(scratch, 'package');
  for (const part of ['bin', 'build', 'src', 'public', 'lib', 'package.json'])
    cpSync(join(PACKAGE, part), join(dir, part), { recursive: true });
  symlinkSync(join(PACKAGE, 'node_modules'), join(dir, 'node_modules'));

  /** Makes what a compile by `pid` killed midway leaves, and returns its paths. */
  function leave(dir: string, pid: number): string[] {
    const paths = [`.lib-${pid}.tmp`, `.lib-${pid}.old`, `lib/.sources.json.${pid}.tmp`].map((p) =>
      join(dir, p),
    );
    mkdirSync(join(paths[0]!, 'src'), { recursive: true });
    mkdirSync(join(paths[1]!, 'src'), { recursive: true });
    writeFileSync(paths[2]!, '{"version":');
    return paths;
  }

  it('is removed by the next run while nobody compiles, and lib/ is left as it is', async () => {
    const paths = leave(dir, deadPid());
    expect(await ensureCompiled({ packageDir: dir })).toBeUndefined();
    expect(paths.filter((path) => existsSync(path))).toEqual([]);
    expect(existsSync(join(dir, 'lib/src/cli/main.js'))).toBe(true);
  });

  it("is kept while a compile holds the lock (it may be that compile's own)", async () => {
    const paths = leave(dir, liveProcess());
    mkdirSync(join(dir, '.lib.lock'));
    expect(await ensureCompiled({ packageDir: dir })).toBeUndefined();
    expect(paths.filter((path) => existsSync(path))).toEqual(paths);
    rmSync(join(dir, '.lib.lock'), { recursive: true });
  });
});
