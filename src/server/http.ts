// HTTP helpers shared by the API and the static files: the one way a status
// line and headers are written (CORS included), strong ETags, the one 304,
// and content negotiation for gzip/brotli.
import { createHash } from 'node:crypto';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

export type Encoding = 'br' | 'gzip' | 'identity';

/** Every response may be read from any origin: the API and the catalogue are public data. */
export const CORS_ORIGIN = ['access-control-allow-origin', '*'] as const;

/**
 * Writes the status line and `headers` with Access-Control-Allow-Origin.
 * Every response is started here, or by a Representation, whose prebuilt
 * header lists carry the same header.
 */
export function writeHead(res: ServerResponse, status: number, headers: OutgoingHttpHeaders): void {
  res.writeHead(status, { [CORS_ORIGIN[0]]: CORS_ORIGIN[1], ...headers });
}

/**
 * Sends 304 Not Modified with the headers a 200 would have carried that
 * caches need (RFC 9110 §15.4.5): ETag, Cache-Control, Vary, Last-Modified.
 */
export function sendNotModified(res: ServerResponse, headers: OutgoingHttpHeaders): void {
  writeHead(res, 304, headers);
  res.end();
}

const encodings = new Map<string, Encoding>(); // Accept-Encoding value → choice; clients send a handful of values
const MAX_REMEMBERED_ENCODINGS = 256;

/** Returns the best encoding `accept-encoding` allows: br, then gzip, else identity. */
export function negotiateEncoding(header: string | undefined): Encoding {
  if (!header) return 'identity';
  let choice = encodings.get(header);
  if (choice === undefined) {
    choice = parseAcceptEncoding(header);
    if (encodings.size >= MAX_REMEMBERED_ENCODINGS) encodings.clear();
    encodings.set(header, choice);
  }
  return choice;
}

function parseAcceptEncoding(header: string): Encoding {
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

/** Returns a strong ETag of `body`, e.g. "\"pX4…\"". */
export function etagOf(body: Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}
