// The CLI's start path (bin/cli-bundle.js): the sources bundled once and
// reused only while every file in build/ and src/ is unchanged; concurrent
// first runs share one bundle; files found relative to a source are found
// from the bundle too; and when no bundle can be made, the binary falls back
// to tsx. Each case bundles a tiny package of its own.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN } from './support/cli.ts';
// @ts-expect-error: plain JavaScript (it runs before any TypeScript loader), no declarations
import { bundledCli } from '../bin/cli-bundle.js';

const bundled = bundledCli as (packageDir: string, cacheDir: string) => Promise<URL | undefined>;

/** Writes a package whose main() returns the word in build/word.ts and the text of build/note.txt. */
function makePackage(dir: string, word: string): void {
  mkdirSync(join(dir, 'build'), { recursive: true });
  mkdirSync(join(dir, 'src/cli'), { recursive: true });
  writeFileSync(join(dir, 'build/word.ts'), `export const word: string = '${word}';\n`);
  writeFileSync(join(dir, 'build/note.txt'), 'found beside the source');
  writeFileSync(
    join(dir, 'src/cli/main.ts'),
    `import { readFileSync } from 'node:fs';
import { word } from '../../build/word.ts';
const note = readFileSync(new URL('../../build/note.txt', import.meta.url), 'utf8');
export async function main(): Promise<string> {
  return \`\${word}, \${note}\`;
}
`,
  );
}

/** Runs the bundle's main() in a fresh node process and returns what it returns. */
function run(url: URL): string {
  const script = `const { main } = await import(${JSON.stringify(url.href)}); console.log(await main());`;
  return execFileSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' }).trim();
}

describe('the CLI bundle', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'geoshelf-cli-bundle-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('is reused while the sources are unchanged and made again when one changes', async () => {
    const pkg = join(tmp, 'edit');
    const cache = join(pkg, 'cache');
    makePackage(pkg, 'first');
    const first = (await bundled(pkg, cache))!;
    expect(run(first)).toBe('first, found beside the source');
    expect((await bundled(pkg, cache))!.href).toBe(first.href);
    writeFileSync(join(pkg, 'build/word.ts'), "export const word: string = 'second';\n");
    const second = (await bundled(pkg, cache))!;
    expect(second.href).not.toBe(first.href);
    expect(run(second)).toBe('second, found beside the source');
  });

  it('concurrent first runs all get the same whole bundle, and leave no temporary folder', async () => {
    const pkg = join(tmp, 'race');
    const cache = join(pkg, 'cache');
    makePackage(pkg, 'raced');
    const urls = await Promise.all([1, 2, 3, 4].map(() => bundled(pkg, cache)));
    expect(new Set(urls.map((url) => url?.href)).size).toBe(1);
    expect(run(urls[0]!)).toBe('raced, found beside the source');
    expect(readdirSync(cache)).toHaveLength(1);
  });

  it('bundles unused for a day are removed when a new one is made; recent ones are kept', async () => {
    const pkg = join(tmp, 'stale');
    const cache = join(pkg, 'cache');
    mkdirSync(join(cache, 'old'), { recursive: true });
    mkdirSync(join(cache, 'recent'), { recursive: true });
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 3600 * 1000);
    utimesSync(join(cache, 'old'), twoDaysAgo, twoDaysAgo);
    makePackage(pkg, 'new');
    const url = (await bundled(pkg, cache))!;
    expect(readdirSync(cache).sort()).toEqual([url.pathname.split('/').at(-2), 'recent'].sort());
  });

  it('no bundle when the cache cannot be written or a source does not compile', async () => {
    const pkg = join(tmp, 'fail');
    makePackage(pkg, 'word');
    writeFileSync(join(pkg, 'a-file'), '');
    expect(await bundled(pkg, join(pkg, 'a-file', 'cache'))).toBeUndefined();
    writeFileSync(join(pkg, 'build/word.ts'), 'export const = ;\n');
    expect(await bundled(pkg, join(pkg, 'cache'))).toBeUndefined();
    const cache = join(pkg, 'cache');
    expect(existsSync(cache) ? readdirSync(cache, { recursive: true }) : []).toEqual([]);
  });

  it('the binary runs the same CLI through tsx when asked to (GEOSHELF_CLI_BUNDLE=0) as from its bundle', () => {
    const version = (env: NodeJS.ProcessEnv) =>
      execFileSync(process.execPath, [BIN, '--version'], {
        encoding: 'utf8',
        env: { ...process.env, ...env },
      });
    expect(version({ GEOSHELF_CLI_BUNDLE: '0' })).toMatch(/^geoshelf \d+\.\d+\.\d+\n$/);
    expect(version({})).toBe(version({ GEOSHELF_CLI_BUNDLE: '0' }));
  });
});
