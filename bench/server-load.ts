// npm run bench:server-load — what the issue-8 hardening promises, under load
// on 127.0.0.1, each server in its own child process:
//   1. deep pages on files our importer did not write (a plain 1,000,000-row
//      `locations` table and the original service's `ubicaciones` shape): pages
//      at a random skip near the end ≥ 0.8 × the throughput of pages at a random
//      skip near the start (random skips: no response cache helps);
//      the start-up cost of the seek index (time, memory) is printed;
//   2. p99 latency of ordinary page requests while two other clients keep
//      pulling ?limit=1000000: ≤ 250 ms, server peak RSS ≤ 600 MB.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { openLocationStore, SCHEMA_SQL } from '../src/locations/db.ts';
import { LOCATION_TYPES } from '../src/locations/types.ts';
import { startServer } from '../src/server/app.ts';
import { jsonLinesLogger } from '../src/server/log.ts';

const ROWS = 1_000_000;
const DIR = '/tmp/geoshelf-bench-server-load';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3); // per case and round
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3); // odd: the median is one of them
const CONNECTIONS = 10;
const LEGACY_TYPES = ['pronto', 'bencinera', 'servicio', 'otros'];

type Shape = 'plain' | 'legacy' | 'geoshelf';

/** Writes a 1,000,000-row table of `shape` (kept in /tmp between runs). */
function build(shape: Shape): string {
  const path = join(DIR, `${shape}-${ROWS}.sqlite`);
  if (existsSync(path)) return path;
  mkdirSync(DIR, { recursive: true });
  const temp = `${path}.tmp`;
  rmSync(temp, { force: true });
  const db = new Database(temp);
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  if (shape === 'legacy') {
    // the original service's DDL (SQLAlchemy): UUID ids as 32 hex digits, plural/legacy types
    db.exec(
      'CREATE TABLE ubicaciones (id UUID NOT NULL, name VARCHAR NOT NULL, description VARCHAR, type VARCHAR NOT NULL, latitude FLOAT NOT NULL, longitude FLOAT NOT NULL, PRIMARY KEY (id))',
    );
  } else if (shape === 'plain') {
    db.exec(
      'CREATE TABLE locations (id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, type TEXT NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL)',
    );
  } else {
    db.exec(SCHEMA_SQL);
  }
  const table = shape === 'legacy' ? 'ubicaciones' : 'locations';
  const insert = db.prepare(
    shape === 'geoshelf'
      ? `INSERT INTO locations VALUES (?, ?, ?, ?, ?, ?, ?, ?)`
      : `INSERT INTO ${table} VALUES (?, ?, ?, ?, ?, ?)`,
  );
  const typePos = [0, 0, 0, 0];
  db.transaction(() => {
    for (let i = 0; i < ROWS; i++) {
      const t = i % 4;
      const hex = `f${(Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0')}${i.toString(16).padStart(23, '0')}`;
      const id =
        shape === 'legacy'
          ? hex
          : `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
      const n = String(i).padStart(7, '0');
      const values = [
        id,
        `EJEMPLO - Lugar ${n}`,
        `EJEMPLO - Descripción del lugar número ${n}`,
        shape === 'legacy' ? LEGACY_TYPES[t] : LOCATION_TYPES[t],
        -33 - (i % 1000) / 1000,
        -70 - (i % 997) / 1000,
      ];
      if (shape === 'geoshelf') insert.run(...values, i, typePos[t]!++);
      else insert.run(...values);
    }
  })();
  db.close();
  renameSync(temp, path);
  return path;
}

interface Started {
  url: string;
  openMs: number;
  indexBytes: number;
  rssMb: number;
  layout: string;
  process: ChildProcess;
}

function child(path: string): Promise<Started> {
  const proc = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), 'child-server', path],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  return new Promise((resolve, reject) => {
    proc.stdout!.once('data', (chunk: Buffer) => resolve({ ...JSON.parse(chunk.toString()), process: proc }));
    proc.once('exit', (code) => reject(new Error(`benchmark child exited with ${code}`)));
  });
}

/** Peak resident memory of a process so far (VmHWM), in MB. */
function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return Number(match?.[1] ?? 0) / 1024;
}

/** Loads `base` with pages at random skips drawn by `skip()`; returns req/s, p99 ms and errors. */
async function load(base: string, route: string, skip: () => number, seconds = SECONDS) {
  const result = await autocannon({
    url: base,
    connections: CONNECTIONS,
    duration: seconds,
    requests: [
      { method: 'GET', setupRequest: (req) => ({ ...req, path: `${route}?skip=${skip()}&limit=100` }) },
    ],
  });
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    errors: result.errors + result.non2xx + result.timeouts,
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1]!;
const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

async function deepPages(): Promise<void> {
  console.log('1. deep pages on tables our importer did not write (limit=100, random skips)\n');
  for (const shape of ['plain', 'legacy'] as const) {
    const server = await child(build(shape));
    try {
      console.log(
        `${shape}: layout ${server.layout}; start-up (open + seek index) ${server.openMs.toFixed(0)} ms, index ${(server.indexBytes / 1024).toFixed(0)} KiB (${(server.indexBytes / ROWS).toFixed(2)} B/row), server RSS after start ${server.rssMb.toFixed(0)} MB`,
      );
      for (const [route, count] of [
        ['/ubicaciones/', ROWS],
        ['/ubicaciones/bencineras/', ROWS / 4],
      ] as const) {
        const near = (from: number) => () => from + Math.floor(Math.random() * 10_000);
        const cases = { start: near(0), end: near(count - 10_100) };
        await load(server.url, route, cases.start, 1); // warm-up
        const rps: Record<string, number[]> = { start: [], end: [] };
        for (let round = 0; round < ROUNDS; round++) {
          for (const name of round % 2 === 0 ? ['start', 'end'] : ['end', 'start']) {
            rps[name]!.push((await load(server.url, route, cases[name as 'start' | 'end'])).rps);
          }
        }
        const ratio = median(rps.end!) / median(rps.start!);
        console.log(
          `  ${route.padEnd(26)} near start ${median(rps.start!).toFixed(0).padStart(6)} req/s, near end ${median(rps.end!).toFixed(0).padStart(6)} req/s, end/start ${ratio.toFixed(2)} (target ≥ 0.8: ${verdict(ratio >= 0.8)})`,
        );
      }
    } finally {
      server.process.kill();
    }
  }
}

/** Pulls `url` again and again, reading and dropping the body; prints the bytes read when killed. */
function pullForever(url: string): void {
  let bytes = 0;
  process.on('SIGTERM', () => {
    console.log(bytes);
    process.exit(0);
  });
  const next = () =>
    request(url, (res) => {
      res.on('data', (chunk: Buffer) => (bytes += chunk.length));
      res.on('end', next);
    }).end();
  next();
}

/** A client pulling `url` in its own process (so the load generator's event loop stays its own). */
function puller(url: string): { stop: () => Promise<number> } {
  const proc = spawn(
    process.execPath,
    [...process.execArgv, fileURLToPath(import.meta.url), 'child-puller', url],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  let out = '';
  proc.stdout!.on('data', (chunk: Buffer) => (out += chunk.toString()));
  return {
    stop: () =>
      new Promise((resolve) => {
        proc.once('exit', () => resolve(Number(out.trim()) || 0));
        proc.kill('SIGTERM');
      }),
  };
}

async function underHugePulls(): Promise<void> {
  console.log('\n2. ordinary pages (limit=100, random skip) while two clients pull ?limit=1000000\n');
  const server = await child(build('geoshelf'));
  try {
    const route = '/ubicaciones/';
    const quiet = await load(server.url, route, () => Math.floor(Math.random() * (ROWS - 100)), SECONDS * 2);
    const pullers = [0, 1].map(() => puller(`${server.url}${route}?limit=1000000`));
    await new Promise((resolve) => setTimeout(resolve, 1000)); // both pulls under way
    const busy = await load(server.url, route, () => Math.floor(Math.random() * (ROWS - 100)), SECONDS * 4);
    const pulled = (await Promise.all(pullers.map((p) => p.stop()))).reduce((a, b) => a + b, 0);
    const peak = peakRssMb(server.process.pid!);
    console.log(
      `  alone:                 ${quiet.rps.toFixed(0).padStart(6)} req/s, p99 ${quiet.p99.toFixed(0)} ms, errors ${quiet.errors}`,
    );
    console.log(
      `  with two huge pulls:   ${busy.rps.toFixed(0).padStart(6)} req/s, p99 ${busy.p99.toFixed(0)} ms (target ≤ 250: ${verdict(busy.p99 <= 250)}), errors ${busy.errors}; the two pulls read ${(pulled / 1e6).toFixed(0)} MB meanwhile`,
    );
    console.log(`  server peak RSS ${peak.toFixed(0)} MB (target ≤ 600: ${verdict(peak <= 600)})`);
  } finally {
    server.process.kill();
  }
}

async function main(): Promise<void> {
  console.log(
    `machine: ${cpus().length} cores, Node ${process.version}; load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(
    `autocannon: ${CONNECTIONS} connections, ${ROUNDS} rounds × ${SECONDS} s per case (median), 127.0.0.1 only\n`,
  );
  await deepPages();
  await underHugePulls();
  console.log(
    `\nload average at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

// dispatch last: every const above is initialised by then
if (process.argv[2] === 'child-server') {
  const path = process.argv[3]!;
  const started = performance.now();
  const store = openLocationStore(path);
  const openMs = performance.now() - started;
  // the log to stderr: stdout carries the one line the parent reads
  const running = await startServer({ db: store, port: 0, log: jsonLinesLogger(process.stderr) });
  const memory = process.memoryUsage();
  console.log(
    JSON.stringify({
      url: running.url,
      openMs,
      indexBytes: store.indexBytes,
      rssMb: memory.rss / 2 ** 20,
      layout: store.layout,
    }),
  );
} else if (process.argv[2] === 'child-puller') {
  pullForever(process.argv[3]!);
} else {
  await main();
}
