// One run at a time per root: the commands that write the ledger, dist/,
// manifests, previews or splits (release, build, manifest, preview, split)
// hold `<root>/.cache/geoshelf/lock/` while they run. The folder is made by
// one mkdir, which only one process can win; it names its owner (pid, the
// process's start time, host, command). A second run is refused in one line
// naming the holder, as git refuses with index.lock. A lock whose owner is
// gone is taken over: on the same host, a pid that is no longer running, or
// is running but started at another time (the pid was reused, e.g. after a
// reboot, or the tree was copied with its lock), is not the owner.
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, rm, rmdir, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { UserError } from './errors.ts';
import { cacheDir } from './files.ts';
import { problem } from './problem.ts';

/** Who holds a lock. */
export interface LockOwner {
  pid: number;
  started: string | null; // the process's start, as the system counts it (Linux: boot id and start tick); null elsewhere
  host: string;
  command: string; // e.g. "release 2026.11"
  since: string; // ISO time
}

/** A lock folder with no owner file yet is being made; older than this, its maker died in between. */
const UNNAMED_MS = 10_000;

/** Returns the lock folder of `root`. */
export function lockDir(root: string): string {
  return join(cacheDir(root), 'lock');
}

/** Returns how the system identifies the start of process `pid`, or null when it cannot say (not Linux, or gone). */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // after "pid (comm) "
    const boot = readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return `${boot}:${fields[19]}`; // field 22, starttime
  } catch {
    return null;
  }
}

/** Returns whether the process `pid` is running (signal 0 probes without sending). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // someone else's: running
  }
}

/** Returns why `owner` no longer holds its lock, or undefined when it may (another host's: cannot tell). */
function gone(owner: LockOwner): string | undefined {
  if (owner.host !== hostname()) return undefined;
  if (!running(owner.pid)) return `process ${owner.pid} is not running`;
  const started = processStart(owner.pid);
  if (owner.started !== null && started !== null && started !== owner.started) {
    return `process ${owner.pid} is another process now (it started at another time)`;
  }
  return undefined;
}

/**
 * Runs `fn` holding the lock of `root`, and releases it after, however `fn`
 * ends. Throws a UserError (rule `locked`, one line naming the holder and
 * the lock) when another live run holds it.
 */
export async function withLock<T>(root: string, command: string, fn: () => Promise<T>): Promise<T> {
  const dir = lockDir(root);
  const owner: LockOwner = {
    pid: process.pid,
    started: processStart(process.pid),
    host: hostname(),
    command,
    since: new Date().toISOString(),
  };
  await acquire(dir, owner);
  try {
    return await fn();
  } finally {
    await rm(dir, { recursive: true, force: true });
    // The folders the lock made, when nothing else is in them: a refused run leaves the root as it was.
    await rmdir(join(dir, '..')).catch(() => {});
    await rmdir(join(dir, '..', '..')).catch(() => {});
  }
}

/**
 * Makes `path` and its parents. Another run letting its lock go removes
 * .cache/geoshelf/ and .cache/ when empty, which can happen between two of
 * the steps of a recursive mkdir (ENOENT): it is made again.
 */
async function makeFolder(path: string): Promise<void> {
  for (let vanished = 0; ; vanished++) {
    try {
      await mkdir(path, { recursive: true });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || vanished >= 8) throw error;
    }
  }
}

async function acquire(dir: string, owner: LockOwner): Promise<void> {
  await makeFolder(join(dir, '..'));
  for (let attempt = 0, vanished = 0; ; attempt++) {
    try {
      await mkdir(dir);
      await writeFile(join(dir, 'owner.json'), `${JSON.stringify(owner)}\n`);
      return;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      // Another run, letting its lock go, removed the then-empty parent between our two mkdirs.
      if (code === 'ENOENT' && vanished++ < 8) {
        await makeFolder(join(dir, '..'));
        attempt--;
        continue;
      }
      if (code !== 'EEXIST') throw error;
    }
    const holder = await readOwner(dir);
    const why = holder ? gone(holder) : await unnamedTooLong(dir);
    if (why === undefined || attempt > 0) throw lockedError(holder);
    // Stale: moved aside first, so that of two runs taking it over, one wins the next mkdir.
    const aside = `${dir}.stale-${process.pid}-${Date.now()}`;
    await rename(dir, aside).catch(() => {});
    await rm(aside, { recursive: true, force: true });
  }
}

/** Returns the owner a lock folder names, or undefined when it names none (yet) or is unreadable. */
async function readOwner(dir: string): Promise<LockOwner | undefined> {
  try {
    const owner = JSON.parse(await readFile(join(dir, 'owner.json'), 'utf8')) as Partial<LockOwner> | null;
    if (owner && Number.isSafeInteger(owner.pid) && typeof owner.host === 'string') {
      return {
        pid: owner.pid!,
        started: typeof owner.started === 'string' ? owner.started : null,
        host: owner.host,
        command: typeof owner.command === 'string' ? owner.command : 'a command',
        since: typeof owner.since === 'string' ? owner.since : '?',
      };
    }
  } catch {
    // no owner file: being made, or its maker died in between
  }
  return undefined;
}

/** Returns why a lock folder without an owner is stale (older than UNNAMED_MS), or undefined while it may be being made. */
async function unnamedTooLong(dir: string): Promise<string | undefined> {
  const info = await stat(dir).catch(() => undefined);
  if (!info) return 'it is gone';
  return Date.now() - info.mtimeMs > UNNAMED_MS ? 'it names no owner' : undefined;
}

function lockedError(holder: LockOwner | undefined): UserError {
  const who = holder
    ? `geoshelf ${holder.command} (pid ${holder.pid} on ${holder.host}, since ${holder.since})`
    : 'a geoshelf command that is starting';
  const message = `held by ${who}: one command at a time writes this root; wait for it to finish, or, if that process is gone, remove this folder`;
  return new UserError(problem('.cache/geoshelf/lock', message, { rule: 'locked' })); // named from the root, as every file is
}
