// One response body kept in memory (an API page, a static file), with its
// compressed variants made once, off the event loop, and its header lists
// built once; and the byte-bounded LRU cache that holds such bodies.
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { LRUCache } from 'lru-cache';
import { isConditional, outcome, type Validators } from './conditional.ts';
import { sendError } from './errors.ts';
import { CORS_ORIGIN, etagOf, negotiateEncoding, sendNotModified, type Encoding } from './http.ts';
import { rangeHeaders, type ByteRange } from './range.ts';

// the callback forms run on libuv's thread pool: a big body never blocks the event loop
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

/** Bodies smaller than this are sent as is: compressing them saves nothing. */
const MIN_COMPRESS_BYTES = 1024;

export interface RepresentationOptions {
  /** Worth compressing (text); default true. */
  compressible?: boolean;
  /** Answers `Range` (static files): adds Accept-Ranges: bytes. */
  ranges?: boolean;
}

/**
 * A body with its headers. send() answers a request with it: 412/304 by the
 * preconditions, 206/416 for a range, else 200 in the negotiated encoding.
 */
export class Representation {
  readonly etag: string;
  readonly compressible: boolean;
  readonly ranges: boolean;
  private readonly lastModified: string | undefined;
  private variants: Partial<Record<Encoding, Buffer>>;
  private pending: Partial<Record<Encoding, Promise<Buffer>>> = {};
  private lists: Partial<Record<Encoding, string[]>> = {};

  constructor(
    readonly body: Buffer,
    readonly headers: OutgoingHttpHeaders, // content-type, cache-control, x-total-count, last-modified…
    options: RepresentationOptions = {},
  ) {
    this.etag = etagOf(body);
    this.variants = { identity: body };
    this.compressible = options.compressible ?? true;
    this.ranges = options.ranges ?? false;
    const lastModified = headers['last-modified'];
    this.lastModified = typeof lastModified === 'string' ? lastModified : undefined;
  }

  /** Returns the ETag of the variant in `encoding`: distinct per encoding, as strong ETags must be. */
  etagFor(encoding: Encoding): string {
    return encoding === 'identity' ? this.etag : `${this.etag.slice(0, -1)}-${encoding}"`;
  }

  /** Bytes held: the body and every compressed variant made so far. */
  bytes(): number {
    let sum = 0;
    for (const data of Object.values(this.variants)) sum += data.length;
    return sum;
  }

  /** Returns the body in `encoding`, compressed off the event loop on first use (concurrent callers share it). */
  async variant(encoding: Encoding): Promise<Buffer> {
    const ready = this.variants[encoding];
    if (ready) return ready;
    let pending = this.pending[encoding];
    if (!pending) {
      pending =
        encoding === 'br'
          ? brotliAsync(this.body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } })
          : gzipAsync(this.body);
      this.pending[encoding] = pending;
    }
    const data = await pending;
    this.variants[encoding] = data;
    delete this.pending[encoding];
    return data;
  }

  /**
   * Answers `req`. `status` other than 200 (e.g. the 404 page) skips the
   * preconditions and ranges, which apply to a 2xx answer only (RFC 9110
   * §13.1). Returns a promise only when a compressed variant had to be made
   * (the representation grew); otherwise the response is complete on return.
   */
  send(req: IncomingMessage, res: ServerResponse, status = 200): void | Promise<void> {
    const encoding =
      this.compressible && this.body.length >= MIN_COMPRESS_BYTES
        ? negotiateEncoding(req.headers['accept-encoding'])
        : 'identity';
    if (status === 200 && isConditional(req)) {
      const ranges = this.ranges ? { size: this.body.length, etag: this.etag } : undefined;
      const decided = outcome(req, this.validators(encoding), ranges);
      if (decided.status === 206) return this.sendRange(req, res, decided.range);
      if (decided.status !== 200) {
        return sendShortAnswer(req, res, decided.status, this.notModifiedHeaders(encoding), this.body.length);
      }
    }
    const ready = this.variants[encoding];
    if (ready) return this.write(req, res, status, encoding, ready);
    return this.variant(encoding).then((data) => {
      if (!res.destroyed) this.write(req, res, status, encoding, data); // the client may have left meanwhile
    });
  }

  private validators(encoding: Encoding): Validators {
    return {
      etag: this.etagFor(encoding),
      alike: encoding === 'identity' ? [] : [this.etag],
      lastModified: this.lastModified,
    };
  }

  private write(req: IncomingMessage, res: ServerResponse, status: number, encoding: Encoding, data: Buffer) {
    res.writeHead(status, this.headerList(encoding));
    res.end(req.method === 'HEAD' ? undefined : data);
  }

  /** A range of the identity body (ranges are never compressed), tagged with the identity ETag. */
  private sendRange(req: IncomingMessage, res: ServerResponse, range: ByteRange): void {
    res.writeHead(206, {
      ...this.headers,
      [CORS_ORIGIN[0]]: CORS_ORIGIN[1],
      etag: this.etag,
      'accept-ranges': 'bytes',
      ...(this.compressible ? { vary: 'Accept-Encoding' } : {}), // the whole representation varies
      ...rangeHeaders(range, this.body.length),
    });
    res.end(req.method === 'HEAD' ? undefined : this.body.subarray(range.start, range.end + 1));
  }

  private notModifiedHeaders(encoding: Encoding): OutgoingHttpHeaders {
    return {
      etag: this.etagFor(encoding),
      'cache-control': this.headers['cache-control'] ?? 'no-cache',
      ...(this.compressible ? { vary: 'Accept-Encoding' } : {}),
      ...(this.lastModified === undefined ? {} : { 'last-modified': this.lastModified }),
    };
  }

  /**
   * Returns the full header list of the variant in `encoding`, flat ([name,
   * value, …]) and built once: writeHead() takes it as is, with nothing to
   * merge or validate per response beyond what node:http always does.
   */
  private headerList(encoding: Encoding): string[] {
    let list = this.lists[encoding];
    if (!list) {
      const headers: OutgoingHttpHeaders = {
        [CORS_ORIGIN[0]]: CORS_ORIGIN[1],
        ...this.headers,
        ...(this.ranges ? { 'accept-ranges': 'bytes' } : {}),
        etag: this.etagFor(encoding),
        ...(this.compressible ? { vary: 'Accept-Encoding' } : {}),
        ...(encoding === 'identity' ? {} : { 'content-encoding': encoding }),
        'content-length': this.variants[encoding]!.length,
      };
      list = Object.entries(headers).flatMap(([name, value]) => [name, String(value)]);
      this.lists[encoding] = list;
    }
    return list;
  }
}

/**
 * Sends the outcomes that carry no representation: 304 with `notModified`'s
 * headers, 412, or 416 with a Content-Range of "bytes *\/SIZE" (RFC 9110 §15.5.17).
 */
export function sendShortAnswer(
  req: IncomingMessage,
  res: ServerResponse,
  status: 304 | 412 | 416,
  notModified: OutgoingHttpHeaders,
  size: number,
): void {
  if (status === 304) return sendNotModified(res, notModified);
  if (status === 412) return sendError(req, res, 412);
  sendError(req, res, 416, 'Range Not Satisfiable', { 'content-range': `bytes */${size}` });
}

/** An LRU cache of response bodies bounded in bytes, not entries: a thousand 1 MB pages must not fit where a thousand tiny ones do. */
export type BodyCache<V extends NonNullable<unknown>> = LRUCache<string, V>;

/**
 * Returns a cache of at most `maxBytes` (each entry counted as `sizeOf(value)`
 * plus its key), or undefined when `maxBytes` is 0 (no cache). A value larger
 * than the whole budget is not kept.
 */
export function bodyCache<V extends NonNullable<unknown>>(
  maxBytes: number,
  sizeOf: (value: V) => number,
): BodyCache<V> | undefined {
  if (maxBytes <= 0) return undefined;
  return new LRUCache<string, V>({
    maxSize: maxBytes,
    sizeCalculation: (value, key) => Math.max(1, sizeOf(value) + key.length),
  });
}

/** Counts `key`'s value again after it grew (a compressed variant was added), evicting others to fit. */
export function remeasure<V extends NonNullable<unknown>>(
  cache: BodyCache<V> | undefined,
  key: string,
): void {
  const value = cache?.peek(key);
  if (value === undefined) return;
  cache!.delete(key);
  cache!.set(key, value);
}
