// npm run bench:server — the locations server under load, against a bare
// node:http server sending the same bytes, measured in the same run.
//
// Builds a 1,000,000-row database in /tmp (kept between runs), starts the
// server and the baselines in child processes, loads each with autocannon on
// 127.0.0.1 for a bounded time, and prints req/s, p99, the server's CPU time
// per response (its main thread, from /proc) and the target ratios: the
// cached first page ≥ 0.9 × the bare server sending the same bytes (status
// line, every header, body), deep pages ≥ 0.9 × the first page. Then, apart
// from the client and the kernel (which can hide it), the handler's own work
// per cached first page against a bare handler's, in-process.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { IncomingMessage, ServerResponse, createServer, request } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { Duplex } from 'node:stream';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { SCHEMA_SQL } from '../src/locations/db.ts';
import { LOCATION_TYPES } from '../src/locations/types.ts';
import { createApp, startServer } from '../src/server/app.ts';
import { jsonLinesLogger } from '../src/server/log.ts';

const ROWS = 1_000_000;
const DIR = '/tmp/geoshelf-bench-server';
const DB = join(DIR, `locations-${ROWS}-v2.sqlite`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2); // per case and round
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 9); // odd: the median is one of them
const CONNECTIONS = 10;
const CLOCK_TICKS = 100; // USER_HZ of /proc's CPU times, 100 on Linux

/** Writes the benchmark database directly (one transaction, one prepared insert), in the importer's schema. */
function buildDatabase(): void {
  if (existsSync(DB)) return;
  mkdirSync(DIR, { recursive: true });
  const temp = `${DB}.tmp`;
  rmSync(temp, { force: true });
  const db = new Database(temp);
  db.pragma('synchronous = OFF');
  db.pragma('journal_mode = OFF');
  db.exec(SCHEMA_SQL);
  const insert = db.prepare('INSERT INTO locations VALUES (?, ?, ?, ?, ?, ?, ?, ?)');
  const typePos = [0, 0, 0, 0];
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const t = i % 4;
      const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
      // every row serialises to the same length, so every page has the same bytes
      // to send and deep and first pages differ only in where they are
      const n = String(i).padStart(7, '0');
      const lat = Number(`-${20 + (i % 30)}.${String((i * 7919) % 100000).padStart(5, '0')}1`);
      const lon = Number(`-${66 + (i % 9)}.${String((i * 104729) % 100000).padStart(5, '0')}1`);
      insert.run(
        id,
        `EJEMPLO - Lugar ${n}`,
        `EJEMPLO - Descripción del lugar número ${n}`,
        LOCATION_TYPES[t],
        lat,
        lon,
        i,
        typePos[t]!++,
      );
    }
  })();
  db.close();
  renameSync(temp, DB);
}

/** Starts this script as a child in `mode` and resolves with the URL it prints. */
function child(args: string[]): Promise<{ url: string; process: ChildProcess }> {
  const proc = spawn(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return new Promise((resolve, reject) => {
    proc.stdout!.once('data', (chunk: Buffer) => resolve({ url: chunk.toString().trim(), process: proc }));
    proc.once('exit', (code) => reject(new Error(`benchmark child ${args[0]} exited with ${code}`)));
  });
}

/** A response as recorded from the server: its headers (flat, without the ones node:http adds itself) and body. */
interface Recorded {
  headers: string[];
  body: string; // base64
}

/** Records the response to GET `url` as the bare baseline must replay it. */
function record(url: string): Promise<Recorded> {
  return new Promise((resolve, reject) => {
    request(url, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        const headers: string[] = [];
        for (let i = 0; i < res.rawHeaders.length; i += 2) {
          const name = res.rawHeaders[i]!;
          if (!/^(date|connection|keep-alive)$/i.test(name)) headers.push(name, res.rawHeaders[i + 1]!);
        }
        resolve({ headers, body: Buffer.concat(chunks).toString('base64') });
      });
    })
      .on('error', reject)
      .end();
  });
}

interface Figures {
  name: string;
  rps: number;
  p99: number;
  errors: number;
  cpuUs: number; // CPU time of the server's main thread per response, µs (NaN where /proc is missing)
}

/** CPU seconds the main thread of `pid` has used (utime + stime of /proc/PID/task/PID/stat), or NaN. */
function mainThreadCpu(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS; // fields 14 and 15 of proc(5)
  } catch {
    return NaN;
  }
}

async function load(name: string, url: string, pid: number): Promise<Figures> {
  const before = mainThreadCpu(pid);
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const cpuUs = ((mainThreadCpu(pid) - before) * 1e6) / result.requests.total;
  const errors = result.errors + result.non2xx + result.timeouts;
  return { name, rps: result.requests.average, p99: result.latency.p99, errors, cpuUs };
}

/** A socket that takes every write and keeps nothing: node:http's objects without a network. */
class NullSocket extends Duplex {
  override _read(): void {}
  override _write(_chunk: unknown, _encoding: unknown, done: () => void): void {
    done();
  }
}

type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Returns the CPU time (µs) this process spends on `calls` calls of `handler`
 * for GET `url`, the responses' queued ticks included. CPU time, not wall
 * time: a busy machine that takes the core away does not count.
 */
async function batchCpu(handler: Handler, url: string, calls: number): Promise<number> {
  const start = process.cpuUsage();
  for (let i = 0; i < calls; i++) {
    const socket = new NullSocket() as unknown as Socket;
    const req = new IncomingMessage(socket);
    Object.assign(req, { method: 'GET', url, headers: { host: '127.0.0.1' } });
    const res = new ServerResponse(req);
    res.assignSocket(socket);
    handler(req, res);
  }
  await nextTurn();
  const used = process.cpuUsage(start);
  return used.user + used.system;
}

/**
 * The server's own work per cached first page, apart from the client and the
 * kernel: its handler and a bare one writing the recorded response (same
 * header list, same body), called in-process on node:http objects over a
 * socket that discards the bytes, in alternating batches of 250; 15 rounds of
 * 10,000 calls each, the median of the rounds' ratios.
 */
async function handlerWork(recorded: Recorded, path: string) {
  const app = createApp({ db: DB, watch: false, log: () => {} });
  const body = Buffer.from(recorded.body, 'base64');
  const bare: Handler = (_req, res) => {
    res.writeHead(200, recorded.headers);
    res.end(body);
  };
  const BATCH = 250;
  try {
    for (let i = 0; i < 20; i++) await batchCpu(app, path, BATCH); // warm-up: cached page, compiled code
    for (let i = 0; i < 20; i++) await batchCpu(bare, path, BATCH);
    const rounds: { bare: number; app: number }[] = [];
    for (let round = 0; round < 15; round++) {
      let bareUs = 0;
      let appUs = 0;
      for (let done = 0; done < 10_000; done += BATCH) {
        bareUs += await batchCpu(bare, path, BATCH);
        appUs += await batchCpu(app, path, BATCH);
      }
      rounds.push({ bare: bareUs / 10_000, app: appUs / 10_000 });
    }
    const median = (values: number[]) => values.sort((a, b) => a - b)[7]!;
    return {
      bareUs: median(rounds.map((r) => r.bare)),
      appUs: median(rounds.map((r) => r.app)),
      ratio: median(rounds.map((r) => r.bare / r.app)),
    };
  } finally {
    app.close();
  }
}

async function main(): Promise<void> {
  const started = Date.now();
  buildDatabase();
  console.log(
    `database: ${DB} (${ROWS} rows, built in ${((Date.now() - started) / 1000).toFixed(1)} s or reused)`,
  );
  console.log(
    `machine: ${cpus().length} cores, Node ${process.version}; load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s per case, median, after one warm-up round, 127.0.0.1 only\n`,
  );

  const paths = {
    first: '/ubicaciones/',
    deep: '/ubicaciones/?skip=900000',
    typed: '/ubicaciones/bencineras/?skip=240000',
  };
  // Two servers (response cache on and off) and two bare baselines, all
  // running at once; each case is loaded in nine short rounds (alternately
  // forward and backward; the median is shown), so neither warm-up nor
  // drifting machine load favours one case.
  const children: ChildProcess[] = [];
  let results: Figures[];
  let bytes: number;
  try {
    const cached = await child(['child-server', DB, String(64 * 1024 * 1024)]);
    const uncached = await child(['child-server', DB, '0']);
    children.push(cached.process, uncached.process);
    const recorded = await record(cached.url + paths.first);
    bytes = Buffer.from(recorded.body, 'base64').length;
    writeFileSync(join(DIR, 'first-page.json'), JSON.stringify(recorded));
    const same = await child(['child-bare', join(DIR, 'first-page.json'), 'same-headers']);
    const minimal = await child(['child-bare', join(DIR, 'first-page.json'), 'minimal-headers']);
    children.push(same.process, minimal.process);
    const cases: [string, string, ChildProcess][] = [
      [`bare node:http, same bytes (${recorded.headers.length / 2} headers)`, same.url, same.process],
      ['bare node:http, same body, 2 headers', minimal.url, minimal.process],
    ];
    for (const [server, label] of [
      [cached, 'response cache on'],
      [uncached, 'response cache off'],
    ] as const) {
      cases.push([`first page (${label})`, server.url + paths.first, server.process]);
      cases.push([`skip=900000, all (${label})`, server.url + paths.deep, server.process]);
      cases.push([`skip=240000, bencineras (${label})`, server.url + paths.typed, server.process]);
    }
    for (const [name, url, proc] of cases) await load(name, url, proc.pid!); // warm-up: JIT, SQLite and OS caches
    const runs = new Map<string, Figures[]>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? cases : [...cases].reverse();
      for (const [name, url, proc] of order) {
        runs.set(name, [...(runs.get(name) ?? []), await load(name, url, proc.pid!)]);
      }
    }
    results = cases.map(([name]) => {
      const figures = runs.get(name)!;
      const median = (pick: (f: Figures) => number) =>
        figures.map(pick).sort((a, b) => a - b)[(ROUNDS - 1) / 2]!;
      return {
        name,
        rps: median((f) => f.rps),
        p99: median((f) => f.p99),
        errors: median((f) => f.errors),
        cpuUs: median((f) => f.cpuUs),
      };
    });
  } finally {
    for (const proc of children) proc.kill();
  }
  const recorded = JSON.parse(readFileSync(join(DIR, 'first-page.json'), 'utf8')) as Recorded;
  const work = await handlerWork(recorded, paths.first);

  const width = Math.max(...results.map((r) => r.name.length));
  console.log(`every response: ${bytes} bytes of body`);
  console.log(
    `${'case'.padEnd(width)}  ${'req/s'.padStart(8)}  ${'p99 ms'.padStart(7)}  ${'CPU µs/resp'.padStart(11)}  errors`,
  );
  for (const r of results) {
    console.log(
      `${r.name.padEnd(width)}  ${r.rps.toFixed(0).padStart(8)}  ${r.p99.toFixed(1).padStart(7)}  ${r.cpuUs
        .toFixed(1)
        .padStart(11)}  ${r.errors}`,
    );
  }
  const [same, minimal, first, deep, typed, firstOff, deepOff, typedOff] = results;
  const ratio = (name: string, value: number, target?: number) =>
    console.log(
      `${name.padEnd(58)} ${value.toFixed(2)}${
        target === undefined ? '' : `  (target ≥ ${target}: ${value >= target ? 'met' : 'NOT met'})`
      }`,
    );
  console.log('\nratios of req/s, measured in this run (the targets):');
  ratio('first page (cache on) / bare, same bytes', first!.rps / same!.rps, 0.9);
  ratio('skip=900000 / first page (cache on)', deep!.rps / first!.rps, 0.9);
  ratio('deep typed / first page (cache on)', typed!.rps / first!.rps, 0.9);
  console.log('for reference:');
  ratio('first page (cache on) / bare, same body with 2 headers', first!.rps / minimal!.rps);
  ratio('first page / bare, same bytes (cache off)', firstOff!.rps / same!.rps);
  ratio('skip=900000 / first page (cache off)', deepOff!.rps / firstOff!.rps);
  ratio('deep typed / first page (cache off)', typedOff!.rps / firstOff!.rps);
  // With one client process on the same cores, req/s can be the client's limit rather than the
  // server's; the server's own CPU per response is what its capacity is made of.
  console.log("server capacity, from the main thread's CPU time per response (µs in the table):");
  ratio('first page (cache on): bare µs / ours µs', same!.cpuUs / first!.cpuUs);
  console.log(
    `the handler's own work per cached first page, in-process, no socket, CPU time: bare ${work.bareUs.toFixed(2)} µs, ours ${work.appUs.toFixed(2)} µs`,
  );
  ratio('first page: bare / ours (median of 15 rounds)', work.ratio);
  console.log(
    `\nload average at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

// ---- what this process is: a child (the server under test, a bare baseline) or the benchmark ----
// (at the end of the module, so every declaration above is initialised)
if (process.argv[2] === 'child-server') {
  const running = await startServer({
    db: process.argv[3]!,
    port: 0,
    responseCacheBytes: Number(process.argv[4]),
    log: jsonLinesLogger(process.stderr), // stdout carries the one line the parent reads
  });
  console.log(running.url);
} else if (process.argv[2] === 'child-bare') {
  // the recorded response: every header as a prebuilt list (node:http's fastest form), or the body with 2 headers
  const { headers, body: base64 } = JSON.parse(readFileSync(process.argv[3]!, 'utf8')) as Recorded;
  const body = Buffer.from(base64, 'base64');
  const minimal = ['content-type', 'application/json', 'content-length', String(body.length)];
  const list = process.argv[4] === 'same-headers' ? headers : minimal;
  const server = createServer((_req, res) => {
    res.writeHead(200, list);
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () =>
    console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
  );
} else {
  await main();
}
