// One test walks every route with bad input and checks that every error has
// the one shape built by errorBody(): {"detail": string | [{type, loc, msg, input, ctx?}]}.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocationStore } from '../../src/locations/db.ts';
import type { RunningServer } from '../../src/server/app.ts';
import { errorBody } from '../../src/server/errors.ts';
import { buildDb, recordingLogger, request, sampleRows, serve, tempDir, type Reply } from './helpers.ts';

const ROUTES = [
  '/ubicaciones/',
  '/ubicaciones/convenience/',
  '/ubicaciones/bencineras/',
  '/ubicaciones/servicios/',
  '/ubicaciones/otros/',
];

function expectErrorShape(label: string, reply: Reply): void {
  expect([label, reply.headers['content-type']]).toEqual([label, 'application/json']);
  expect([label, reply.headers['access-control-allow-origin']]).toEqual([label, '*']);
  const body = reply.json() as { detail: unknown };
  expect([label, Object.keys(body)]).toEqual([label, ['detail']]);
  if (typeof body.detail === 'string') return;
  expect([label, reply.status]).toEqual([label, 422]);
  for (const issue of body.detail as Record<string, unknown>[]) {
    expect(Object.keys(issue).slice(0, 4)).toEqual(['type', 'loc', 'msg', 'input']);
    expect((issue.loc as string[])[0]).toBe('query');
    expect(['skip', 'limit']).toContain((issue.loc as string[])[1]);
    expect(typeof issue.msg).toBe('string');
  }
  expect(reply.text).toBe(errorBody(body.detail as never));
}

describe('every HTTP error has one shape', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    // only bencineras: the other typed routes answer 404
    server = await serve({ db: await buildDb(temp.dir, sampleRows(5, ['bencinera'])) });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it('every route with bad input, bad method or no data answers {"detail": …}', async () => {
    const bad = ['limit=0', 'limit=x', 'skip=-1', 'skip=1.5&limit=', `skip=${'9'.repeat(5000)}`];
    let checked = 0;
    for (const route of ROUTES) {
      for (const query of bad) {
        const reply = await request(`${server.url}${route}?${query}`);
        expect(reply.status).toBe(422);
        expectErrorShape(`${route}?${query}`, reply);
        checked++;
      }
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS']) {
        const reply = await request(`${server.url}${route}`, { method });
        expect(reply.status).toBe(405);
        expectErrorShape(`${method} ${route}`, reply);
        checked++;
      }
      const past = await request(`${server.url}${route}?skip=1000`);
      if (route !== '/ubicaciones/') {
        expect(past.status).toBe(404);
        expectErrorShape(`${route}?skip=1000`, past);
        checked++;
      }
    }
    for (const path of ['/', '/nope', '/ubicaciones/x/', '/openapi.json?x']) {
      const reply = await request(`${server.url}${path}`, {
        method: path === '/openapi.json?x' ? 'POST' : 'GET',
      });
      expectErrorShape(path, reply);
      checked++;
    }
    expect(checked).toBe(5 * 10 + 4 + 4); // routes × (bad queries + methods), typed 404s, other paths
  });
});

describe('an unexpected error (a bug)', () => {
  it('→ 500 {"detail":"Internal Server Error"}, the stack in the log only', async () => {
    const broken: LocationStore = {
      path: 'broken',
      layout: 'indexed',
      indexBytes: 0,
      table: 'locations',
      count: () => 10,
      page: () => {
        throw new Error('disk on fire');
      },
      close: () => undefined,
    };
    const log = recordingLogger();
    const server = await serve({ db: broken, log });
    try {
      const reply = await request(`${server.url}/ubicaciones/`);
      expect(reply.status).toBe(500);
      expect(reply.text).toBe('{"detail":"Internal Server Error"}');
      expectErrorShape('500', reply);
      expect(log.entries).toHaveLength(1);
      expect(log.entries[0]).toMatchObject({
        level: 'error',
        event: 'unexpected-error',
        msg: 'unexpected error on GET /ubicaciones/',
        method: 'GET',
        url: '/ubicaciones/',
        error: 'disk on fire',
      });
      expect(log.entries[0]!.stack).toMatch(/^Error: disk on fire\n\s+at /);
    } finally {
      await server.close();
    }
  });
});

describe('a database locked by a writer for longer than the busy timeout', () => {
  it('→ 503 {"detail":"Service Unavailable"} with Retry-After: 1, nothing logged as a bug', async () => {
    const locked: LocationStore = {
      path: 'locked',
      layout: 'indexed',
      indexBytes: 0,
      table: 'locations',
      count: () => 10,
      page: () => {
        throw Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
      },
      close: () => undefined,
    };
    const log = recordingLogger();
    const server = await serve({ db: locked, watch: false, log });
    try {
      const reply = await request(`${server.url}/ubicaciones/`);
      expect(reply.status).toBe(503);
      expect(reply.text).toBe('{"detail":"Service Unavailable"}');
      expect(reply.headers['retry-after']).toBe('1');
      expect(log.entries).toEqual([]);
    } finally {
      await server.close();
    }
  });
});
