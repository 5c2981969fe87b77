// The worker-thread lifecycle the measuring threads share: whatever happens
// to a worker, the process it belongs to exits by itself after its work; and
// the requests made to one (WorkerRequests) get their own replies, or fail.
import { execFile } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { WorkerRequests } from '../../build/core/worker-requests.ts';
import { CHILD_BOUND_MS } from '../support/cli.ts';

const LAZY_WORKER = fileURLToPath(new URL('../../build/core/lazy-worker.ts', import.meta.url));
const WORKER_REQUESTS = fileURLToPath(new URL('../../build/core/worker-requests.ts', import.meta.url));
// A worker that never exits by itself: it waits for jobs, and answers each.
const WORKER_CODE = `const { parentPort } = require('node:worker_threads');
parentPort.on('message', (m) => parentPort.postMessage(m));`;
// A worker for requests that never exits by itself either. It holds each
// request until one asks it to `flush`, then answers them all, the last
// first (`text` and its thread's id); `fail` is answered with that error at
// once; `die` ends the thread with code 3.
const REQUEST_WORKER_CODE = `const { parentPort, threadId } = require('node:worker_threads');
const held = [];
parentPort.on('message', (m) => {
  if (m.die) process.exit(3);
  if (m.fail) return parentPort.postMessage({ id: m.id, error: m.fail });
  held.push(m);
  if (m.flush) for (const h of held.splice(0).reverse()) parentPort.postMessage({ id: h.id, text: h.text, thread: threadId });
});`;

// The children import the two modules compiled by esbuild, as bin/compile.js compiles lib/: a
// child under tsx spent most of a second of CPU transforming before its first line.
let compiled: string;
beforeAll(async () => {
  compiled = join(mkdtempSync(join(tmpdir(), 'geoshelf-lazy-worker-')), 'modules.mjs');
  await build({
    stdin: {
      contents: `export { LazyWorker } from ${JSON.stringify(LAZY_WORKER)};
export { WorkerRequests } from ${JSON.stringify(WORKER_REQUESTS)};`,
      resolveDir: dirname(LAZY_WORKER),
      loader: 'ts',
    },
    bundle: true,
    platform: 'node',
    format: 'esm',
    outfile: compiled,
    logLevel: 'silent',
  });
});

/** Writes the two test workers into a fresh folder; returns their paths. */
function writeWorkers(): { echo: string; requests: string } {
  const dir = mkdtempSync(join(tmpdir(), 'geoshelf-lazy-worker-'));
  const echo = join(dir, 'worker.cjs');
  writeFileSync(echo, WORKER_CODE);
  const requests = join(dir, 'requests.cjs');
  writeFileSync(requests, REQUEST_WORKER_CODE);
  return { echo, requests };
}

/**
 * Runs `body` (ESM) in a child node, with `worker` a LazyWorker of
 * WORKER_CODE and `requests` a WorkerRequests of REQUEST_WORKER_CODE (neither
 * started until used); returns how it ended.
 */
async function runChild(
  body: string,
): Promise<{ code: number | null; signal: string | null; stdout: string }> {
  const scripts = writeWorkers();
  const child = join(dirname(scripts.echo), 'child.mjs');
  writeFileSync(
    child,
    `import { LazyWorker, WorkerRequests } from ${JSON.stringify(compiled)};
const worker = new LazyWorker(
  ${JSON.stringify(scripts.echo)},
  (reply) => { console.log('reply', reply); worker.done(); },
  (error) => console.log('stopped', error.message),
);
const requests = new WorkerRequests(${JSON.stringify(scripts.requests)}, 'test');
${body}`,
  );
  try {
    const { stdout } = await promisify(execFile)('node', [child], {
      timeout: CHILD_BOUND_MS, // a hang is killed here
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

interface Echo {
  text: string;
  thread: number;
}

/** A request to REQUEST_WORKER_CODE. */
interface Ask {
  text?: string;
  flush?: true;
  fail?: string;
  die?: true;
}

const made: WorkerRequests<Ask, Echo>[] = [];

/** Returns a WorkerRequests of REQUEST_WORKER_CODE (or of `script`), whose thread afterEach ends. */
function requestsTo(script = writeWorkers().requests, purpose = 'test'): WorkerRequests<Ask, Echo> {
  const requests = new WorkerRequests<Ask, Echo>(script, purpose);
  made.push(requests);
  return requests;
}

describe('WorkerRequests: each request gets its own reply, or fails', () => {
  // The quick project runs many files in one process: end the threads these tests started.
  afterEach(async () => {
    await Promise.allSettled(made.splice(0).map((requests) => requests.request({ die: true })));
  });

  test('replies that come back out of order settle the requests that carry their ids', async () => {
    const requests = requestsTo();
    const settled: string[] = [];
    const asks = ['a', 'b', 'c'].map((text, i) =>
      requests.request({ text, flush: i === 2 ? true : undefined }).then((echo) => {
        settled.push(text);
        return echo.text;
      }),
    );
    expect(await Promise.all(asks)).toEqual(['a', 'b', 'c']);
    expect(settled).toEqual(['c', 'b', 'a']); // the worker answered the last first
  });

  test('a reply with an error rejects its request with that message, and only its request', async () => {
    const requests = requestsTo();
    const held = requests.request({ text: 'held' });
    await expect(requests.request({ fail: 'no such file' })).rejects.toThrow(/^no such file$/);
    const flushed = requests.request({ text: 'flush', flush: true });
    expect((await held).text).toBe('held');
    expect((await flushed).text).toBe('flush');
  });

  test('a worker that dies rejects every pending request, and the next request starts a fresh one', async () => {
    const requests = requestsTo();
    const first = await requests.request({ text: 'first', flush: true });
    const pending = [
      requests.request({ text: 'a' }),
      requests.request({ text: 'b' }),
      requests.request({ die: true }),
    ];
    await Promise.all(
      pending.map((request) => expect(request).rejects.toThrow('worker thread exited with code 3')),
    );
    const next = await requests.request({ text: 'next', flush: true });
    expect(next.text).toBe('next');
    expect(next.thread).not.toBe(first.thread);
  });

  test('a worker that cannot start rejects the request at once, naming its purpose', async () => {
    // A relative path not starting with "./" is refused by new Worker() itself.
    const requests = requestsTo('not-a-worker.cjs', 'sha256');
    await expect(requests.request({ text: 'a', flush: true })).rejects.toThrow(
      /^cannot start the sha256 worker thread$/,
    );
  });

  test(
    'a request waits with the process open, and an idle worker then lets it exit',
    { timeout: CHILD_BOUND_MS + 10_000 },
    async () => {
      // Both replies come after the script's last line; then the worker idles, alive.
      const body = `for (const [text, flush] of [['a', false], ['b', true]])
  requests.request({ text, flush }).then((echo) => console.log('answer', echo.text));`;
      expect(await runChild(body)).toEqual({ code: 0, signal: null, stdout: 'answer b\nanswer a\n' });
    },
  );
});
