// The store a server answers from, kept up to date with its file: a file that
// changes on disk (an import renamed over it, a tool writing in place) is a
// normal event. The new version is opened and indexed off the request path,
// then swapped in at once; the old one closes when its last reader is done.
import { statSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { openLocationStoreAsync, type LocationStore } from '../locations/db.ts';
import { errorFields, type Logger } from './log.ts';

/** How often the file is stat()ed, besides the folder watch (which can miss events, e.g. on network disks). */
export const POLL_MS = 1000;
/** How long after a change event the file is checked, so a burst of events costs one reopen. */
const SETTLE_MS = 100;

/** A store in use: release() it when the response that read it is done. */
export interface Lease {
  store: LocationStore;
  release(): void;
}

interface Held {
  store: LocationStore;
  readers: number;
  retired: boolean;
}

/** Returns what identifies one version of `path`: inode, size and mtime of the file and its WAL. */
async function signature(path: string): Promise<string> {
  const parts = await Promise.all([path, `${path}-wal`].map((file) => stat(file).then(stamp, () => '-')));
  return parts.join(' ');
}

/** signature(), at once: for the version a store just opened holds. */
function signatureNow(path: string): string {
  return [path, `${path}-wal`]
    .map((file) => {
      try {
        return stamp(statSync(file));
      } catch {
        return '-';
      }
    })
    .join(' ');
}

function stamp(s: Stats): string {
  return `${s.ino}:${s.size}:${s.mtimeMs}`;
}

export class LiveStore {
  private held: Held;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private settle: NodeJS.Timeout | undefined;
  private known: string | undefined;
  private checking: Promise<void> | undefined;
  private failed: string | undefined; // the signature whose reopen failed (warned once)
  private closed = false;
  /** Called after every swap, e.g. to empty a response cache. */
  onSwap: (store: LocationStore) => void = () => {};

  constructor(
    store: LocationStore,
    private readonly log: Logger,
  ) {
    this.held = { store, readers: 0, retired: false };
    // Taken now, in the turn the store was opened in: taken later (as watch() once did, after a
    // stat on the thread pool), a write landing in between was taken for the version held,
    // and the server kept its old rows until the next write.
    this.known = signatureNow(store.path);
  }

  /** The current store, for a read that finishes before the next await. */
  get store(): LocationStore {
    return this.held.store;
  }

  /** The current store, kept open until release() even if a newer one is swapped in meanwhile. */
  acquire(): Lease {
    const held = this.held;
    held.readers++;
    let released = false;
    return {
      store: held.store,
      release: () => {
        if (released) return;
        released = true;
        held.readers--;
        if (held.retired && held.readers === 0) held.store.close();
      },
    };
  }

  /** Starts following the file: a folder watch plus a stat every POLL_MS; both unref'd. */
  watch(): void {
    const path = this.held.store.path;
    try {
      this.watcher = watch(dirname(path), { persistent: false }, (_event, name) => {
        if (name === null || String(name).startsWith(basename(path))) this.schedule();
      });
      this.watcher.on('error', () => this.watcher?.close()); // the poll goes on
    } catch {
      // no watch on this file system: the poll alone
    }
    this.timer = setInterval(() => void this.check(), POLL_MS);
    this.timer.unref();
  }

  private schedule(): void {
    if (this.settle || this.closed) return;
    this.settle = setTimeout(() => {
      this.settle = undefined;
      void this.check();
    }, SETTLE_MS);
    this.settle.unref();
  }

  /** Reopens the file if it changed since the last look; resolves when the swap (if any) is done. */
  check(): Promise<void> {
    this.checking ??= this.reopenIfChanged().finally(() => (this.checking = undefined));
    return this.checking;
  }

  private async reopenIfChanged(): Promise<void> {
    const path = this.held.store.path;
    const before = await signature(path);
    if (before === this.known || this.closed) return;
    let next: LocationStore;
    try {
      next = await openLocationStoreAsync(path);
    } catch (error) {
      // e.g. the file was removed, or replaced by something that is not a locations database
      if (this.failed !== before) {
        const msg = `keeping the previous ${path}: ${(error as Error).message}`;
        this.log({ level: 'warn', event: 'reload-failed', msg, db: path, ...errorFields(error, false) });
      }
      this.failed = before;
      return;
    }
    if (this.closed) return next.close();
    // the version read is at least `before`: a change after it triggers another check
    this.known = before;
    this.failed = undefined;
    const old = this.held;
    this.held = { store: next, readers: 0, retired: false };
    old.retired = true;
    if (old.readers === 0) old.store.close();
    this.onSwap(next);
    const rows = next.count(null);
    this.log({
      level: 'info',
      event: 'reloaded',
      msg: `reloaded ${path}: ${rows} locations`,
      db: path,
      rows,
    });
  }

  close(): void {
    this.closed = true;
    this.watcher?.close();
    clearInterval(this.timer);
    clearTimeout(this.settle);
    this.held.retired = true;
    if (this.held.readers === 0) this.held.store.close();
  }
}
