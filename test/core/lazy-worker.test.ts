// The worker-thread lifecycle the measuring threads share: whatever happens
// to a worker, the process it belongs to exits by itself after its work.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, test } from 'vitest';
import { CHILD_BOUND_MS } from '../support/cli.ts';

const LAZY_WORKER = fileURLToPath(new URL('../../build/core/lazy-worker.ts', import.meta.url));
// A worker that never exits by itself: it waits for jobs, and answers each.
const WORKER_CODE = `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => parentPort.postMessage(m));`;

/** Runs `body` (ESM, with `worker` a LazyWorker of WORKER_CODE) in a child node; returns how it ended. */
async function runChild(
  body: string,
): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-lazy-worker-'));
  const script = join(dir, 'worker.cjs');
  writeFileSync(script, WORKER_CODE);
  const child = join(dir, 'child.mjs');
  writeFileSync(
    child,
    `import { LazyWorker } from ${JSON.stringify(LAZY_WORKER)};
const worker = new LazyWorker(
  ${JSON.stringify(script)},
  (reply) => { console.log('reply', reply); worker.done(); },
  (error) => console.log('stopped', error.message),
);
${body}`,
  );
  try {
    const { stdout } = await promisify(execFile)('node', ['--import', 'tsx', child], {
      cwd: fileURLToPath(new URL('../..', import.meta.url)), // where tsx is found
      timeout: CHILD_BOUND_MS, // a hang is killed here; 15 s was too short for tsx's start under load
      killSignal: 'SIGKILL',
    });
    return { code: 0, signal: null, stdout };
  } catch (error) {
    const e = error as { code: number | null; signal: string | null; stdout: string };
    return { code: e.code, signal: e.signal, stdout: e.stdout };
  }
}

describe('LazyWorker lets the process exit', { timeout: CHILD_BOUND_MS + 10_000 }, () => {
  test('a worker warmed and never given a job does not hold the process open', async () => {
    expect(await runChild('worker.warm();')).toEqual({ code: 0, signal: null, stdout: '' });
  });

  test('a worker whose jobs are all done does not hold the process open', async () => {
    expect(await runChild("worker.post('a'); worker.post('b');")).toEqual({
      code: 0,
      signal: null,
      stdout: 'reply a\nreply b\n',
    });
  });

  test('a job not yet done keeps the process open until it is', async () => {
    // The reply comes after the script's last line: the process must wait for it.
    const result = await runChild("setTimeout(() => worker.post('late'), 50);");
    expect(result).toEqual({ code: 0, signal: null, stdout: 'reply late\n' });
  });
});
