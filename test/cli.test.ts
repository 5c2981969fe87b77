import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const BIN = new URL('../bin/geoshelf.js', import.meta.url).pathname;

describe('geoshelf CLI', () => {
  it('--help lists every command', async () => {
    const { stdout } = await run('node', [BIN, '--help']);
    for (const name of [
      'serve',
      'locations import',
      'measure',
      'validate',
      'manifest',
      'build',
      'preview',
      'split',
    ]) {
      expect(stdout).toContain(`  ${name} `);
    }
  });

  it('an unknown command exits 1 with a one-line reason', async () => {
    const error = await run('node', [BIN, 'frobnicate']).catch((e: { code: number; stderr: string }) => e);
    expect(error).toMatchObject({ code: 1 });
    expect((error as { stderr: string }).stderr.split('\n')[0]).toBe(
      'geoshelf: unknown command "frobnicate"',
    );
  });
});
