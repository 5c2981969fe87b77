// An installed package (npm pack's tarball) ships lib/ without the sources
// and without the compile tools: the compile step checks lib/ against its
// record alone, runs it when every output's bytes are those recorded, and
// says in one line to reinstall when one is not (bin/compile.js).
// test/package.test.ts installs the real tarball; this is the same check
// in-process, on a folder laid out as the tarball is.
import { cpSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: plain JavaScript without declarations, run before anything is compiled
import * as compileStep from '../bin/compile.js';

const { staleness, ensureCompiled } = compileStep as {
  staleness: (packageDir: string) => string | undefined;
  ensureCompiled: (options: { packageDir: string }) => Promise<string | undefined>;
};

const PACKAGE = fileURLToPath(new URL('..', import.meta.url));
const installed = mkdtempSync(join(tmpdir(), 'geoshelf-installed-'));
afterAll(() => rmSync(installed, { recursive: true, force: true }));
// What package.json's "files" ships (no build/, no src/, no node_modules/ with esbuild or vite).
for (const part of ['bin', 'lib', 'public', 'vendor', 'package.json'])
  cpSync(join(PACKAGE, part), join(installed, part), { recursive: true });

describe('an installed package (lib/ without the sources or the compile tools)', () => {
  it('runs lib/ as shipped: current, nothing to compile', async () => {
    expect(staleness(installed)).toBeUndefined();
    expect(await ensureCompiled({ packageDir: installed })).toBeUndefined();
  });

  it('a damaged file of lib/ → one line naming it and saying to reinstall, nothing compiled', async () => {
    const main = join(installed, 'lib/src/cli/main.js');
    writeFileSync(main, Buffer.alloc(statSync(main).size)); // zeros at the right size: a power loss
    await expect(ensureCompiled({ packageDir: installed })).rejects.toThrow(
      /^lib\/src\/cli\/main\.js is missing or damaged, and this installed copy of geoshelf has no sources to compile it from: reinstall it$/,
    );
  });
});
