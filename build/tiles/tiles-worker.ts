// Runs on the worker thread started by cut-level.ts: cuts the levels it is
// sent into archives, one at a time (a level's positions are held while it is
// cut, so two at once would double the peak), and writes each archive and its
// description into the tiles cache, where the build reads them.
import { parentPort } from 'node:worker_threads';
import { writeFileAtomic } from '../core/atomic-write.ts';
import type { CutJob, CutReply } from './cut-level.ts';
import { readLevelRings } from './level-rings.ts';
import { levelArchive } from './level-tiles.ts';
import { mercatorArchive } from './mercator.ts';
import { readMercatorLevel } from './mercator-level.ts';

/** Cuts the job's archives from one reading of its files (the Web Mercator one when asked). */
async function cut(job: CutJob): Promise<CutReply> {
  const { mercator } = job;
  const read = mercator ? await readMercatorLevel(job.sources, mercator) : undefined;
  const rings = read?.rings ?? (await readLevelRings(job.sources));
  if (rings.points === 0) return { id: job.id, tiles: null, mercator: null };
  const reply: CutReply = { id: job.id };
  if (!job.planeCached) {
    const { bytes, tiles } = levelArchive(rings, job.plane, job.name);
    await writeFileAtomic(job.archivePath, bytes);
    await writeFileAtomic(job.infoPath, JSON.stringify(tiles));
    reply.tiles = tiles;
  }
  if (mercator && read) {
    const label = { name: job.name, attribution: mercator.attribution };
    const { bytes, tiles } = mercatorArchive(rings, read.properties, label);
    await writeFileAtomic(mercator.archivePath, bytes);
    await writeFileAtomic(mercator.infoPath, JSON.stringify(tiles));
    reply.mercator = tiles;
  }
  return reply;
}

/** Cuts one level and replies; a failure is the level's reply, and the queue goes on. */
async function handle(job: CutJob): Promise<void> {
  let reply: CutReply;
  try {
    reply = await cut(job);
  } catch (error) {
    reply = { id: job.id, error: String((error as Error)?.message ?? error) };
  }
  // Should posting itself fail, the rejection ends this thread, which fails every job it holds (core/worker-requests.ts).
  parentPort!.postMessage(reply);
}

let queue = Promise.resolve();
parentPort!.on('message', (job: CutJob) => {
  queue = queue.then(() => handle(job));
});
