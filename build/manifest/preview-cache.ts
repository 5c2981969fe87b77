// Compares each preview with its dataset (./preview-compare.ts) at most once
// per run, and not at all when the cache file says the same bytes were
// compared before by the same code: the answer depends only on the sha256 of
// every file (the measurer's, so an unchanged tree reads no GeoJSON for it),
// the simplification the manifest states, and the code that compared (the
// cache file's stamp: build/core/cache.ts).
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { CacheEntries } from '../core/cache.ts';
import { cacheDir } from '../core/files.ts';
import { Slots } from '../core/slots.ts';
import { comparePreview, type PreviewComparison, type ReadFile, type Staleness } from './preview-compare.ts';

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
  stamp: string; // sha256 of every file's path and sha256, and the simplification
  stale: Staleness | null;
}

/**
 * Checks previews once per run (memo) and across runs (a cache file of
 * verdicts by the preview's path). Without `cacheFile` it only memoises.
 * `identity`: the code's, which the cache file is kept with (codeIdentity).
 */
export class PreviewChecker {
  readonly stats = { compared: 0, cacheHits: 0 };
  private readonly memo = new Map<string, Promise<Staleness | undefined>>();
  private readonly entries: CacheEntries<CacheEntry>;
  // Two comparisons at a time: each reads one file at a time through a 1 MiB buffer, on this thread.
  private readonly slots = new Slots(2);

  constructor(
    options: { cacheFile?: string; identity?: string } = {},
    private readonly compare = comparePreview,
  ) {
    this.entries = new CacheEntries(options.cacheFile, isEntry, options.identity);
  }

  /** Returns the checker a run under `root` uses: its cache is `<root>/.cache/geoshelf/preview-checks.json` unless `noCache`. */
  static forRoot(root: string, options: { noCache?: boolean } = {}): PreviewChecker {
    return new PreviewChecker(
      options.noCache ? {} : { cacheFile: join(cacheDir(root), 'preview-checks.json') },
    );
  }

  /** Returns how the preview differs from its dataset, or undefined when it matches (./preview-compare.ts). */
  check(subject: PreviewCheck): Promise<Staleness | undefined> {
    const stamp = stampOf(subject);
    const memoKey = `${subject.preview.path}\0${stamp}`;
    let pending = this.memo.get(memoKey);
    if (!pending) {
      pending = this.checkCached(subject, stamp);
      this.memo.set(memoKey, pending);
    }
    return pending;
  }

  /** Writes the cache file atomically when something changed (CacheEntries.save). */
  save(): Promise<void> {
    return this.entries.save();
  }

  private async checkCached(subject: PreviewCheck, stamp: string): Promise<Staleness | undefined> {
    const key = subject.preview.path;
    const cached = await this.entries.get(key);
    if (cached && cached.stamp === stamp) {
      this.stats.cacheHits++;
      return cached.stale ?? undefined;
    }
    const stale = await this.slots.run(() => this.compare(subject));
    this.stats.compared++;
    await this.entries.set(key, { stamp, stale: stale ?? null });
    return stale;
  }
}

/** Returns the stamp of what a check's answer depends on besides the code: the files, the simplification, the body's scale. */
function stampOf(subject: PreviewCheck): string {
  const files = [...subject.files, subject.preview].map((f) => `${f.path}\t${f.sha256}`);
  const text = [...files, JSON.stringify(subject.simplification ?? null), subject.perDegree].join('\n');
  return createHash('sha256').update(text).digest('hex');
}

function isEntry(value: unknown): value is CacheEntry {
  const entry = (value ?? {}) as Partial<CacheEntry>;
  const stale = entry.stale;
  return (
    typeof entry.stamp === 'string' &&
    (stale === null || (typeof stale?.first === 'string' && Number.isInteger(stale.units) && stale.units > 0))
  );
}
