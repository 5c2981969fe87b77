// Runs on the worker thread started by cut-level.ts: cuts the levels it is
// sent into archives, one at a time (a level's positions are held while it is
// cut, so two at once would double the peak), and writes each archive and its
// description into the tiles cache, where the build reads them.
import { parentPort } from 'node:worker_threads';
import { writeFileAtomic } from '../core/atomic-write.ts';
import type { CutJob, CutReply } from './cut-level.ts';
import { readLevelRings } from './level-rings.ts';
import { levelArchive } from './level-tiles.ts';

async function cut(job: CutJob): Promise<CutReply> {
  const rings = await readLevelRings(job.sources);
  if (rings.points === 0) return { id: job.id, tiles: null };
  const { bytes, tiles } = levelArchive(rings, job.plane, job.name);
  await writeFileAtomic(job.archivePath, bytes);
  await writeFileAtomic(job.infoPath, JSON.stringify(tiles));
  return { id: job.id, tiles };
}

let queue = Promise.resolve();
parentPort!.on('message', (job: CutJob) => {
  queue = queue.then(() =>
    cut(job).then(
      (reply) => parentPort!.postMessage(reply),
      (error: Error) => parentPort!.postMessage({ id: job.id, error: String(error?.message ?? error) }),
    ),
  );
});
