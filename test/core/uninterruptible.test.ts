// A commit step that an interrupt cannot cut in half (build/core/uninterruptible.ts).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundled } from '../support/bundle.ts';

describe('uninterruptible', () => {
  mkdirSync('/tmp/geoshelf-uninterruptible-tests', { recursive: true });
  const dir = mkdtempSync('/tmp/geoshelf-uninterruptible-tests/signal-');
  // The child imports the module bundled into JavaScript (test/support/bundle.ts), not through tsx.
  let helper: string;
  beforeAll(async () => {
    helper = await bundled(new URL('../../build/core/uninterruptible.ts', import.meta.url).pathname);
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
    rmSync(dirname(helper), { recursive: true, force: true });
  });

  it('SIGINT during the commit step waits for it to finish, then ends the process as SIGINT would', () => {
    const done = join(dir, 'done');
    const after = join(dir, 'after');
    const script = `
      import { writeFileSync } from 'node:fs';
      import { uninterruptible } from ${JSON.stringify(helper)};
      await uninterruptible(async () => {
        process.kill(process.pid, 'SIGINT');
        await new Promise((resolve) => setTimeout(resolve, 200));
        writeFileSync(${JSON.stringify(done)}, 'x');
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      writeFileSync(${JSON.stringify(after)}, 'x');
    `;
    let signal: string | null = null;
    try {
      execFileSync(process.execPath, ['--input-type=module', '-e', script], {
        stdio: 'pipe',
        timeout: 60_000, // a bound: killed then, the test fails on the signal
      });
    } catch (error) {
      signal = (error as { signal: string | null }).signal;
    }
    expect(existsSync(done)).toBe(true); // the commit finished
    expect(existsSync(after)).toBe(false); // and the process stopped right after it
    expect(signal).toBe('SIGINT');
  });
});
