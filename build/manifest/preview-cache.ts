// Compares each preview with its dataset (./preview-compare.ts) at most once
// per run, and not at all when the cache file says the same bytes were
// compared before by the same code: the answer depends only on the sha256 of
// every file (the measurer's, so an unchanged tree reads no GeoJSON for it),
// the simplification the manifest states, and the code that compared.
import { createHash } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { codeVersion } from '../core/compiled.ts';
import { cacheDir } from '../core/files.ts';
import { Slots } from '../core/slots.ts';
import { comparePreview, type PreviewComparison, type ReadFile, type Staleness } from './preview-compare.ts';
import { readCacheEntries } from '../core/cache-file.ts';

// Bumped whenever what an entry holds changes; a change of the code itself changes every stamp.
const CACHE_VERSION = 1;

/** A file as the check is asked about it: with the sha256 of its bytes. */
export interface HashedFile extends ReadFile {
  sha256: string;
}

/** What one preview is checked against: its dataset's files, hashed. */
export interface PreviewCheck extends Omit<PreviewComparison, 'files' | 'preview'> {
  files: HashedFile[];
  preview: HashedFile;
}

interface CacheEntry {
  stamp: string; // sha256 of the code, every file's path and sha256, and the simplification
  stale: Staleness | null;
}

/**
 * Checks previews once per run (memo) and across runs (a JSON cache file
 * keyed by the preview's path). Without `cacheFile`, or without a compiled
 * code's identity (`code` null), it only memoises. A missing or corrupt cache
 * file counts as empty.
 */
export class PreviewChecker {
  readonly stats = { compared: 0, cacheHits: 0 };
  private readonly memo = new Map<string, Promise<Staleness | undefined>>();
  private entries?: Promise<Map<string, CacheEntry>>;
  private changed = false;
  // Two comparisons at a time: each reads one file at a time through a 1 MiB buffer, on this thread.
  private readonly slots = new Slots(2);

  constructor(
    private readonly options: { cacheFile?: string; code?: string | null } = {},
    private readonly compare = comparePreview,
  ) {}

  /** Returns the checker a run under `root` uses: its cache is `<root>/.cache/geoshelf/preview-checks.json` unless `noCache`. */
  static forRoot(root: string, options: { noCache?: boolean } = {}): PreviewChecker {
    return new PreviewChecker(
      options.noCache ? {} : { cacheFile: join(cacheDir(root), 'preview-checks.json') },
    );
  }

  /** Returns how the preview differs from its dataset, or undefined when it matches (./preview-compare.ts). */
  check(subject: PreviewCheck): Promise<Staleness | undefined> {
    const stamp = stampOf(subject, this.options.code === undefined ? codeVersion() : this.options.code);
    const memoKey = `${subject.preview.path}\0${stamp}`;
    let pending = this.memo.get(memoKey);
    if (!pending) {
      pending = this.checkCached(subject, stamp);
      this.memo.set(memoKey, pending);
    }
    return pending;
  }

  /** Writes the cache file atomically when something changed; a read-only folder is skipped. */
  async save(): Promise<void> {
    const { cacheFile } = this.options;
    if (!cacheFile || !this.entries || !this.changed) return;
    const previews = Object.fromEntries(await this.entries);
    try {
      await mkdir(dirname(cacheFile), { recursive: true });
      await writeFileAtomic(cacheFile, `${JSON.stringify({ version: CACHE_VERSION, previews })}\n`);
      this.changed = false;
    } catch {
      // e.g. EACCES on a read-only data folder: the next run compares again
    }
  }

  private async checkCached(
    subject: PreviewCheck,
    stamp: string | undefined,
  ): Promise<Staleness | undefined> {
    const key = subject.preview.path;
    const cacheFile = stamp === undefined ? undefined : this.options.cacheFile;
    if (cacheFile) {
      this.entries ??= readCache(cacheFile);
      const cached = (await this.entries).get(key);
      if (cached && cached.stamp === stamp) {
        this.stats.cacheHits++;
        return cached.stale ?? undefined;
      }
    }
    const stale = await this.slots.run(() => this.compare(subject));
    this.stats.compared++;
    if (cacheFile && this.entries) {
      (await this.entries).set(key, { stamp: stamp!, stale: stale ?? null });
      this.changed = true;
    }
    return stale;
  }
}

/** Returns the stamp of what a check's answer depends on, or undefined without the code's identity. */
function stampOf(subject: PreviewCheck, code: string | null | undefined): string | undefined {
  if (code === null || code === undefined) return undefined;
  const files = [...subject.files, subject.preview].map((f) => `${f.path}\t${f.sha256}`);
  const text = [code, ...files, JSON.stringify(subject.simplification ?? null)].join('\n');
  return createHash('sha256').update(text).digest('hex');
}

function readCache(cacheFile: string): Promise<Map<string, CacheEntry>> {
  return readCacheEntries(cacheFile, CACHE_VERSION, 'previews', isEntry);
}

function isEntry(entry: CacheEntry): boolean {
  const stale = entry?.stale;
  return (
    typeof entry?.stamp === 'string' &&
    (stale === null || (typeof stale?.first === 'string' && Number.isInteger(stale.units) && stale.units > 0))
  );
}
