// Pages too big to build at once (e.g. ?limit=1000000: the original has no
// maximum) are produced in batches: rows are read a batch at a time, written
// with backpressure, compressed by a zlib stream, and the event loop is given
// back between batches, so other requests are answered meanwhile.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { pipeline, type Writable } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { constants, createBrotliCompress, createGzip } from 'node:zlib';
import type { LocationType } from '../locations/types.ts';
import { negotiateEncoding, writeHead } from './http.ts';
import type { Lease } from './live-store.ts';

/** Pages of more rows than this are streamed; smaller ones are built whole (and cached). */
export const STREAM_ROWS = 2000;
/** Rows read and written per step of a streamed page. */
export const BATCH_ROWS = 1000;

/** Resolves when `out` drains or the response closes (a client gone never drains). */
function drained(out: Writable, res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      out.off('drain', done);
      res.off('close', done);
      resolve();
    };
    out.on('drain', done);
    res.on('close', done);
  });
}

/**
 * Sends `count` rows of `type` from `skip` as one JSON array, chunked (no
 * Content-Length, no ETag: the body is never whole in memory), gzip/br as
 * asked. Releases `lease` when done or when the client leaves.
 */
export async function streamPage(
  req: IncomingMessage,
  res: ServerResponse,
  lease: Lease,
  page: { type: LocationType | null; skip: number; count: number; headers: OutgoingHttpHeaders },
): Promise<void> {
  try {
    const encoding = negotiateEncoding(req.headers['accept-encoding']);
    writeHead(res, 200, {
      ...page.headers,
      vary: 'Accept-Encoding',
      ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
    });
    if (req.method === 'HEAD') {
      res.end();
      return;
    }
    let out: Writable = res;
    if (encoding !== 'identity') {
      // fast settings: a stream this size is about throughput, and the work shares the CPU
      const zip =
        encoding === 'br'
          ? createBrotliCompress({ params: { [constants.BROTLI_PARAM_QUALITY]: 4 } })
          : createGzip({ level: 4 });
      pipeline(zip, res, () => {}); // an error or a hang-up destroys both; `res.destroyed` stops the loop
      out = zip;
    }
    out.write('[');
    for (let done = 0; done < page.count && !res.destroyed;) {
      const rows = lease.store.page(page.type, page.skip + done, Math.min(BATCH_ROWS, page.count - done));
      if (rows.length === 0) break;
      const text = JSON.stringify(rows);
      const more = out.write(done === 0 ? text.slice(1, -1) : `,${text.slice(1, -1)}`);
      done += rows.length;
      if (!more) await drained(out, res);
      // and always a turn of the event loop: a fast socket may drain within the same tick
      await nextTurn();
    }
    if (!res.destroyed) out.end(']');
  } finally {
    lease.release();
  }
}
