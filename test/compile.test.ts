// The one step from TypeScript to running code (bin/compile.js): the binary
// runs lib/ only when it is the compiled form of the sources as they are now,
// compiles again (saying why, in one line) when a source changed or a piece of
// lib/ is missing or damaged, and says in one line why when it cannot.
// Each case runs on its own copy of the package, so the lib/ the other tests
// use is never disturbed.
import { execFile } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { CHILD_BOUND_MS } from './support/cli.ts';

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

  it('two runs finding lib/ stale at once: one compiles, the other waits for it, both run the new code', async () => {
    const dir = packageCopy('race');
    changeVersionText(dir, 'raced');
    const results = await Promise.all([run(dir, '--version'), run(dir, '--version')]);
    for (const result of results) expect(result).toMatchObject({ code: 0, stdout: 'raced\n' });
    expect(results.filter((r) => r.stderr !== '')).toHaveLength(1);
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
