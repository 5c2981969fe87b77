// One command at a time writes a root (build/core/lock.ts, issue 27 item 4):
// manifest, preview and split take the lock release and build take; a second
// run is refused in one line naming the holder and changes nothing; a lock
// whose owner is gone (not running, or its pid now another process's) is
// taken over, as is a lock folder left without an owner. Two real processes
// racing on one root: test/core/races.test.ts.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { lockDir, processStart, withLock, type LockOwner } from '../../build/core/lock.ts';
import { fixtureCopy, snapshot } from '../build/helpers.ts';
import { cli } from '../support/cli.ts';

/** The commands that write a root, each as its arguments (a level edited first gives manifest and preview work). */
const WRITERS: [string, string[]][] = [
  ['manifest', ['manifest', 'CHL']],
  ['preview', ['preview', 'CHL/ADM1', '--force']],
  ['split', ['split', '--level', 'ADM2', 'CHL']],
  ['build', ['build']],
  ['release', ['release', '1.0.0']],
];

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

function root(): string {
  const dir = fixtureCopy();
  roots.push(dir);
  return dir;
}

/** Writes a lock folder into `dir` as a run of `owner` would. */
function plantLock(dir: string, owner: Partial<LockOwner>): void {
  mkdirSync(lockDir(dir), { recursive: true });
  const full = {
    pid: process.pid,
    started: null,
    host: hostname(),
    command: 'release 9.9.9',
    since: 'x',
    ...owner,
  };
  writeFileSync(join(lockDir(dir), 'owner.json'), JSON.stringify(full));
}

/** The pid of a process that has exited. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

describe('a second run is refused in one line naming the holder', () => {
  for (const [name, args] of WRITERS) {
    it(`${name} while another command holds the lock → exit 1, one line, nothing changed`, async () => {
      const dir = root();
      const before = snapshot(join(dir, 'data'));
      const r = await withLock(dir, 'release 9.9.9', () => cli(...args, '--root', dir));
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        new RegExp(
          `^${dir}/\\.cache/geoshelf/lock: held by geoshelf release 9\\.9\\.9 \\(pid ${process.pid} on [^)]+\\): one command at a time writes this root[^\\n]*\\n$`,
        ),
      );
      expect(snapshot(join(dir, 'data'))).toEqual(before);
      expect(existsSync(join(dir, 'dist'))).toBe(false);
    });
  }

  it('manifest --check writes only caches: it takes no lock', async () => {
    const dir = root();
    const r = await withLock(dir, 'release 9.9.9', () => cli('manifest', '--check', '--root', dir));
    expect(r.code).toBe(0);
  });
});

describe('a stale lock is taken over', () => {
  for (const [name, args] of WRITERS.slice(0, 3)) {
    it(`${name}: a lock whose owner is not running → taken over, and released after`, async () => {
      const dir = root();
      plantLock(dir, { pid: deadPid() });
      const r = await cli(...args, '--root', dir);
      expect(r.stderr).not.toContain('lock');
      expect(r.code).toBe(0);
      expect(existsSync(lockDir(dir))).toBe(false);
    });
  }

  it('a lock naming a running pid that started at another time (a reused pid) → taken over', async () => {
    const dir = root();
    const started = processStart(process.pid);
    if (started === null) return; // not Linux: the start time cannot be told
    plantLock(dir, { pid: process.pid, started: `${started}0` });
    expect((await cli('manifest', 'CHL', '--root', dir)).code).toBe(0);
    expect(existsSync(lockDir(dir))).toBe(false);
  });

  it('a lock folder with no owner: refused while it may be being made, taken over once older than 10 s', async () => {
    const dir = root();
    mkdirSync(lockDir(dir), { recursive: true });
    const young = await cli('preview', 'CHL/ADM1', '--root', dir);
    expect(young.code).toBe(1);
    expect(young.stderr).toContain('lock: held by a geoshelf command that is starting');
    const old = new Date(Date.now() - 60_000);
    utimesSync(lockDir(dir), old, old);
    expect((await cli('preview', 'CHL/ADM1', '--root', dir)).code).toBe(0);
    expect(existsSync(lockDir(dir))).toBe(false);
  });
});
