// The one step from TypeScript to running code (bin/compile.js): the binary
// runs lib/ only when it is the compiled form of the sources as they are now,
// compiles again (saying why, in one line) when a source changed or a piece of
// lib/ is missing or damaged, and says in one line why when it cannot. A
// stale lock is taken over, a live one is waited for with one line saying so,
// and what a killed compile left is removed.
// Each case runs on its own copy of the package, so the lib/ the other tests
// use is never disturbed.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  truncateSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { CHILD_BOUND_MS } from './support/cli.ts';
// @ts-expect-error: plain JavaScript without declarations, run before anything is compiled
import * as compileLock from '../bin/compile-lock.js';

const { lockOwner } = compileLock as { lockOwner: (lock: string, pid?: number) => object };

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'geoshelf-compile-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const { version } = JSON.parse(readFileSync(join(PACKAGE, 'package.json'), 'utf8')) as { version: string };

/** Returns a copy of the package (sources, bin/, public/ and the current lib/; node_modules linked, or `modules`). */
function packageCopy(name: string, modules = join(PACKAGE, 'node_modules')): string {
  const dir = join(scratch, name);
  for (const part of ['bin', 'build', 'src', 'public', 'lib', 'package.json']) {
    cpSync(join(PACKAGE, part), join(dir, part), { recursive: true });
  }
  symlinkSync(modules, join(dir, 'node_modules'));
  return dir;
}

/** Runs the copy's binary with `args`; returns its exit code and output (a child that does not exit fails the test). */
async function run(
  dir: string,
  ...args: string[]
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)('node', [join(dir, 'bin/geoshelf.js'), ...args], {
      timeout: CHILD_BOUND_MS,
      killSignal: 'SIGKILL',
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number | null; signal: string | null; stdout: string; stderr: string };
    if (e.signal) throw new Error(`geoshelf ${args.join(' ')} was killed (${e.signal})`, { cause: error });
    return { code: e.code ?? -1, stdout: e.stdout, stderr: e.stderr };
  }
}

/** Changes the text `geoshelf --version` prints, in the copy's sources. */
function changeVersionText(dir: string, text: string): void {
  const file = join(dir, 'src/cli/main.ts');
  writeFileSync(
    file,
    readFileSync(file, 'utf8').replace('return `geoshelf ${pkg.version}`', `return \`${text}\``),
  );
}

describe('the compile step', () => {
  it('runs lib/ as it is when it is current: nothing compiled, nothing said', async () => {
    expect(await run(packageCopy('current'), '--version')).toEqual({
      code: 0,
      stdout: `geoshelf ${version}\n`,
      stderr: '',
    });
  });

  it('a changed source → compiled again first, one line saying which file, then the new code runs', async () => {
    const dir = packageCopy('changed');
    changeVersionText(dir, 'changed version text');
    expect(await run(dir, '--version')).toEqual({
      code: 0,
      stdout: 'changed version text\n',
      stderr: 'geoshelf: compiling lib/ first (src/cli/main.ts changed)\n',
    });
    expect((await run(dir, '--version')).stderr).toBe(''); // and only once
  });

  it('a chunk deleted or damaged → compiled again, and the command works', async () => {
    const dir = packageCopy('damaged');
    const chunks = readdirSync(join(dir, 'lib/chunks')).filter((name) => name.endsWith('.js'));
    rmSync(join(dir, 'lib/chunks', chunks[0]!));
    truncateSync(join(dir, 'lib/chunks', chunks[1]!), 10);
    const first = await run(dir, 'validate', '--root', join(PACKAGE, 'test/fixtures/manifests/true'));
    expect(first.stderr).toMatch(
      /^geoshelf: compiling lib\/ first \(lib\/chunks\/[\w-]+\.js is missing or damaged\)\n/,
    );
    expect(first.code).toBe(0);
    expect(await run(dir, '--version')).toEqual({ code: 0, stdout: `geoshelf ${version}\n`, stderr: '' });
  });

  it('lib/src/cli/main.js filled with zeros at its size (a power loss) → compiled again, and the command works', async () => {
    const dir = packageCopy('zeros');
    const main = join(dir, 'lib/src/cli/main.js');
    writeFileSync(main, Buffer.alloc(statSync(main).size));
    expect(await run(dir, '--version')).toEqual({
      code: 0,
      stdout: `geoshelf ${version}\n`,
      stderr: 'geoshelf: compiling lib/ first (lib/src/cli/main.js is missing or damaged)\n',
    });
  });

  it('two runs finding lib/ stale at once: one compiles, the other waits for it, both run the new code', async () => {
    const dir = packageCopy('race');
    changeVersionText(dir, 'raced');
    const results = await Promise.all([run(dir, '--version'), run(dir, '--version')]);
    for (const result of results) expect(result).toMatchObject({ code: 0, stdout: 'raced\n' });
    expect(results.filter((r) => r.stderr.includes('compiling lib/ first'))).toHaveLength(1);
    // The other said nothing (it came after), or that it waited, naming the one compiling.
    const other = results.find((r) => !r.stderr.includes('compiling lib/ first'))!.stderr;
    expect(other).toMatch(
      /^(|geoshelf: waiting for process \d+ to finish compiling lib\/ \(it holds .+\)\n)$/,
    );
    expect(readdirSync(dir).filter((name) => name.startsWith('.lib'))).toEqual([]); // no temporary folder or lock left
  });

  it('a source that does not compile → exit 1, one line naming the file and place, lib/ left as it was', async () => {
    const dir = packageCopy('broken');
    const before = readFileSync(join(dir, 'lib/sources.json'), 'utf8');
    writeFileSync(
      join(dir, 'src/cli/main.ts'),
      `${readFileSync(join(dir, 'src/cli/main.ts'), 'utf8')}\nconst = ;\n`,
    );
    const { code, stdout, stderr } = await run(dir, '--version');
    expect(code).toBe(1);
    expect(stdout).toBe('');
    expect(stderr).toMatch(
      /^geoshelf: compiling lib\/ first \(src\/cli\/main\.ts changed\)\ngeoshelf: cannot compile: src\/cli\/main\.ts:\d+:\d+: .+\n$/,
    );
    expect(readFileSync(join(dir, 'lib/sources.json'), 'utf8')).toBe(before);
  });

  it('lib/ stale where the compiler is not installed → exit 1, one line saying what to run', async () => {
    // node_modules without esbuild: every other package linked.
    const modules = join(scratch, 'modules-without-esbuild');
    mkdirSync(modules);
    for (const name of readdirSync(join(PACKAGE, 'node_modules'))) {
      if (name !== 'esbuild' && name !== '.cache')
        symlinkSync(join(PACKAGE, 'node_modules', name), join(modules, name));
    }
    const dir = packageCopy('no-esbuild', modules);
    const { code, stderr } = await run(dir, '--version');
    expect(code).toBe(1);
    expect(stderr).toBe(
      'geoshelf: compiling lib/ first (esbuild is not installed, lib/ was made with ' +
        `${JSON.parse(readFileSync(join(PACKAGE, 'node_modules/esbuild/package.json'), 'utf8')).version})\n` +
        'geoshelf: cannot compile: esbuild is not installed (run npm ci)\n',
    );
  });
});

describe('the caches, kept with the code’s identity and the lockfile’s (build/core/cache.ts)', () => {
  /** Makes every measurement cached under `root` say 1000 more features than its file has. */
  function poison(root: string): void {
    const file = join(root, '.cache/geoshelf/measurements.json');
    const text = readFileSync(file, 'utf8');
    writeFileSync(
      file,
      text.replace(/"features":(\d+)/g, (_, n: string) => `"features":${Number(n) + 1000}`),
    );
  }

  /** Validates `root` with the copy `dir`; returns its exit code and output, without a compile's line. */
  async function validate(
    dir: string,
    root: string,
  ): Promise<{ code: number; stdout: string; stderr: string }> {
    const result = await run(dir, 'validate', '--root', root);
    return { ...result, stderr: result.stderr.replace(/^geoshelf: compiling lib\/ first .*\n/, '') };
  }

  it('a dependency upgraded (another package-lock.json) or the code changed → what a cache kept is worked out again', async () => {
    const dir = packageCopy('cache-identity');
    cpSync(join(PACKAGE, 'package-lock.json'), join(dir, 'package-lock.json'));
    const root = mkdtempSync(join(scratch, 'root-'));
    cpSync(join(PACKAGE, 'test/fixtures/build/data'), join(root, 'data'), { recursive: true });
    const clean = await validate(dir, root);
    expect(clean.code).toBe(0);
    // While a cache is trusted, what it says is what validate reports: here, measurements poisoned.
    poison(root);
    expect((await validate(dir, root)).stderr).toContain('has 1001 features, manifest says 1');

    // polygon-clipping upgraded in the lockfile (npm install polygon-clipping@0.15.8): nothing kept is trusted.
    const lock = JSON.parse(readFileSync(join(dir, 'package-lock.json'), 'utf8')) as {
      packages: Record<string, { version: string }>;
    };
    lock.packages['node_modules/polygon-clipping']!.version = '0.15.8';
    writeFileSync(join(dir, 'package-lock.json'), JSON.stringify(lock, null, 2));
    expect(await validate(dir, root)).toEqual(clean);

    // A new geoshelf (a source changed, compiled again): the same.
    poison(root);
    expect((await validate(dir, root)).stderr).toContain('has 1001 features, manifest says 1');
    changeVersionText(dir, 'another geoshelf');
    expect(await validate(dir, root)).toEqual(clean);
  }, 240_000); // six validate runs and a compile as child processes: a bound for a hang, not a speed check
});

describe('the compile lock, and what a killed compile leaves', () => {
  // A live process that compiles nothing: it exits by itself, and is killed after each test.
  const sleepers: ChildProcess[] = [];
  afterEach(() => {
    for (const child of sleepers.splice(0)) child.kill('SIGKILL');
  });
  function liveProcess(): ChildProcess {
    const child = spawn('sleep', ['60'], { stdio: 'ignore' });
    sleepers.push(child);
    return child;
  }

  it('a lock whose pid names a live process started after it (pid reused) → taken over at once', async () => {
    const dir = packageCopy('reused-pid');
    changeVersionText(dir, 'after the stale lock');
    // The form earlier versions wrote: the pid alone, here of a process started a minute after the lock.
    const pidFile = join(dir, '.lib.lock/pid');
    mkdirSync(join(dir, '.lib.lock'));
    writeFileSync(pidFile, String(liveProcess().pid));
    const minuteAgo = new Date(Date.now() - 60_000);
    utimesSync(pidFile, minuteAgo, minuteAgo);
    expect(await run(dir, '--version')).toEqual({
      code: 0,
      stdout: 'after the stale lock\n',
      stderr: 'geoshelf: compiling lib/ first (src/cli/main.ts changed)\n',
    });
    expect(existsSync(join(dir, '.lib.lock'))).toBe(false);
  });

  it('a lock whose holder is alive → one line naming the holder and the lock, then compiled once it is gone', async () => {
    const dir = packageCopy('held');
    changeVersionText(dir, 'after the holder');
    const holder = liveProcess();
    const lock = join(dir, '.lib.lock');
    mkdirSync(lock);
    writeFileSync(join(lock, 'owner.json'), JSON.stringify(lockOwner(lock, holder.pid)));
    const child = spawn('node', [join(dir, 'bin/geoshelf.js'), '--version'], { timeout: CHILD_BOUND_MS });
    let [stdout, stderr] = ['', ''];
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
      if (stderr.includes('waiting')) holder.kill('SIGKILL'); // the holder is gone: the lock is stale
    });
    const code = await new Promise((resolve) => child.on('close', resolve));
    expect({ code, stdout, stderr }).toEqual({
      code: 0,
      stdout: 'after the holder\n',
      stderr:
        `geoshelf: waiting for process ${holder.pid} to finish compiling lib/ (it holds ${lock}; if it is not compiling, delete that folder)\n` +
        'geoshelf: compiling lib/ first (src/cli/main.ts changed)\n',
    });
  });

  it('a compile killed midway → its temporary folder and lock are removed by the next run', async () => {
    const dir = packageCopy('killed');
    const compiling = spawn('node', [join(dir, 'bin/compile.js'), '--force'], {
      stdio: 'ignore',
      timeout: CHILD_BOUND_MS,
    });
    const temp = join(dir, `.lib-${compiling.pid}.tmp`);
    while (!existsSync(temp)) await new Promise((resolve) => setTimeout(resolve, 20));
    compiling.kill('SIGKILL');
    await new Promise((resolve) => compiling.on('close', resolve));
    expect(readdirSync(dir).filter((name) => name.startsWith('.lib'))).toEqual([
      `.lib-${compiling.pid}.tmp`,
      '.lib.lock',
    ]);
    expect(await run(dir, '--version')).toEqual({ code: 0, stdout: `geoshelf ${version}\n`, stderr: '' });
    expect(readdirSync(dir).filter((name) => name.startsWith('.lib'))).toEqual([]);
  });
});
