// The one cache design (build/core/cache.ts), by its rules: every cache is
// kept with the code's identity and the lockfile's, so another lockfile (a
// dependency upgraded) or other compiled code invalidates it; a damaged,
// truncated or hostile file is a miss, never a crash; a save is atomic, so a
// command killed mid-save leaves a whole file.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CacheEntries,
  codeIdentity,
  readCacheFile,
  readCacheFileSync,
  readIdentity,
  saveCacheFile,
} from '../../build/core/cache.ts';
import { isObject } from '../../build/core/json-value.ts';
import { MeasurementCache } from '../../build/measure/cache.ts';
import { bundled } from '../support/bundle.ts';
import { CHILD_BOUND_MS } from '../support/cli.ts';

const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-cache-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let dirs = 0;
const fresh = (name = 'dir') => {
  const dir = join(scratch, `${name}-${++dirs}`);
  mkdirSync(dir, { recursive: true });
  return dir;
};

/** A package as the identity sees it: lib/'s record of its outputs, and a lockfile. */
function fakePackage(dir = fresh('package')): string {
  mkdirSync(join(dir, 'lib'), { recursive: true });
  const record = {
    version: 3,
    tools: { esbuild: '0.28.2' },
    inputs: { 'build/core/cache.ts': { sha256: 'a'.repeat(64), size: 10, mtimeMs: 1 } },
    outputs: { 'src/cli/main.js': { size: 10, sha256: 'b'.repeat(64) } },
  };
  writeFileSync(join(dir, 'lib/sources.json'), JSON.stringify(record));
  writeFileSync(join(dir, 'package-lock.json'), lockfile('0.15.7'));
  return dir;
}

/** A lockfile that pins polygon-clipping at `version`. */
function lockfile(version: string): string {
  const entry = {
    version,
    resolved: `https://registry.npmjs.org/polygon-clipping/-/polygon-clipping-${version}.tgz`,
  };
  return JSON.stringify({
    name: 'geoshelf',
    lockfileVersion: 3,
    packages: { 'node_modules/polygon-clipping': entry },
  });
}

/** Edits lib/sources.json of the package `dir`. */
function editRecord(
  dir: string,
  edit: (record: { inputs: Record<string, object>; outputs: Record<string, object> }) => void,
) {
  const path = join(dir, 'lib/sources.json');
  const record = JSON.parse(readFileSync(path, 'utf8')) as Parameters<typeof edit>[0];
  edit(record);
  writeFileSync(path, JSON.stringify(record));
}

const isString = (value: unknown): value is string => typeof value === 'string';
const isInteger = (value: unknown): value is number => Number.isInteger(value);

describe('cache: the stamp is the code’s identity and the lockfile’s', () => {
  it('a lockfile change (a dependency upgraded) invalidates: another identity, and what the old one kept is a miss', async () => {
    const pkg = fakePackage();
    const before = readIdentity(pkg);
    expect(readIdentity(pkg)).toBe(before); // the same package, the same identity
    const file = join(fresh(), 'answers.json');
    const kept = new CacheEntries(file, isString, before);
    await kept.set('CHL_ADM1', 'worked out with polygon-clipping 0.15.7');
    await kept.save();
    expect(await new CacheEntries(file, isString, before).get('CHL_ADM1')).toBe(
      'worked out with polygon-clipping 0.15.7',
    );

    writeFileSync(join(pkg, 'package-lock.json'), lockfile('0.15.8'));
    const after = readIdentity(pkg);
    expect(after).not.toBe(before);
    expect(await new CacheEntries(file, isString, after).get('CHL_ADM1')).toBeUndefined();
  });

  it('a lockfile change invalidates a real cache: the measurer measures again', async () => {
    const pkg = fakePackage();
    const dir = fresh();
    const data = join(dir, 'a.geojson');
    const ring = '[[-71,-34],[-70,-34],[-70,-33],[-71,-34]]';
    const unit = `{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[${ring}]}}`;
    writeFileSync(data, `{"type":"FeatureCollection","features":[${unit}]}`);
    const cacheFile = join(dir, 'measurements.json');
    const first = new MeasurementCache({ cacheFile, identity: readIdentity(pkg) });
    await first.measure(data);
    await first.save();
    const same = new MeasurementCache({ cacheFile, identity: readIdentity(pkg) });
    await same.measure(data);
    expect(same.stats).toMatchObject({ filesMeasured: 0, cacheHits: 1 });

    writeFileSync(join(pkg, 'package-lock.json'), lockfile('0.16.0'));
    const upgraded = new MeasurementCache({ cacheFile, identity: readIdentity(pkg) });
    await upgraded.measure(data);
    expect(upgraded.stats).toMatchObject({ filesMeasured: 1, cacheHits: 0 });
  });

  it('an installed package (no lockfile of its own): npm’s record of the node_modules holding it', () => {
    const project = fresh('project');
    const pkg = fakePackage(join(project, 'node_modules', 'geoshelf'));
    rmSync(join(pkg, 'package-lock.json'));
    const without = readIdentity(pkg);
    writeFileSync(join(project, 'node_modules', '.package-lock.json'), lockfile('0.15.7'));
    const installed = readIdentity(pkg);
    expect(installed).not.toBe(without);
    writeFileSync(join(project, 'node_modules', '.package-lock.json'), lockfile('0.15.8'));
    expect(readIdentity(pkg)).not.toBe(installed);
  });

  it('a code change invalidates: another compiled output, another identity; a source merely touched (a checkout), the same', () => {
    const pkg = fakePackage();
    const before = readIdentity(pkg);
    editRecord(
      pkg,
      (r) => (r.inputs['build/core/cache.ts'] = { sha256: 'a'.repeat(64), size: 10, mtimeMs: 2 }),
    );
    expect(readIdentity(pkg)).toBe(before);
    editRecord(pkg, (r) => (r.outputs['src/cli/main.js'] = { size: 10, sha256: 'c'.repeat(64) }));
    expect(readIdentity(pkg)).not.toBe(before);
  });

  it('a data file the package ships (vendor/, public/) changed: another identity', () => {
    const pkg = fakePackage();
    mkdirSync(join(pkg, 'vendor'));
    writeFileSync(join(pkg, 'vendor/subdivision-names.json'), '{"CL-RM":["Santiago"]}');
    const before = readIdentity(pkg);
    writeFileSync(join(pkg, 'vendor/subdivision-names.json'), '{"CL-RM":["Región Metropolitana"]}');
    expect(readIdentity(pkg)).not.toBe(before);
  });

  it('no compiled record (or a damaged one): a new identity each time, so nothing another run kept is trusted', () => {
    const pkg = fresh('bare');
    expect(readIdentity(pkg)).not.toBe(readIdentity(pkg));
    const damaged = fakePackage();
    writeFileSync(join(damaged, 'lib/sources.json'), '{"outputs":');
    expect(readIdentity(damaged)).not.toBe(readIdentity(damaged));
  });

  it('the running code’s identity is this package’s, read once', () => {
    const here = fileURLToPath(new URL('../..', import.meta.url));
    expect(codeIdentity()).toBe(readIdentity(here));
    expect(codeIdentity()).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('cache: a damaged, truncated or hostile file is a miss, never a crash', () => {
  const stamp = 'identity-1';
  const good = JSON.stringify({ stamp, data: { a: 'kept' } });
  const cases: [string, string][] = [
    ['empty', ''],
    ['truncated', good.slice(0, good.length - 3)],
    ['not JSON', '\u0000\u0001garbage'],
    ['null', 'null'],
    ['an array', '[1,2]'],
    ['no stamp', JSON.stringify({ data: { a: 'kept' } })],
    ['another stamp', JSON.stringify({ stamp: 'identity-0', data: { a: 'kept' } })],
    ['a stamp of the wrong type', JSON.stringify({ stamp: ['identity-1'], data: { a: 'kept' } })],
    ['data of the wrong type', JSON.stringify({ stamp, data: 'kept' })],
    ['a __proto__ stamp', `{"__proto__":{"stamp":"${stamp}"},"data":{"a":"kept"}}`],
  ];

  it.each(cases)('%s → a miss: the empty value, and a save writes it whole again', async (_, text) => {
    const file = join(fresh(), 'cache.json');
    writeFileSync(file, text);
    const read = await readCacheFile(file, { empty: true }, isObject, stamp);
    expect(read.data).toEqual({ empty: true });
    expect(readCacheFileSync(file, { empty: true }, isObject, stamp).data).toEqual({ empty: true });
    const entries = new CacheEntries(file, isString, stamp);
    expect(await entries.get('a')).toBeUndefined();
    await entries.set('b', 'new');
    await entries.save();
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({ stamp, data: { b: 'new' } });
  });

  it('absent, or a folder where the file should be → a miss', async () => {
    const dir = fresh();
    expect((await readCacheFile(join(dir, 'none.json'), 0, isInteger, stamp)).data).toBe(0);
    mkdirSync(join(dir, 'folder.json'));
    expect((await readCacheFile(join(dir, 'folder.json'), 0, isInteger, stamp)).data).toBe(0);
    expect(readCacheFileSync(join(dir, 'folder.json'), 0, isInteger, stamp).data).toBe(0);
  });

  it('an entry its cache rejects is dropped, the others kept; a __proto__ key is an entry like any other', async () => {
    const file = join(fresh(), 'cache.json');
    const data = `{"a":"kept","b":7,"c":null,"__proto__":"odd","d":{"x":1}}`;
    writeFileSync(file, `{"stamp":"${stamp}","data":${data}}`);
    const entries = new CacheEntries(file, isString, stamp);
    expect([
      await entries.get('a'),
      await entries.get('b'),
      await entries.get('c'),
      await entries.get('d'),
    ]).toEqual(['kept', undefined, undefined, undefined]);
    expect(await entries.get('__proto__')).toBe('odd');
    expect(await entries.get('toString')).toBeUndefined();
  });

  it('a file that cannot be written is skipped by an entries cache, and an error for a cache file', async () => {
    const dir = fresh();
    writeFileSync(join(dir, 'plain'), '');
    const entries = new CacheEntries(join(dir, 'plain', 'cache.json'), isString, stamp); // under a file
    await entries.set('a', 'x');
    await expect(entries.save()).resolves.toBeUndefined();
    await expect(saveCacheFile({ file: join(dir, 'plain', 'cache.json'), stamp, data: 1 })).rejects.toThrow();
  });

  it('an unchanged cache is not written again', async () => {
    const file = join(fresh(), 'cache.json');
    await saveCacheFile({ file, stamp, data: { a: 1 } });
    const read = await readCacheFile(file, {}, isObject, stamp);
    rmSync(file);
    await saveCacheFile(read);
    expect(() => readFileSync(file)).toThrow(); // the same data: nothing written
    await saveCacheFile({ ...read, data: { a: 2 } });
    expect((await readCacheFile(file, {}, isObject, stamp)).data).toEqual({ a: 2 });
  });
});

describe('cache: a save is atomic', () => {
  // The child imports cache.ts bundled into JavaScript (test/support/bundle.ts), not through tsx.
  let module: string;
  beforeAll(async () => {
    module = await bundled(new URL('../../build/core/cache.ts', import.meta.url).pathname);
  });
  afterAll(() => rmSync(dirname(module), { recursive: true, force: true }));

  /**
   * Runs a child that saves `data` as the cache file `file` and is killed
   * (SIGKILL, by itself) once it has written half of the bytes: the file
   * system's own write is wrapped to stop there, the one way to kill a
   * process at exactly that moment every time. Resolves when it has died.
   */
  function killedMidSave(file: string, data: unknown, sync: boolean): Promise<NodeJS.Signals | null> {
    const script = `
      import fs from 'node:fs';
      import { syncBuiltinESMExports } from 'node:module';
      const half = (text) => text.slice(0, Math.floor(text.length / 2));
      const [writeFile, writeFileSync] = [fs.promises.writeFile, fs.writeFileSync];
      fs.promises.writeFile = async (path, text) => {
        await writeFile(path, half(text));
        process.kill(process.pid, 'SIGKILL');
      };
      fs.writeFileSync = (path, text) => {
        writeFileSync(path, half(text));
        process.kill(process.pid, 'SIGKILL');
      };
      syncBuiltinESMExports();
      const cache = await import(${JSON.stringify(module)});
      const saving = { file: ${JSON.stringify(file)}, stamp: 'identity-1', data: ${JSON.stringify(data)} };
      ${sync ? 'cache.saveCacheFileSync(saving)' : 'await cache.saveCacheFile(saving)'};
      console.log('saved: never killed');`;
    const child = spawn(process.execPath, ['--input-type=module', '-e', script], { stdio: 'inherit' });
    const bound = setTimeout(() => child.kill('SIGKILL'), CHILD_BOUND_MS);
    return new Promise((resolve) =>
      child.once('exit', (_, signal) => {
        clearTimeout(bound);
        resolve(signal);
      }),
    );
  }

  it.each([
    ['saveCacheFile', false],
    ['saveCacheFileSync', true],
  ])('%s killed mid-save leaves the old file, whole: never a half-written one', async (_, sync) => {
    const file = join(fresh(), 'cache.json');
    const old = { rows: Array.from({ length: 1000 }, (_, i) => `old row ${i}`) };
    await saveCacheFile({ file, stamp: 'identity-1', data: old });
    const next = { rows: Array.from({ length: 1000 }, (_, i) => `new row ${i}`) };
    expect(await killedMidSave(file, next, sync)).toBe('SIGKILL');
    const read = await readCacheFile(file, {}, isObject, 'identity-1');
    expect(read.text, 'the cache file is damaged').toBeDefined();
    expect(read.data).toEqual(old);
    // The next save (a new run) replaces it whole.
    await saveCacheFile({ ...read, data: next });
    expect((await readCacheFile(file, {}, isObject, 'identity-1')).data).toEqual(next);
  });
});
