// Cuts a level's tiles on a worker thread (tiles-worker.ts), so that the
// main thread reads units and draws maps meanwhile, and a level of any size
// up to MAX_TILED_BYTES gets tiles without holding up the rest of the build.
// One thread, started on first use, that holds the process open only while
// it has levels to cut (core/worker-requests.ts).
import { compiledScript } from '../core/compiled.ts';
import { WorkerRequests, type WorkerReply } from '../core/worker-requests.ts';
import type { Plane } from '../geo/map-plane.ts';
import type { LevelTiles } from './level-tiles.ts';
import type { MercatorSource } from './mercator-level.ts';

/** The level's Web Mercator archive too (mercator.ts): where it goes, and its units' properties. */
interface MercatorJob extends MercatorSource {
  archivePath: string;
  infoPath: string;
  attribution?: string; // e.g. "Natural Earth", for the archive's metadata
}

export interface CutJob {
  id: number;
  sources: string[]; // the level's GeoJSON files, absolute, in units-list order
  plane: Plane;
  name: string; // e.g. "CHL_ADM1", for the archive's metadata
  archivePath: string; // where the archive goes, e.g. "<cache>/tiles/<key>.pmtiles"
  infoPath: string; // where its LevelTiles goes, as JSON
  planeCached?: boolean; // the plane's archive is in the cache already: cut only the Web Mercator one
  mercator?: MercatorJob;
}

interface CutAnswer {
  tiles?: LevelTiles | null; // null: the level has no polygon, and nothing was written
  mercator?: LevelTiles | null; // the same, of the Web Mercator archive (when asked)
}

/** What tiles-worker.ts posts back for a job. */
export type CutReply = WorkerReply<CutAnswer>;

const worker = new WorkerRequests<Omit<CutJob, 'id'>, CutAnswer>(
  compiledScript('build/tiles/tiles-worker.ts'),
  'tiles',
);

/**
 * Cuts the level made of `sources` on the worker thread and writes its
 * archive(s) and description(s) to the paths given; returns the
 * descriptions, null when the level has no polygon. Levels posted together
 * are cut one after another.
 */
export async function cutLevelInWorker(
  job: Omit<CutJob, 'id'>,
): Promise<{ tiles: LevelTiles | null; mercator: LevelTiles | null }> {
  const answer = await worker.request(job);
  return { tiles: answer.tiles ?? null, mercator: answer.mercator ?? null };
}
