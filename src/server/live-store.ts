// The store a server answers from, kept up to date with its file: a file that
// changes on disk (an import renamed over it, a tool writing in place) is a
// normal event. The new version is opened and indexed off the request path,
// then swapped in at once; the old one closes when its last reader is done.
// A file damaged in place (truncated, overwritten) is an event too: logged
// once, answered 503 until a version that opens is there again.
import { statSync, watch, type FSWatcher, type Stats } from 'node:fs';
import { stat } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { LocationDbError, openLocationStoreAsync, type LocationStore } from '../locations/db.ts';
import { errorFields, type Logger } from './log.ts';

/** How often the file is stat()ed, besides the folder watch (which can miss events, e.g. on network disks). */
const POLL_MS = 1000;
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

/** Returns the inode of the file in a signature, e.g. "8123" of "8123:655360:17… -"; "-" when there was no file. */
function inode(signature: string): string {
  return signature.slice(0, signature.search(/[: ]/));
}

/** SQLite's code of `error`, e.g. "SQLITE_CORRUPT", or undefined for another error. */
function sqliteCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') ? code : undefined;
}

/** True when SQLite read bytes that are not a sound database: a truncated or overwritten file. */
function corrupt(error: unknown): boolean {
  const code = sqliteCode(error);
  return code !== undefined && (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB');
}

/**
 * True when a file failed to open for what it holds (corrupt, or no locations
 * table left, e.g. truncated to 0 bytes), not for a lock or a lack of descriptors.
 */
function badContent(error: unknown): boolean {
  return corrupt(error) || (error instanceof LocationDbError && error.code === undefined);
}

export class LiveStore {
  private held: Held;
  private watcher: FSWatcher | undefined;
  private timer: NodeJS.Timeout | undefined;
  private settle: NodeJS.Timeout | undefined;
  private known: string | undefined;
  private checking: Promise<void> | undefined;
  private failed: string | undefined; // the signature whose reopen failed (warned once)
  /** Set while the file the store reads is damaged; `tried`: the version last tried (undefined: try at the next check). */
  private damage: { tried: string | undefined } | undefined;
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

  /** True while the file is damaged: requests the cache cannot answer get 503, and the store is not read. */
  get damaged(): boolean {
    return this.damage !== undefined;
  }

  /**
   * Returns true when `error`, thrown by a read of the store, means the file
   * can no longer be read (corrupt bytes; or its table gone, when the file
   * changed since it was opened), and marks the store damaged: logged once,
   * not per request. False for any other error (a lock, a bug).
   */
  readFailed(error: unknown): boolean {
    const path = this.held.store.path;
    const now = signatureNow(path);
    const code = sqliteCode(error);
    const changed = now !== this.known;
    if (!corrupt(error) && !(changed && (code === 'SQLITE_ERROR' || code === 'SQLITE_SCHEMA'))) return false;
    // A file changed since it was opened is reopened at the next check; the very version the store
    // opened, failing a read now, is tried again only once it changes.
    this.markDamaged(path, (error as Error).message, changed ? undefined : now);
    return true;
  }

  private markDamaged(path: string, reason: string, tried: string | undefined): void {
    if (!this.damage) {
      const msg = `database ${path} is damaged: ${reason}; answering 503 until it is valid`;
      this.log({ level: 'error', event: 'damaged', msg, db: path, error: reason });
    }
    this.damage = { tried };
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
    if (this.closed || before === (this.damage ? this.damage.tried : this.known)) return;
    let next: LocationStore;
    try {
      next = await openLocationStoreAsync(path);
    } catch (error) {
      if (this.damage) {
        this.damage.tried = before; // still damaged, and said so once already
        return;
      }
      if (inode(before) === inode(this.known ?? '-') && badContent(error)) {
        // changed in place: the store held reads these same bytes, so it is damaged too
        return this.markDamaged(path, (error as Error).message, before);
      }
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
    const recovered = this.damage !== undefined;
    this.damage = undefined;
    const old = this.held;
    this.held = { store: next, readers: 0, retired: false };
    old.retired = true;
    if (old.readers === 0) old.store.close();
    this.onSwap(next);
    const rows = next.count(null);
    this.log({
      level: 'info',
      event: recovered ? 'recovered' : 'reloaded',
      msg: recovered
        ? `database ${path} is valid again: ${rows} locations`
        : `reloaded ${path}: ${rows} locations`,
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
