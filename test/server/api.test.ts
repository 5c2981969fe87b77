import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { buildDb, request, sampleRows, serve, tempDir } from './helpers.ts';

interface Loc {
  id: string;
  name: string;
  description: string;
  type: string;
  latitude: number;
  longitude: number;
}

// 250 rows cycling convenience, bencinera, servicio (no "otro"): 84 + 83 + 83.
const ROWS = sampleRows(250, ['convenience', 'bencinera', 'servicio']);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each([
  ['with the response cache', 64 * 1024 * 1024],
  ['without the response cache', 0],
])('locations API %s', (_label, responseCache) => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let base: string;
  const get = (path: string, headers: Record<string, string> = {}) => request(base + path, { headers });

  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    server = await serve({ db: await buildDb(temp.dir, ROWS), responseCacheBytes: responseCache });
    base = server.url;
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  describe('listing', () => {
    it('no parameters → the first 100 records in import order', async () => {
      const reply = await get('/ubicaciones/');
      expect(reply.status).toBe(200);
      const body = reply.json() as Loc[];
      expect(body.map((l) => l.name)).toEqual(ROWS.slice(0, 100).map((r) => r.name));
    });

    it('records have the keys id, name, description, type, latitude, longitude in that order; ids are lowercase hyphenated UUIDs', async () => {
      const [first] = (await get('/ubicaciones/?limit=1')).json() as Loc[];
      expect(Object.keys(first!)).toEqual(['id', 'name', 'description', 'type', 'latitude', 'longitude']);
      expect(first!.id).toMatch(UUID);
      expect(first).toMatchObject({ name: 'Lugar 0', type: 'convenience', latitude: -33, longitude: -70 });
    });

    it('Content-Type is application/json', async () => {
      expect((await get('/ubicaciones/')).headers['content-type']).toBe('application/json');
    });

    it('skip and limit → at most limit records after skipping skip', async () => {
      const body = (await get('/ubicaciones/?skip=240&limit=5')).json() as Loc[];
      expect(body.map((l) => l.name)).toEqual([
        'Lugar 240',
        'Lugar 241',
        'Lugar 242',
        'Lugar 243',
        'Lugar 244',
      ]);
      const tail = (await get('/ubicaciones/?skip=245&limit=50')).json() as Loc[];
      expect(tail.map((l) => l.name)).toEqual(ROWS.slice(245).map((r) => r.name));
    });

    it('each typed route lists only its type, in import order, with paging', async () => {
      for (const [route, type] of [
        ['convenience', 'convenience'],
        ['bencineras', 'bencinera'],
        ['servicios', 'servicio'],
      ]) {
        const expected = ROWS.filter((r) => r.type === type).map((r) => r.name);
        const body = (await get(`/ubicaciones/${route}/?skip=10&limit=20`)).json() as Loc[];
        expect(body.map((l) => l.name)).toEqual(expected.slice(10, 30));
        expect(new Set(body.map((l) => l.type))).toEqual(new Set([type]));
      }
    });

    it('X-Total-Count is the number of records of the route', async () => {
      expect((await get('/ubicaciones/?limit=1')).headers['x-total-count']).toBe('250');
      expect((await get('/ubicaciones/convenience/')).headers['x-total-count']).toBe('84');
      expect((await get('/ubicaciones/bencineras/')).headers['x-total-count']).toBe('83');
    });

    it('a huge limit means all', async () => {
      const body = (await get(`/ubicaciones/?limit=${'9'.repeat(60)}`)).json() as Loc[];
      expect(body).toHaveLength(250);
    });

    it('a huge skip is past the end: [] for /ubicaciones/, 404 for a typed route', async () => {
      const huge = '9'.repeat(60);
      const all = await get(`/ubicaciones/?skip=${huge}`);
      expect([all.status, all.json()]).toEqual([200, []]);
      const typed = await get(`/ubicaciones/bencineras/?skip=${huge}`);
      expect([typed.status, typed.json()]).toEqual([
        404,
        { detail: 'No se encontraron ubicaciones de tipo bencinera' },
      ]);
    });

    it('lax integers are accepted like pydantic: " 5 ", "1_0", "10.0", "+3", "007"', async () => {
      for (const [limit, count] of [
        ['%205%20', 5],
        ['1_0', 10],
        ['10.0', 10],
        ['%2B3', 3],
        ['007', 7],
      ] as const) {
        expect((await get(`/ubicaciones/?limit=${limit}`)).json()).toHaveLength(count);
      }
    });

    it('a repeated parameter: the last value wins', async () => {
      expect((await get('/ubicaciones/?limit=1&limit=3')).json()).toHaveLength(3);
    });

    it('unknown query parameters are ignored', async () => {
      expect((await get('/ubicaciones/?foo=bar&limit=2&page=9')).json()).toHaveLength(2);
    });
  });

  describe('422 bodies are FastAPI’s, exactly', () => {
    const cases: [string, string][] = [
      [
        'limit=0',
        '{"detail":[{"type":"greater_than","loc":["query","limit"],"msg":"Input should be greater than 0","input":"0","ctx":{"gt":0}}]}',
      ],
      [
        'limit=-3',
        '{"detail":[{"type":"greater_than","loc":["query","limit"],"msg":"Input should be greater than 0","input":"-3","ctx":{"gt":0}}]}',
      ],
      [
        'limit=abc',
        '{"detail":[{"type":"int_parsing","loc":["query","limit"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"abc"}]}',
      ],
      [
        'skip=-1',
        '{"detail":[{"type":"greater_than_equal","loc":["query","skip"],"msg":"Input should be greater than or equal to 0","input":"-1","ctx":{"ge":0}}]}',
      ],
      [
        'limit=',
        '{"detail":[{"type":"int_parsing","loc":["query","limit"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":""}]}',
      ],
      [
        'limit=1.5',
        '{"detail":[{"type":"int_parsing","loc":["query","limit"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"1.5"}]}',
      ],
      [
        `skip=${'1'.repeat(4301)}`,
        `{"detail":[{"type":"int_parsing_size","loc":["query","skip"],"msg":"Unable to parse input string as an integer, exceeded maximum size","input":"${'1'.repeat(4301)}"}]}`,
      ],
      [
        // 16 KB of "+" (spaces): the shape that held the event loop while a regex trimmed it
        `skip=1${'+'.repeat(16_000)}x`,
        `{"detail":[{"type":"int_parsing","loc":["query","skip"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"1${' '.repeat(16_000)}x"}]}`,
      ],
      [
        'limit=0&skip=x',
        '{"detail":[{"type":"int_parsing","loc":["query","skip"],"msg":"Input should be a valid integer, unable to parse string as an integer","input":"x"},{"type":"greater_than","loc":["query","limit"],"msg":"Input should be greater than 0","input":"0","ctx":{"gt":0}}]}',
      ],
    ];
    for (const [query, body] of cases) {
      it(`${query.slice(0, 40)} → 422 ${JSON.parse(body)
        .detail.map((d: { type: string }) => d.type)
        .join(', ')}`, async () => {
        for (const route of ['/ubicaciones/', '/ubicaciones/servicios/', '/ubicaciones/otros/']) {
          const reply = await get(`${route}?${query}`);
          expect(reply.status).toBe(422);
          expect(reply.headers['content-type']).toBe('application/json');
          expect(reply.text).toBe(body);
        }
      });
    }
  });

  describe('404, 307, 405', () => {
    it('a typed route with no location of its type → 404 with the original text', async () => {
      const reply = await get('/ubicaciones/otros/');
      expect(reply.status).toBe(404);
      expect(reply.text).toBe('{"detail":"No se encontraron ubicaciones de tipo otro"}');
    });

    it('a typed page past its end → 404', async () => {
      const reply = await get('/ubicaciones/convenience/?skip=84');
      expect([reply.status, reply.json()]).toEqual([
        404,
        { detail: 'No se encontraron ubicaciones de tipo convenience' },
      ]);
    });

    it('unknown paths → 404 {"detail":"Not Found"}', async () => {
      for (const path of [
        '/',
        '/nope',
        '/ubicaciones/prontos/',
        '/ubicaciones/otros/x/',
        '/ubicacionesx/',
        '/ubicaciones//',
      ]) {
        const reply = await get(path);
        expect([path, reply.status, reply.text]).toEqual([path, 404, '{"detail":"Not Found"}']);
      }
    });

    it('a path without its trailing slash → 307 to the slashed path on the request’s host, query kept', async () => {
      const reply = await get('/ubicaciones/bencineras?skip=2&limit=3');
      expect(reply.status).toBe(307);
      expect(reply.headers.location).toBe(`${base}/ubicaciones/bencineras/?skip=2&limit=3`);
      const other = await get('/ubicaciones', { host: 'api.example:9000' });
      expect(other.headers.location).toBe('http://api.example:9000/ubicaciones/');
    });

    it('/openapi.json/ → 307 to /openapi.json (Starlette toggles the slash both ways)', async () => {
      const reply = await get('/openapi.json/');
      expect([reply.status, reply.headers.location]).toEqual([307, `${base}/openapi.json`]);
    });

    it('trailing slashes are all stripped, however many: 16 KB of them → 307 or 404 as for one', async () => {
      const slashes = '/'.repeat(16_000);
      const reply = await get(`/openapi.json${slashes}`);
      expect([reply.status, reply.headers.location]).toEqual([307, `${base}/openapi.json`]);
      const none = await get(`${slashes}x/`); // once quadratic: a run of slashes, then no match
      expect([none.status, none.text]).toEqual([404, '{"detail":"Not Found"}']);
    });

    it('methods other than GET and HEAD → 405 {"detail":"Method Not Allowed"} with Allow: GET, HEAD', async () => {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
        const reply = await request(`${base}/ubicaciones/`, { method });
        expect([reply.status, reply.text, reply.headers.allow]).toEqual([
          405,
          '{"detail":"Method Not Allowed"}',
          'GET, HEAD',
        ]);
      }
    });
  });

  describe('beyond the original', () => {
    it('HEAD → the GET headers (length included), no body', async () => {
      const got = await get('/ubicaciones/?limit=3');
      const head = await request(`${base}/ubicaciones/?limit=3`, { method: 'HEAD' });
      expect(head.status).toBe(200);
      expect(head.body.length).toBe(0);
      for (const name of [
        'content-type',
        'content-length',
        'etag',
        'x-total-count',
        'link',
        'cache-control',
      ]) {
        expect([name, head.headers[name]]).toEqual([name, got.headers[name]]);
      }
    });

    it('strong ETag; If-None-Match with it → 304 without body', async () => {
      const first = await get('/ubicaciones/?limit=5');
      const etag = first.headers.etag!;
      expect(etag).toMatch(/^"[^"]+"$/);
      const again = await get('/ubicaciones/?limit=5', { 'if-none-match': etag });
      expect([again.status, again.body.length, again.headers.etag]).toEqual([304, 0, etag]);
      expect((await get('/ubicaciones/?limit=5', { 'if-none-match': `"x", W/${etag}` })).status).toBe(304);
      expect((await get('/ubicaciones/?limit=6', { 'if-none-match': etag })).status).toBe(200);
    });

    it('Cache-Control on pages', async () => {
      expect((await get('/ubicaciones/')).headers['cache-control']).toBe('public, max-age=60');
    });

    it('CORS: Access-Control-Allow-Origin: * on success and errors; paging headers exposed', async () => {
      const ok = await get('/ubicaciones/', { origin: 'https://app.example' });
      expect(ok.headers['access-control-allow-origin']).toBe('*');
      expect(ok.headers['access-control-expose-headers']).toContain('X-Total-Count');
      for (const path of ['/ubicaciones/?limit=0', '/ubicaciones/otros/', '/nope']) {
        expect((await get(path)).headers['access-control-allow-origin']).toBe('*');
      }
    });

    it('CORS preflight (OPTIONS with Access-Control-Request-Method) → 204; a plain OPTIONS → 405', async () => {
      const preflight = await request(`${base}/ubicaciones/`, {
        method: 'OPTIONS',
        headers: { origin: 'https://app.example', 'access-control-request-method': 'GET' },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers['access-control-allow-origin']).toBe('*');
      expect(preflight.headers['access-control-allow-methods']).toBe('GET, HEAD');
      expect((await request(`${base}/ubicaciones/`, { method: 'OPTIONS' })).status).toBe(405);
    });

    it('gzip and brotli when asked, Vary: Accept-Encoding, same JSON', async () => {
      const plain = await get('/ubicaciones/');
      expect(plain.headers.vary).toBe('Accept-Encoding');
      expect(plain.headers['content-encoding']).toBeUndefined();
      const gzip = await get('/ubicaciones/', { 'accept-encoding': 'gzip' });
      expect(gzip.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gzip.body).equals(plain.body)).toBe(true);
      const br = await get('/ubicaciones/', { 'accept-encoding': 'gzip, deflate, br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(brotliDecompressSync(br.body).equals(plain.body)).toBe(true);
      expect(new Set([plain.headers.etag, gzip.headers.etag, br.headers.etag]).size).toBe(3);
      expect(
        (await get('/ubicaciones/', { 'accept-encoding': 'br;q=0, gzip' })).headers['content-encoding'],
      ).toBe('gzip');
    });

    for (const route of ['/ubicaciones/', '/ubicaciones/servicios/']) {
      it(`following Link rel="next" on ${route} sees every record exactly once`, async () => {
        const seen: string[] = [];
        let next: string | undefined = `${route}?limit=7`;
        let pages = 0;
        while (next) {
          const reply = await get(next);
          expect(reply.status).toBe(200);
          seen.push(...(reply.json() as Loc[]).map((l) => l.name));
          if (pages > 0) expect(reply.headers.link).toContain('rel="prev"');
          next = /<([^>]+)>; rel="next"/.exec(String(reply.headers.link ?? ''))?.[1];
          pages++;
        }
        const expected = ROWS.filter((r) => route === '/ubicaciones/' || r.type === 'servicio').map(
          (r) => r.name,
        );
        expect(seen).toEqual(expected);
        expect(new Set(seen).size).toBe(seen.length);
      });
    }

    it('GET /openapi.json describes every route and the paging parameters', async () => {
      const reply = await get('/openapi.json');
      expect(reply.status).toBe(200);
      const doc = reply.json() as {
        openapi: string;
        paths: Record<string, { get: { parameters: { name: string }[] } }>;
      };
      expect(doc.openapi).toMatch(/^3\./);
      expect(Object.keys(doc.paths).sort()).toEqual(
        [
          '/ubicaciones/',
          '/ubicaciones/bencineras/',
          '/ubicaciones/convenience/',
          '/ubicaciones/otros/',
          '/ubicaciones/servicios/',
        ].sort(),
      );
      expect(doc.paths['/ubicaciones/']!.get.parameters.map((p) => p.name)).toEqual(['skip', 'limit']);
    });

    it('every operation has FastAPI’s default operationId, from the original service’s functions, each distinct', async () => {
      // generate_unique_id: function name + path with every non-word character "_", then "_get"
      const doc = (await get('/openapi.json')).json() as {
        paths: Record<string, { get: { operationId?: string } }>;
      };
      const ids = Object.entries(doc.paths).map(([path, item]) => [path, item.get.operationId]);
      expect(ids).toEqual([
        ['/ubicaciones/', 'get_ubicaciones_ubicaciones__get'],
        ['/ubicaciones/convenience/', 'get_prontos_ubicaciones_convenience__get'],
        ['/ubicaciones/bencineras/', 'get_bencineras_ubicaciones_bencineras__get'],
        ['/ubicaciones/servicios/', 'get_servicios_ubicaciones_servicios__get'],
        ['/ubicaciones/otros/', 'get_otros_ubicaciones_otros__get'],
      ]);
      expect(new Set(ids.map(([, id]) => id)).size).toBe(ids.length);
    });
  });
});

describe('an empty database', () => {
  it('/ubicaciones/ never 404s: [] with X-Total-Count 0; typed routes 404', async () => {
    const temp = await tempDir();
    const server = await serve({ db: await buildDb(temp.dir, []) });
    try {
      const all = await request(`${server.url}/ubicaciones/`);
      expect([all.status, all.text, all.headers['x-total-count']]).toEqual([200, '[]', '0']);
      expect((await request(`${server.url}/ubicaciones/convenience/`)).status).toBe(404);
    } finally {
      await server.close();
      await temp.cleanup();
    }
  });
});
