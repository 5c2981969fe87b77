// `serve --dist DIR`: the built site beside the API.
import { mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServer } from '../../src/server/app.ts';
import { buildDb, rawPathRequest, request, sampleRows, serve, tempDir } from './helpers.ts';

const SECRET = 'top secret, outside the site';

describe('static files (--dist)', () => {
  let server: RunningServer;
  let cleanup: () => Promise<void>;
  let base: string;
  const get = (path: string, headers: Record<string, string> = {}) => rawPathRequest(base, path, headers);

  beforeAll(async () => {
    const temp = await tempDir();
    cleanup = temp.cleanup;
    const dist = join(temp.dir, 'dist');
    const files: Record<string, string> = {
      'index.html': '<!doctype html><title>home</title>' + ' '.repeat(2000),
      '404.html': '<!doctype html><title>not here</title>',
      'about/index.html': '<!doctype html><title>about</title>',
      'assets/app-3f2a1b.js': 'console.log(1)',
      'assets/style-9c8d.css': 'body{}',
      'data/earth/CHL/manifest.json': '{"iso_a3":"CHL"}',
      'data/earth/CHL/CHL_ADM1.geojson': '{"type":"FeatureCollection","features":[]}',
      'icon.svg': '<svg xmlns="http://www.w3.org/2000/svg"/>',
      'favicon.ico': '\x00\x00\x01\x00',
      'robots.txt': 'User-agent: *',
      'sitemap.xml': '<urlset/>',
      'logo.png': '\x89PNG',
      'releases/2026.11/index.html': '<!doctype html><title>2026.11</title>',
      'releases/2026.11/data/earth/CHL/manifest.json': '{"iso_a3":"CHL"}',
      'openapi.json': '{"not":"the API document"}',
      '.env': 'SECRET=1',
    };
    for (const [name, content] of Object.entries(files)) {
      await mkdir(join(dist, name, '..'), { recursive: true });
      await writeFile(join(dist, name), content);
    }
    await writeFile(join(temp.dir, 'secret.txt'), SECRET);
    await symlink(join(temp.dir, 'secret.txt'), join(dist, 'link.txt'));
    await symlink(temp.dir, join(dist, 'escape'));
    await symlink(join(dist, 'robots.txt'), join(dist, 'inside.txt'));
    server = await serve({ db: await buildDb(temp.dir, sampleRows(3)), distDir: dist });
    base = server.url;
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it('content types by extension (GeoJSON as application/geo+json)', async () => {
    for (const [path, type] of [
      ['/', 'text/html; charset=utf-8'],
      ['/assets/app-3f2a1b.js', 'text/javascript; charset=utf-8'],
      ['/assets/style-9c8d.css', 'text/css; charset=utf-8'],
      ['/data/earth/CHL/manifest.json', 'application/json'],
      ['/data/earth/CHL/CHL_ADM1.geojson', 'application/geo+json'],
      ['/icon.svg', 'image/svg+xml'],
      ['/favicon.ico', 'image/x-icon'],
      ['/robots.txt', 'text/plain; charset=utf-8'],
      ['/sitemap.xml', 'application/xml'],
      ['/logo.png', 'image/png'],
    ]) {
      const reply = await get(path!);
      expect([path, reply.status, reply.headers['content-type']]).toEqual([path, 200, type]);
    }
  });

  it('caching: hashed assets/* a year and immutable; html and json revalidated; others an hour', async () => {
    expect((await get('/assets/app-3f2a1b.js')).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect((await get('/')).headers['cache-control']).toBe('no-cache');
    expect((await get('/about/')).headers['cache-control']).toBe('no-cache');
    expect((await get('/data/earth/CHL/manifest.json')).headers['cache-control']).toBe('no-cache');
    expect((await get('/logo.png')).headers['cache-control']).toBe('public, max-age=3600');
  });

  it('caching: a release’s files never change, so releases/* is a year and immutable', async () => {
    for (const path of ['/releases/2026.11/', '/releases/2026.11/data/earth/CHL/manifest.json']) {
      const reply = await get(path);
      expect([path, reply.status, reply.headers['cache-control']]).toEqual([
        path,
        200,
        'public, max-age=31536000, immutable',
      ]);
    }
  });

  it('ETag and 304 on If-None-Match', async () => {
    const first = await get('/data/earth/CHL/manifest.json');
    const again = await get('/data/earth/CHL/manifest.json', { 'if-none-match': first.headers.etag! });
    expect([again.status, again.body.length]).toEqual([304, 0]);
  });

  it('index.html for a folder; a folder without its slash → 301 to the slashed path', async () => {
    expect((await get('/about/')).text).toContain('<title>about</title>');
    const reply = await get('/about?x=1');
    expect([reply.status, reply.headers.location]).toEqual([301, '/about/?x=1']);
  });

  it('a missing file → 404 with the site’s 404.html', async () => {
    for (const path of ['/nope.html', '/about/missing/', '/data/earth/XYZ/manifest.json']) {
      const reply = await get(path);
      expect([path, reply.status, reply.headers['content-type']]).toEqual([
        path,
        404,
        'text/html; charset=utf-8',
      ]);
      expect(reply.text).toBe('<!doctype html><title>not here</title>');
    }
  });

  it('a missing file under /api/ → 404 JSON {"detail":"Not Found"}, not the HTML page', async () => {
    for (const path of ['/api/v1/earth/XYZ.json', '/api/nope']) {
      const reply = await get(path);
      expect([path, reply.status, reply.headers['content-type'], reply.text]).toEqual([
        path,
        404,
        'application/json',
        '{"detail":"Not Found"}',
      ]);
    }
  });

  it('compressed when asked, like the API', async () => {
    const reply = await get('/', { 'accept-encoding': 'gzip' });
    expect(reply.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(reply.body).toString()).toContain('<title>home</title>');
  });

  it('HEAD → headers only; other methods → 405 with Allow', async () => {
    const head = await request(`${base}/robots.txt`, { method: 'HEAD' });
    expect([head.status, head.headers['content-length'], head.body.length]).toEqual([200, '13', 0]);
    const post = await request(`${base}/robots.txt`, { method: 'POST' });
    expect([post.status, post.headers.allow]).toEqual([405, 'GET, HEAD']);
  });

  it('no path traversal: .., %2e%2e, encoded slashes, NUL bytes, dot files, symlinks out of the folder', async () => {
    const attempts = [
      '/../secret.txt',
      '/%2e%2e/secret.txt',
      '/%2E%2E/secret.txt',
      '/assets/../../secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%2fsecret.txt',
      '/%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/robots.txt%00.png',
      '/%00',
      '/.env',
      '/link.txt',
      '/escape/secret.txt',
      '//secret.txt',
      '/%',
    ];
    for (const path of attempts) {
      const reply = await get(path);
      expect([path, reply.text.includes(SECRET)]).toEqual([path, false]);
      expect([path, [400, 404].includes(reply.status)]).toEqual([path, true]);
    }
    expect((await get('/robots.txt%00.png')).status).toBe(400);
    expect((await get('/inside.txt')).status).toBe(200); // a symlink inside the folder is fine
  });

  it('/ubicaciones/… and /openapi.json take precedence over files', async () => {
    const doc = (await get('/openapi.json')).json() as { openapi?: string };
    expect(doc.openapi).toMatch(/^3\./);
    expect((await get('/ubicaciones/')).json()).toHaveLength(3);
    const unknown = await get('/ubicaciones/nope/');
    expect([unknown.status, unknown.text]).toEqual([404, '{"detail":"Not Found"}']);
  });
});
