// Runs on a worker thread started by formats.ts: writes FlatGeobuf and
// TopoJSON (second-thread.ts) while the main thread writes the others.
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../core/errors.ts';
import type { CrsDefinition } from '../core/shared/crs.ts';
import { writeSecondHalf } from './second-thread.ts';
import type { SourceScan } from './source-scan.ts';

const { source, scan, layer, paths, crs } = workerData as {
  source: string;
  scan: SourceScan;
  layer: string;
  paths: { fgb: string; topojson: string };
  crs: CrsDefinition;
};
writeSecondHalf(source, scan, layer, paths, crs).then(
  (result) => parentPort!.postMessage({ result }),
  (error: Error) =>
    parentPort!.postMessage({
      error: { message: error.message, stack: error.stack, user: error instanceof UserError },
    }),
);
