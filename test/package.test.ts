// geoshelf installs like a package: `npm pack` makes a tarball with the
// compiled lib/ in it, and `npm install TARBALL --omit=dev` in an empty
// folder gives a `geoshelf` that runs validate, build, release and serve on
// the sample data from any folder (--root), without the sources or the
// development dependencies that compile them (docs/deployment.md).
//
// The install is real (npm, the registry or its cache, better-sqlite3's
// install script), with one stand-in: prebuild-install fetches
// better-sqlite3's prebuilt binary from GitHub, which may be out of reach, so
// it is offered the clone's own build of the same version as a local prebuild
// (npm_config_better_sqlite3_local_prebuilds). Without it better-sqlite3
// builds from source, which takes minutes on a loaded machine.
import { execFile, spawn } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_BOUND_MS } from './support/cli.ts';
import { listeningUrl, tempDir } from './server/helpers.ts';

const REPO = new URL('..', import.meta.url).pathname;
const INSTALL_BOUND_MS = 5 * 60_000; // npm pack and npm install, each killed after this
const { version } = JSON.parse(readFileSync(join(REPO, 'package.json'), 'utf8')) as { version: string };
/** A few countries of the sample data, neighbours with ADM1 and one island: every command's paths, in seconds. */
const COUNTRIES = ['ABW', 'ARG', 'CHL', 'URY'];

let scratch: string;
let cleanup: () => Promise<void>;
let tarball: string;
let geoshelf: string; // the installed binary, e.g. "<scratch>/install/node_modules/.bin/geoshelf"
let root: string; // a copy of part of the sample data: <root>/data/earth/…
let elsewhere: string; // the folder every command runs in: neither the install nor the root

/** The environment of the npm children: none of the npm settings of the run that started the tests. */
function npmEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env = Object.fromEntries(Object.entries(process.env).filter(([key]) => !/^npm_/i.test(key)));
  return { ...env, ...extra };
}

const exec = (command: string, args: string[], options: { cwd: string; env?: NodeJS.ProcessEnv }) =>
  promisify(execFile)(command, args, {
    ...options,
    timeout: INSTALL_BOUND_MS,
    killSignal: 'SIGKILL',
    maxBuffer: 64 << 20,
  });

/**
 * Writes the clone's better-sqlite3 binary as the prebuild prebuild-install
 * looks for (name as its download URL's) into `dir`; returns the env setting
 * that offers it, none when there is nothing to offer.
 */
async function localPrebuild(dir: string): Promise<Record<string, string>> {
  const module = join(REPO, 'node_modules/better-sqlite3');
  if (process.platform !== 'linux' || !existsSync(join(module, 'build/Release/better_sqlite3.node')))
    return {};
  const v = (JSON.parse(readFileSync(join(module, 'package.json'), 'utf8')) as { version: string }).version;
  const name = `better-sqlite3-v${v}-node-v${process.versions.modules}-linux-${process.arch}.tar.gz`;
  mkdirSync(dir);
  await exec('tar', ['czf', join(dir, name), 'build/Release/better_sqlite3.node'], { cwd: module });
  return { npm_config_better_sqlite3_local_prebuilds: dir };
}

/** Runs the installed geoshelf in `elsewhere`; returns its exit code and output. */
async function run(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(geoshelf, args, {
      cwd: elsewhere,
      timeout: CHILD_BOUND_MS,
      killSignal: 'SIGKILL',
      maxBuffer: 64 << 20,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number | null; signal: string | null; stdout: string; stderr: string };
    if (e.signal)
      throw new Error(`geoshelf ${args.join(' ')} was killed (${e.signal})\n${e.stderr}`, { cause: error });
    return { code: e.code ?? -1, stdout: e.stdout, stderr: e.stderr };
  }
}

beforeAll(async () => {
  ({ dir: scratch, cleanup } = await tempDir('geoshelf-package-'));
  // npm pack runs `prepare`, which compiles lib/ (a no-op: the tests' setup compiled it).
  const { stdout } = await exec('npm', ['pack', '--json', '--pack-destination', scratch], {
    cwd: REPO,
    env: npmEnv({}),
  });
  tarball = join(scratch, (JSON.parse(stdout) as { filename: string }[])[0]!.filename);
  const install = join(scratch, 'install');
  mkdirSync(install);
  // As a user's project would: better-sqlite3's install script allowed (npm 11 asks for it).
  writeFileSync(
    join(install, 'package.json'),
    JSON.stringify({ private: true, allowScripts: { 'better-sqlite3': true } }),
  );
  const prebuild = await localPrebuild(join(scratch, 'prebuilds'));
  await exec('npm', ['install', tarball, '--omit=dev', '--prefer-offline', '--no-audit', '--no-fund'], {
    cwd: install,
    env: npmEnv(prebuild),
  });
  geoshelf = join(install, 'node_modules/.bin/geoshelf');
  root = join(scratch, 'root');
  for (const iso3 of COUNTRIES)
    cpSync(join(REPO, 'data/earth', iso3), join(root, 'data/earth', iso3), { recursive: true });
  cpSync(join(REPO, 'data/locations/sample.csv'), join(root, 'data/locations/sample.csv'));
  elsewhere = join(scratch, 'elsewhere');
  mkdirSync(elsewhere);
}, 2 * INSTALL_BOUND_MS);
afterAll(() => cleanup?.());

describe('npm pack', () => {
  it('ships the compiled lib/, bin/, public/, vendor/ and the licence; no sources, tests or data', async () => {
    const { stdout } = await exec('tar', ['tzf', tarball], { cwd: scratch });
    const files = stdout.trim().split('\n');
    const tops = [...new Set(files.map((file) => file.split('/')[1]))].sort();
    expect(tops).toEqual(['LICENSE', 'README.md', 'bin', 'lib', 'package.json', 'public', 'vendor']);
    expect(files).toContain('package/lib/src/cli/main.js');
    expect(files).toContain('package/lib/sources.json');
  });
});

// Each command may take as long as a child may run (a loaded machine), no more: none asserts on time.
describe('the package installed with --omit=dev in an empty folder', { timeout: CHILD_BOUND_MS }, () => {
  it('holds neither the sources nor the tools that compile them', () => {
    const modules = join(scratch, 'install/node_modules');
    expect(readdirSync(join(modules, 'geoshelf')).sort()).toEqual(
      ['LICENSE', 'README.md', 'bin', 'lib', 'package.json', 'public', 'vendor'].sort(),
    );
    expect(
      ['esbuild', 'vite', 'ajv', 'typescript', 'vitest'].filter((name) => existsSync(join(modules, name))),
    ).toEqual([]);
  });

  it('geoshelf --version: runs the shipped lib/, nothing compiled, nothing said', async () => {
    expect(await run('--version')).toEqual({ code: 0, stdout: `geoshelf ${version}\n`, stderr: '' });
  });

  it('validate --root: the sample data passes (warnings only)', async () => {
    const { code, stderr } = await run('validate', '--root', root);
    expect(stderr).not.toMatch(/error|unexpected/);
    expect(code).toBe(0);
  });

  it('build --root --out: writes the catalogue, its pages, API and the browser code', async () => {
    const out = join(root, 'dist');
    const { code, stderr } = await run('build', '--root', root, '--out', out, '--quiet');
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    for (const file of ['index.html', 'earth/CHL/index.html', 'api/v1/index.json'])
      expect(existsSync(join(out, file)), file).toBe(true);
    expect(readdirSync(join(out, 'assets')).some((name) => name.endsWith('.js'))).toBe(true);
  });

  it('release VERSION --root: records the first release in the ledger', async () => {
    const { code, stdout, stderr } = await run('release', '1.0.0', '--root', root);
    expect(stderr).not.toMatch(/unexpected/);
    expect(code).toBe(0);
    expect(stdout + stderr).toMatch(/recorded release 1\.0\.0/);
    expect(existsSync(join(root, 'data/releases/1.0.0/release.json'))).toBe(true);
  });

  it('locations import, then serve: answers /ubicaciones/ over better-sqlite3, stops on SIGTERM', async () => {
    const db = join(root, 'data/locations.sqlite');
    expect((await run('locations', 'import', join(root, 'data/locations/sample.csv'), '--db', db)).code).toBe(
      0,
    );
    const server = spawn(geoshelf, ['serve', '--db', db, '--port', '0'], {
      cwd: elsewhere,
      stdio: ['ignore', 'pipe', 'pipe'],
      timeout: CHILD_BOUND_MS,
    });
    const exited = new Promise<number | null>((resolve) => server.once('exit', resolve));
    try {
      const url = await listeningUrl(server);
      const response = await fetch(`${url}/ubicaciones/?limit=2`);
      expect(response.status).toBe(200);
      expect(((await response.json()) as unknown[]).length).toBe(2);
    } finally {
      server.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
  });
});
