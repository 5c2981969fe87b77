// One test walks every route of the server's own route table (API_ROUTES)
// with bad input and checks that every error has the one shape built by
// errorBody(): {"detail": string | [{type, loc, msg, input, ctx?}]}. A route
// added to the table is walked without a change here.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LocationStore } from '../../src/locations/db.ts';
import type { RunningServer } from '../../src/server/app.ts';
import { errorBody } from '../../src/server/errors.ts';
import { API_ROUTES } from '../../src/server/routes.ts';
import { buildDb, recordingLogger, request, sampleRows, serve, tempDir, type Reply } from './helpers.ts';

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

  it('every route of the table with bad input, bad method or no data answers {"detail": …}', async () => {
    const bad = ['limit=0', 'limit=x', 'skip=-1', 'skip=1.5&limit=', `skip=${'9'.repeat(5000)}`];
    const methods = ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'];
    const checked: string[] = [];
    for (const route of API_ROUTES) {
      const { path } = route;
      for (const query of route.kind === 'list' ? bad : []) {
        const reply = await request(`${server.url}${path}?${query}`);
        expect([`${path}?${query}`, reply.status]).toEqual([`${path}?${query}`, 422]);
        expectErrorShape(`${path}?${query}`, reply);
        checked.push(`${path} 422`);
      }
      for (const method of methods) {
        const reply = await request(`${server.url}${path}`, { method });
        expect([`${method} ${path}`, reply.status]).toEqual([`${method} ${path}`, 405]);
        expectErrorShape(`${method} ${path}`, reply);
        checked.push(`${path} 405`);
      }
      if (route.kind === 'list' && route.type !== null) {
        const past = await request(`${server.url}${path}?skip=1000`);
        expect([path, past.status]).toEqual([path, 404]);
        expectErrorShape(`${path}?skip=1000`, past);
        checked.push(`${path} 404`);
      }
    }
    for (const path of ['/', '/nope', '/ubicaciones/x/', '/openapi.json/x']) {
      expectErrorShape(path, await request(`${server.url}${path}`));
      checked.push(`${path} other`);
    }
    // every route was walked: each list with bad queries and methods, each typed list past its end
    const lists = API_ROUTES.filter((r) => r.kind === 'list');
    const typed = lists.filter((r) => r.type !== null);
    expect(lists.length).toBeGreaterThanOrEqual(5);
    expect(checked).toHaveLength(
      lists.length * bad.length + API_ROUTES.length * methods.length + typed.length + 4,
    );
    expect(new Set(checked.map((c) => c.split(' ')[0]))).toEqual(
      new Set([...API_ROUTES.map((r) => r.path), '/', '/nope', '/ubicaciones/x/', '/openapi.json/x']),
    );
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
