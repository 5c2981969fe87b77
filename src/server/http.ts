// HTTP helpers shared by the API and the static files: strong ETags with 304,
// content negotiation for gzip/brotli, HEAD, CORS.
import { createHash } from 'node:crypto';
import type { IncomingMessage, OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';

// the callback forms run on libuv's thread pool: a big body never blocks the event loop
const brotliAsync = promisify(brotliCompress);
const gzipAsync = promisify(gzip);

export type Encoding = 'br' | 'gzip' | 'identity';

/** Bodies smaller than this are sent as is: compressing them saves nothing. */
export const MIN_COMPRESS_BYTES = 1024;

/** Returns the best encoding `accept-encoding` allows: br, then gzip, else identity. */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  const q = new Map<string, number>();
  for (const part of header.split(',')) {
    const [token, ...params] = part.trim().toLowerCase().split(';');
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    q.set(token!, qParam ? Number(qParam.slice(2)) || 0 : 1);
  }
  const allowed = (name: string) => (q.get(name) ?? q.get('*') ?? 0) > 0;
  if (allowed('br')) return 'br';
  if (allowed('gzip')) return 'gzip';
  return 'identity';
}

/** Returns true when `if-none-match` lists one of `etags` (weak comparison, as RFC 9110 asks) or "*". */
export function etagMatches(header: string | undefined, etags: string[]): boolean {
  if (!header) return false;
  return header.split(',').some((raw) => {
    const tag = raw.trim().replace(/^W\//, '');
    return tag === '*' || etags.includes(tag);
  });
}

/** Returns a strong ETag of `body`, e.g. "\"pX4…\"". */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/**
 * One response body with its headers; compressed variants are made on first
 * use and kept, so a cached representation is compressed once.
 */
export class Representation {
  readonly etag: string;
  private variants: Partial<Record<Encoding, Buffer>>;
  private pending: Partial<Record<Encoding, Promise<Buffer>>> = {};
  private lists: Partial<Record<Encoding, string[]>> = {};

  constructor(
    readonly body: Buffer,
    readonly headers: OutgoingHttpHeaders, // content-type, cache-control, x-total-count…
    readonly compressible = true,
  ) {
    this.etag = etagOf(body);
    this.variants = { identity: body };
  }

  /** Returns the ETag of the variant in `encoding`: distinct per encoding, as strong ETags must be. */
  etagFor(encoding: Encoding): string {
    return encoding === 'identity' ? this.etag : `${this.etag.slice(0, -1)}-${encoding}"`;
  }

  /** Bytes held: the body and every compressed variant made so far. */
  bytes(): number {
    return Object.values(this.variants).reduce((sum, data) => sum + data.length, 0);
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

  /** Returns the full header list of the variant in `encoding`, flat ([name, value, …]), built once. */
  private headerList(encoding: Encoding): string[] {
    let list = this.lists[encoding];
    if (!list) {
      const headers: OutgoingHttpHeaders = {
        ...this.headers,
        'access-control-allow-origin': '*',
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

  /** Sends the representation (or 304) for `req`, compressed when asked and worthwhile. */
  async send(req: IncomingMessage, res: ServerResponse, status = 200): Promise<void> {
    const encoding =
      this.compressible && this.body.length >= MIN_COMPRESS_BYTES
        ? negotiateEncoding(req.headers['accept-encoding'])
        : 'identity';
    const ifNoneMatch = req.headers['if-none-match'];
    if (status === 200 && ifNoneMatch && etagMatches(ifNoneMatch, [this.etagFor(encoding), this.etag])) {
      res.writeHead(304, {
        'access-control-allow-origin': '*',
        etag: this.etagFor(encoding),
        'cache-control': this.headers['cache-control'] ?? 'no-cache',
        ...(this.compressible ? { vary: 'Accept-Encoding' } : {}),
      });
      res.end();
      return;
    }
    const data = await this.variant(encoding);
    if (res.destroyed) return; // the client left while the body was compressed
    res.writeHead(status, this.headerList(encoding));
    res.end(req.method === 'HEAD' ? undefined : data);
  }
}
