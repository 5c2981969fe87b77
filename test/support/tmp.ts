// Vitest's global setup: the tests' temporary folders (os.tmpdir(), inherited
// by the workers and every child process they start) go to a folder of this
// run under /dev/shm, a file system in memory, when the machine has one and
// TMPDIR is not set. The tests write, copy and delete tens of thousands of
// small files (trees, ledgers, built sites): on a disk that is a third of
// the system time and more of the wait (docs/benchmarks.md, npm test). The
// folder is removed after the run; one left by a run that was killed is
// removed by the next. tsx's cache of transformed sources (the children
// tests start with --import tsx) stays where it was, linked from there.
import {
  accessSync,
  constants,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  statfsSync,
  symlinkSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const SHM = '/dev/shm';
const PREFIX = 'geoshelf-tests-';
/** What /dev/shm must have free: a container's is often 64 MB; the long project's trees take hundreds. */
const ROOM = 2 ** 31;

/** Returns whether a process `pid` is running. */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export default function setup(): () => void {
  if (process.env.TMPDIR) return () => {};
  try {
    accessSync(SHM, constants.W_OK);
    const { bavail, bsize } = statfsSync(SHM);
    if (bavail * bsize < ROOM) return () => {}; // too small: the system's temporary folder
  } catch {
    return () => {}; // no /dev/shm (macOS): the system's temporary folder
  }
  for (const name of readdirSync(SHM)) {
    const pid = new RegExp(`^${PREFIX}(\\d+)-`).exec(name)?.[1];
    if (pid && !running(Number(pid))) rmSync(join(SHM, name), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(SHM, `${PREFIX}${process.pid}-`));
  const tsxCache = `tsx-${process.geteuid?.() ?? 'user'}`; // as tsx names it
  mkdirSync(join(tmpdir(), tsxCache), { recursive: true });
  symlinkSync(join(tmpdir(), tsxCache), join(dir, tsxCache));
  process.env.TMPDIR = dir;
  return () => {
    delete process.env.TMPDIR;
    rmSync(dir, { recursive: true, force: true });
  };
}
