// Cuts a level's tiles on a worker thread (tiles-worker.ts), so that the
// main thread reads units and draws maps meanwhile, and a level of any size
// up to MAX_TILED_BYTES gets tiles without holding up the rest of the build.
// One thread, started on first use, that holds the process open only while
// it has levels to cut (core/lazy-worker.ts).
import { compiledScript } from '../core/compiled.ts';
import { LazyWorker } from '../core/lazy-worker.ts';
import type { Plane } from '../site/map-plane.ts';
import type { LevelTiles } from './level-tiles.ts';

export interface CutJob {
  id: number;
  sources: string[]; // the level's GeoJSON files, absolute, in units-list order
  plane: Plane;
  name: string; // e.g. "CHL_ADM1", for the archive's metadata
  archivePath: string; // where the archive goes, e.g. "<cache>/tiles/<key>.pmtiles"
  infoPath: string; // where its LevelTiles goes, as JSON
}

export interface CutReply {
  id: number;
  tiles?: LevelTiles | null; // null: the level has no polygon, and nothing was written
  error?: string;
}

let nextId = 0;
const pending = new Map<number, { resolve: (t: LevelTiles | null) => void; reject: (e: Error) => void }>();

const worker = new LazyWorker<CutReply>(
  compiledScript('build/tiles/tiles-worker.ts'),
  (reply) => {
    const job = pending.get(reply.id);
    if (!job) return;
    pending.delete(reply.id);
    worker.done();
    if (reply.error !== undefined) job.reject(new Error(reply.error));
    else job.resolve(reply.tiles ?? null);
  },
  (error) => {
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  },
);

/**
 * Cuts the level made of `sources` on the worker thread and writes its
 * archive and description to the paths given; returns the description, or
 * null when the level has no polygon. Levels posted together are cut one
 * after another.
 */
export function cutLevelInWorker(job: Omit<CutJob, 'id'>): Promise<LevelTiles | null> {
  const id = nextId++;
  const result = new Promise<LevelTiles | null>((resolve, reject) => {
    pending.set(id, { resolve, reject });
  });
  if (!worker.post({ ...job, id })) {
    pending.delete(id);
    return Promise.reject(new Error('cannot start the tiles worker thread'));
  }
  return result;
}
