// Access to the data files that manifests name, for the validator and
// `geoshelf manifest`: each file is stat'ed and measured at most once per run,
// with a bounded number of files measured at a time.
import type { ManifestRule } from '../core/rules.ts';
import type { FileStats } from '../core/shared/manifest.ts';
import type { MeasurementCache } from '../measure/cache.ts';
import type { GeometryChecker } from '../geometry/cache.ts';
import type { FileGeometry } from '../geometry/verdict.ts';
import { GeoJSONError } from '../geojson/errors.ts';
import type { BboxMismatch } from '../measure/measure.ts';
import { outsideProblem, resolveInDataSync } from '../core/data-root.ts';
import { Slots } from '../core/slots.ts';
import { stampOf, type FileStamp } from '../core/files.ts';

/** What a file path in a manifest leads to (links followed, never out of data/). */
export type FileState =
  | ({ kind: 'file'; real: string } & FileStamp)
  | { kind: 'missing' }
  | { kind: 'not-a-file' }
  | { kind: 'outside'; real: string };

/** A measurement, or why the file could not be measured (e.g. "byte 120: expected ','"). */
export type Measured =
  | { ok: true; stats: FileStats; bboxes: BboxMismatch[]; geometry?: FileGeometry } // geometry: checked in the same pass
  | { ok: false; reason: string };

/** Why a listed file can't be used, as the rule and message of a problem at its pointer. */
export interface Unusable {
  rule: Extract<ManifestRule, 'path-outside' | 'link-outside' | 'file-missing' | 'geojson'>;
  message: string;
  paths?: string[]; // the files the message names on disk (Problem.paths)
}

/** Files measured at the same time: enough to overlap reading and hashing on 2 cores. */
const CONCURRENCY = 4;

/** Returns whether `path` stays inside `folder`: no "..", "." or empty segments, no backslash. */
export function isInside(folder: string, path: string): boolean {
  if (!path.startsWith(folder) || path.includes('\\')) return false;
  return path
    .slice(folder.length)
    .split('/')
    .every((segment) => segment !== '' && segment !== '.' && segment !== '..');
}

/** Memoised, bounded stat and measure of files named relative to one root. */
export class DataFiles {
  private readonly states = new Map<string, Promise<FileState>>();
  private readonly measurements = new Map<string, Promise<Measured>>();
  private readonly measureSlots = new Slots(CONCURRENCY);
  private readonly geometries = new Map<string, Promise<FileGeometry | undefined>>();
  private readonly reported = new Set<string>();
  private readonly geometrySlots = new Slots(2); // each check holds a 1 MiB buffer and may use a worker

  constructor(
    readonly root: string,
    private readonly measurer: Pick<MeasurementCache, 'measure'> &
      Partial<Pick<MeasurementCache, 'measureChecked' | 'known'>>,
    private readonly checker?: Pick<GeometryChecker, 'check'> & Partial<Pick<GeometryChecker, 'known'>>,
  ) {}

  /** Whether files' geometry is checked in this run. */
  get checksGeometry(): boolean {
    return this.checker !== undefined;
  }

  /**
   * Returns the geometry verdict on `file`, which must exist (see `state`);
   * undefined when it is not valid GeoJSON (the measurement says why) or
   * geometry is not checked.
   */
  geometry(file: string): Promise<FileGeometry | undefined> {
    let found = this.geometries.get(file);
    if (!found) {
      const checker = this.checker;
      const measured = this.measure(file);
      const sha256 = measured.then((m) => (m.ok ? m.stats.sha256 : undefined));
      const checked = measured.then((m) => (m.ok ? m.geometry : undefined));
      // Its own slots: a check waits for its file's measurement, which needs a measuring slot.
      // A verdict the checker knows without checking (its cache) takes none, so these never queue.
      found = checker
        ? (async () => {
            const state = await this.state(file);
            if (state.kind !== 'file') return undefined;
            const sum = await sha256;
            const known = sum === undefined ? undefined : await checker.known?.(state.real, sum, state);
            return known ?? this.geometrySlots.run(() => checker.check(state.real, sha256, checked));
          })()
        : Promise.resolve(undefined);
      this.geometries.set(file, found);
    }
    return found;
  }

  /**
   * Returns true the first time it is asked about `file` under `rule`: a file
   * listed twice has its own problems (geometry, bbox members) reported once.
   */
  firstReport(file: string, rule: Extract<ManifestRule, 'geometry' | 'bbox-member'> = 'geometry'): boolean {
    const key = `${rule}\0${file}`;
    if (this.reported.has(key)) return false;
    this.reported.add(key);
    return true;
  }

  /** Returns the geometry verdicts of this run, keyed by file (e.g. "data/earth/CHL/CHL_ADM1.geojson"). */
  async geometryResults(): Promise<Map<string, FileGeometry>> {
    const results = new Map<string, FileGeometry>();
    for (const [file, found] of this.geometries) {
      const result = await found;
      if (result) results.set(file, result);
    }
    return results;
  }

  /** Returns what `file` (e.g. "data/earth/CHL/CHL_ADM1.geojson") leads to, and its size. */
  state(file: string): Promise<FileState> {
    let state = this.states.get(file);
    if (!state) {
      // Synchronously (in a microtask, so a failure rejects like the rest): validate resolves every
      // listed file, and a thousand round trips through the thread pool cost more than the calls.
      state = Promise.resolve().then((): FileState => {
        const r = resolveInDataSync(this.root, file);
        if (r.kind === 'missing' || r.kind === 'outside') return r;
        if (r.kind !== 'file') return { kind: 'not-a-file' };
        return { kind: 'file', ...stampOf(r.stats), real: r.real };
      });
      this.states.set(file, state);
    }
    return state;
  }

  /**
   * Returns the size of `path`, a file a manifest in `folder` lists; or why it
   * can't be used: outside the folder, leading out of data/ through a link,
   * missing or not a file. The one check of listed files, for every stage.
   */
  async find(folder: string, path: string): Promise<{ size: number } | Unusable> {
    if (!isInside(folder, path))
      return { rule: 'path-outside', message: `file ${path} is not inside the manifest's folder ${folder}` };
    const state = await this.state(path);
    if (state.kind === 'file') return { size: state.size };
    if (state.kind === 'outside')
      return { rule: 'link-outside', ...outsideProblem(this.root, path, state.real) };
    const what = state.kind === 'missing' ? 'does not exist' : 'is not a file';
    return { rule: 'file-missing', message: `file ${path} ${what}`, paths: [path] };
  }

  /**
   * Returns the stats of `path`, a file a manifest in `folder` lists, and its
   * bbox members that do not hold their extent; or why there are none.
   */
  async stats(
    folder: string,
    path: string,
  ): Promise<{ stats: FileStats; bboxes: BboxMismatch[] } | Unusable> {
    const found = await this.find(folder, path);
    if ('rule' in found) return found;
    const measured = await this.measure(path);
    if (measured.ok) return { stats: measured.stats, bboxes: measured.bboxes };
    return {
      rule: 'geojson',
      message: `file ${path} is not valid GeoJSON: ${measured.reason}`,
      paths: [path],
    };
  }

  /**
   * Returns the stats of `file`, which must exist (see `state`), or the reason
   * it is not valid GeoJSON. Any other failure is thrown.
   */
  measure(file: string): Promise<Measured> {
    let measured = this.measurements.get(file);
    if (!measured) {
      const { measurer } = this;
      measured = (async () => {
        // Measure the real file, never a link's target outside data/ (state() checked it).
        const state = await this.state(file);
        if (state.kind !== 'file') throw new Error(`measure() of ${file}, which is ${state.kind}`);
        // Known without reading it (the cache): no measuring slot needed, so these never queue.
        const known = await measurer.known?.(state.real, state);
        if (known) return known;
        return this.measureSlots.run(async () => {
          // With geometry checks, one pass over the file measures and checks it.
          if (measurer.measureChecked)
            return measurer.measureChecked(state.real, this.checker !== undefined, state);
          return { stats: await measurer.measure(state.real), bboxes: [] }; // a bare measurer: bboxes unknown
        });
      })().then(
        ({ stats, bboxes, geometry }): Measured => ({ ok: true, stats, bboxes, geometry }),
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
}
