// Names every JS object carries (constructor, __proto__, toString…) are neither
// routes nor location types: lookups go through Maps, never plain objects.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { formatProblem } from '../../build/core/problem.ts';
import { importLocations } from '../../src/locations/import.ts';
import { normaliseType } from '../../src/locations/normalise.ts';
import type { RunningServer } from '../../src/server/app.ts';
import { buildDb, request, sampleRows, serve, tempDir } from './helpers.ts';

const NAMES = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf', '__defineGetter__'];

describe('object-prototype names', () => {
  let server: RunningServer;
  let dir: string;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ dir, cleanup } = await tempDir());
    server = await serve({ db: await buildDb(dir, sampleRows(8)) });
  });
  afterAll(async () => {
    await server.close();
    await cleanup();
  });

  it.each(NAMES)('/ubicaciones/%s/ is a plain 404 Not Found', async (name) => {
    const reply = await request(`${server.url}/ubicaciones/${name}/`);
    expect(reply.status).toBe(404);
    expect(reply.json()).toEqual({ detail: 'Not Found' });
  });

  it.each(NAMES)('/ubicaciones/%s (no slash) is a 404, not a redirect', async (name) => {
    expect((await request(`${server.url}/ubicaciones/${name}`)).status).toBe(404);
  });

  it.each(NAMES)('"%s" is not a location type', (name) => {
    expect(normaliseType(name)).toBeUndefined();
  });

  it('an import row whose type is "constructor" is a row error, and nothing is written', async () => {
    const input = join(dir, 'proto.csv');
    await writeFile(input, 'name,type,latitude,longitude\nA,constructor,1,2\nB,__proto__,1,2\nC,otro,1,2\n');
    const result = await importLocations({ files: [input], db: join(dir, 'proto.sqlite') });
    const lines = result.problems.map(formatProblem).join('\n');
    expect(lines).toMatch(/proto\.csv:2: .*type "constructor" is not one of/);
    expect(lines).toMatch(/proto\.csv:3: .*type "__proto__" is not one of/);
    expect(result.inserted).toBe(0);
  });
});
