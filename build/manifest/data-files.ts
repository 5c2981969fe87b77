// Access to the data files that manifests name, for the validator and
// `geoshelf manifest`: each file is stat'ed and measured at most once per run,
// with a bounded number of files measured at a time.
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { FileStats } from './types.ts';
import type { Measurer } from '../measure/cache.ts';
import { GeoJSONError } from '../measure/measure.ts';

/** What a file path in a manifest leads to. */
export type FileState = { kind: 'file'; size: number } | { kind: 'missing' } | { kind: 'not-a-file' };

/** A measurement, or why the file could not be measured (e.g. "byte 120: expected ','"). */
export type Measured = { ok: true; stats: FileStats } | { ok: false; reason: string };

/** Files measured at the same time: enough to overlap reading and hashing on 2 cores. */
const CONCURRENCY = 4;

/** Memoised, bounded stat and measure of files named relative to one root. */
export class DataFiles {
  private readonly states = new Map<string, Promise<FileState>>();
  private readonly measurements = new Map<string, Promise<Measured>>();
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly root: string,
    private readonly measurer: Pick<Measurer, 'measure'>,
  ) {}

  /** Returns whether `file` (e.g. "data/earth/CHL/CHL_ADM1.geojson") exists, and its size. */
  state(file: string): Promise<FileState> {
    let state = this.states.get(file);
    if (!state) {
      state = stat(join(this.root, file)).then(
        (s): FileState => (s.isFile() ? { kind: 'file', size: s.size } : { kind: 'not-a-file' }),
        (error: NodeJS.ErrnoException): FileState => {
          if (error.code === 'ENOENT' || error.code === 'ENOTDIR') return { kind: 'missing' };
          throw error;
        },
      );
      this.states.set(file, state);
    }
    return state;
  }

  /**
   * Returns the stats of `file`, which must exist (see `state`), or the reason
   * it is not valid GeoJSON. Any other failure is thrown.
   */
  measure(file: string): Promise<Measured> {
    let measured = this.measurements.get(file);
    if (!measured) {
      measured = this.limit(() => this.measurer.measure(join(this.root, file))).then(
        (stats): Measured => ({ ok: true, stats }),
        (error: unknown): Measured => {
          if (error instanceof GeoJSONError)
            return { ok: false, reason: `byte ${error.offset}: ${error.reason}` };
          throw error;
        },
      );
      this.measurements.set(file, measured);
    }
    return measured;
  }

  private async limit<T>(task: () => Promise<T>): Promise<T> {
    // A finishing task hands its slot straight to the next waiting one.
    if (this.running < CONCURRENCY) this.running += 1;
    else await new Promise<void>((resolve) => this.waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
