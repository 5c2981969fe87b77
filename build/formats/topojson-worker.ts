// Runs on a worker thread started by formats.ts: writes one TopoJSON file
// (the costliest format) while the main thread writes the others.
import { parentPort, workerData } from 'node:worker_threads';
import { UserError } from '../core/errors.ts';
import type { SourceScan } from './source-scan.ts';
import { writeTopoJson } from './topojson.ts';

const { source, out, layer, scan } = workerData as {
  source: string;
  out: string;
  layer: string;
  scan: SourceScan;
};
writeTopoJson(source, out, layer, scan).then(
  (result) => parentPort!.postMessage({ result }),
  (error: Error) =>
    parentPort!.postMessage({
      error: { message: error.message, stack: error.stack, user: error instanceof UserError },
    }),
);
