// The compile step's lock and its leftovers (bin/compile.js). Only the
// holder of `.lib.lock` compiles, so a `.lib-PID.tmp` or `.lib-PID.old`
// found while nobody holds the lock was left by a compile that was killed.
// A lock records who took it: the pid, that process's start time and the
// boot it ran in, the host, the lock's own path and when. It is stale when
// its holder is gone, when the pid now names another process (reused after a
// reboot), when the folder was copied from another tree, or when it is older
// than any compile takes. Plain JavaScript: it runs before anything is compiled.
import { hostname } from 'node:os';
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCK = '.lib.lock';
const OWNER = 'owner.json';
/** A compile takes seconds; a lock this old is stale whoever holds it (e.g. one taken on another host). */
export const LOCK_MAX_AGE_MS = 10 * 60_000;
/** A lock folder whose owner record is not written yet is being taken, for this long at most. */
const TAKING_MS = 10_000;
const POLL_MS = 50;
/** What a killed compile leaves beside lib/ (e.g. ".lib-812.tmp"), and inside it (".sources.json.812.tmp"). */
const LEFTOVER = /^\.lib-\d+\.(tmp|old)$/;
const STAMP_LEFTOVER = /^\.sources\.json\.\d+\.tmp$/;

/**
 * Returns the record a lock at `lockPath` holds for process `pid` (this one
 * by default): pid, start (the kernel's start time of the process, in clock
 * ticks since boot, from /proc; undefined elsewhere), boot, host, lock, at.
 */
export function lockOwner(lockPath, pid = process.pid) {
  return { pid, start: startTicks(pid), boot: bootId(), host: hostname(), lock: lockPath, at: Date.now() };
}

/**
 * Takes the compile lock of `packageDir` (a folder holding its owner's
 * record) and returns its release. While a live process holds it, waits,
 * and tells `onWait` once per holder what it waits for (one line); a stale
 * lock is taken over.
 */
export async function takeLock(packageDir, { onWait = () => {} } = {}) {
  const folder = join(packageDir, LOCK);
  let told;
  for (const started = Date.now(); ; await new Promise((resolve) => setTimeout(resolve, POLL_MS))) {
    const release = () => rmSync(folder, { recursive: true, force: true });
    try {
      mkdirSync(folder);
      writeFileSync(join(folder, OWNER), JSON.stringify(lockOwner(folder)));
      return release;
    } catch (error) {
      if (error.code !== 'EEXIST') {
        if (error.syscall !== 'mkdir') release(); // made, but its record could not be written
        throw new Error(`cannot compile: ${folder}: ${error.code ?? error.message}`, { cause: error });
      }
    }
    const owner = readOwner(folder);
    // Waiting longer than any compile takes: whatever the record says, it is stale.
    if (staleReason(folder, owner) !== undefined || Date.now() - started > LOCK_MAX_AGE_MS) {
      rmSync(folder, { recursive: true, force: true });
      continue;
    }
    const elsewhere = owner?.host !== undefined && owner.host !== hostname() ? ` on ${owner.host}` : '';
    const holder = owner ? `process ${owner.pid}${elsewhere}` : 'a process';
    if (holder !== told)
      onWait(
        `waiting for ${holder} to finish compiling lib/ (it holds ${folder}; if it is not compiling, delete that folder)`,
      );
    told = holder;
  }
}

/**
 * Returns the owner record of the lock folder, undefined when there is none
 * yet. A lock made by an earlier version holds only `pid`: its time is the
 * file's.
 */
function readOwner(folder) {
  try {
    const owner = JSON.parse(readFileSync(join(folder, OWNER), 'utf8'));
    return owner && typeof owner === 'object' && typeof owner.at === 'number' ? owner : { pid: 0, at: 0 };
  } catch {
    // no record (yet), or the earlier form
  }
  try {
    const path = join(folder, 'pid');
    return { pid: Number(readFileSync(path, 'utf8')), at: statSync(path).mtimeMs };
  } catch {
    return undefined;
  }
}

/**
 * Returns why the lock at `folder` with record `owner` is stale (e.g.
 * "process 812 is another process now"), or undefined while its holder may
 * still be compiling. Exported for its tests.
 */
export function staleReason(folder, owner, now = Date.now()) {
  if (!owner) {
    const made = statSync(folder, { throwIfNoEntry: false })?.mtimeMs ?? 0;
    return now - made > TAKING_MS ? 'it names no holder' : undefined;
  }
  if (!(Number.isSafeInteger(owner.pid) && owner.pid > 0)) return 'it names no process';
  if (owner.lock !== undefined && owner.lock !== folder) return `it was taken as ${owner.lock}`; // a copied tree
  if (Math.abs(now - owner.at) > LOCK_MAX_AGE_MS) return 'it is older than any compile takes';
  if (owner.host !== undefined && owner.host !== hostname()) return undefined; // no way to ask: the age decides
  if (owner.boot !== undefined && owner.boot !== bootId()) return 'it was taken before the machine restarted';
  if (!isAlive(owner.pid)) return `process ${owner.pid} is gone`;
  const start = startTicks(owner.pid);
  if (owner.start !== undefined ? start !== owner.start : startedAfter(owner.pid, owner.at))
    return `process ${owner.pid} is another process now`;
  return undefined;
}

/**
 * Removes what killed compiles left beside lib/ (`.lib-PID.tmp`,
 * `.lib-PID.old`) and inside it (`.sources.json.PID.tmp`): all of them when
 * `holding` the lock, else only when no live compile holds it (a stale lock
 * goes too; listed first, so a compile that starts meanwhile keeps its
 * own). Never throws: a read-only package keeps them.
 */
export function removeLeftovers(packageDir, { holding = false } = {}) {
  try {
    const found = readdirSync(packageDir).filter((name) => LEFTOVER.test(name));
    const lib = join(packageDir, 'lib');
    const inLib = readdirSync(lib).filter((name) => STAMP_LEFTOVER.test(name));
    if (found.length + inLib.length === 0) return;
    if (!holding && isHeld(join(packageDir, LOCK))) return;
    for (const name of found) rmSync(join(packageDir, name), { recursive: true, force: true });
    for (const name of inLib) rmSync(join(lib, name), { force: true });
  } catch {
    // not ours to clean (read-only), or lib/ is missing: compiling makes it
  }
}

/** Returns whether a live compile holds the lock folder; removes it when it is stale (its compile was killed). */
function isHeld(folder) {
  if (!statSync(folder, { throwIfNoEntry: false })) return false;
  if (staleReason(folder, readOwner(folder)) === undefined) return true;
  rmSync(folder, { recursive: true, force: true });
  return false;
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === 'EPERM';
  }
}

/** Returns field 22 of /proc/PID/stat (start time in clock ticks since boot), undefined without /proc. */
function startTicks(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19]; // fields from the 3rd on, after "(comm)"
  } catch {
    return undefined;
  }
}

/** Returns whether process `pid` started after `at` (ms): it cannot have taken a lock then. */
function startedAfter(pid, at) {
  const ticks = Number(startTicks(pid));
  const boot = /^btime (\d+)$/m.exec(readText('/proc/stat') ?? '')?.[1];
  if (!Number.isFinite(ticks) || boot === undefined) return false;
  // Clock ticks are 1/100 s on Linux (USER_HZ); boot time is in whole seconds.
  return Number(boot) * 1000 + ticks * 10 > at + 2000;
}

function bootId() {
  return readText('/proc/sys/kernel/random/boot_id')?.trim();
}

function readText(path) {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}
