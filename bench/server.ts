// npm run bench:server — the locations server under load, against a bare
// node:http server returning the same bytes, measured in the same run.
//
// Builds a 1,000,000-row database in /tmp (kept between runs), starts the
// server and the baseline in child processes, loads each with autocannon on
// 127.0.0.1 for a bounded time, and prints req/s, p99 and the target ratios:
// deep page ≥ 0.9 × first page, first page ≥ 0.5 × bare baseline.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import Database from 'better-sqlite3';
import { SCHEMA_SQL } from '../src/locations/db.ts';
import { LOCATION_TYPES } from '../src/locations/types.ts';
import { startServer } from '../src/server/app.ts';

const ROWS = 1_000_000;
const DIR = '/tmp/geoshelf-bench-server';
const DB = join(DIR, `locations-${ROWS}-v2.sqlite`);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2); // per case and round
const ROUNDS = 9; // odd: the median is one of them
const CONNECTIONS = 10;

// ---- child processes: the server under test, and the bare baseline ----
if (process.argv[2] === 'child-server') {
  const running = await startServer({
    db: process.argv[3]!,
    port: 0,
    responseCacheBytes: Number(process.argv[4]),
  });
  console.log(running.url);
} else if (process.argv[2] === 'child-bare') {
  const body = readFileSync(process.argv[3]!);
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
    res.end(body);
  });
  server.listen(0, '127.0.0.1', () =>
    console.log(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
  );
} else {
  await main();
}

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

interface Figures {
  name: string;
  rps: number;
  p99: number;
  errors: number;
}

async function load(name: string, url: string): Promise<Figures> {
  const result = await autocannon({ url, connections: CONNECTIONS, duration: SECONDS });
  const errors = result.errors + result.non2xx + result.timeouts;
  return { name, rps: result.requests.average, p99: result.latency.p99, errors };
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
  // Two servers (response cache on and off) and the bare baseline, all running
  // at once; each case is loaded in nine short rounds (alternately forward
  // and backward; the median is shown), so neither warm-up nor drifting machine load favours one case.
  const children: ChildProcess[] = [];
  let results: Figures[];
  try {
    const cached = await child(['child-server', DB, String(64 * 1024 * 1024)]);
    const uncached = await child(['child-server', DB, '0']);
    children.push(cached.process, uncached.process);
    const body = Buffer.from(await (await fetch(cached.url + paths.first)).arrayBuffer());
    writeFileSync(join(DIR, 'first-page.json'), body);
    const bare = await child(['child-bare', join(DIR, 'first-page.json')]);
    children.push(bare.process);
    const cases: [string, string][] = [[`bare node:http, same ${body.length} bytes`, bare.url]];
    for (const [server, label] of [
      [cached, 'response cache on'],
      [uncached, 'response cache off'],
    ] as const) {
      cases.push([`first page (${label})`, server.url + paths.first]);
      cases.push([`skip=900000, all (${label})`, server.url + paths.deep]);
      cases.push([`skip=240000, bencineras (${label})`, server.url + paths.typed]);
    }
    for (const [name, url] of cases) await load(name, url); // warm-up: JIT, SQLite and OS caches
    const runs = new Map<string, Figures[]>();
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 === 0 ? cases : [...cases].reverse();
      for (const [name, url] of order) runs.set(name, [...(runs.get(name) ?? []), await load(name, url)]);
    }
    results = cases.map(([name]) => {
      const figures = runs.get(name)!;
      const median = (pick: (f: Figures) => number) =>
        figures.map(pick).sort((a, b) => a - b)[(ROUNDS - 1) / 2]!;
      return { name, rps: median((f) => f.rps), p99: median((f) => f.p99), errors: median((f) => f.errors) };
    });
  } finally {
    for (const proc of children) proc.kill();
  }

  const width = Math.max(...results.map((r) => r.name.length));
  console.log(`${'case'.padEnd(width)}  ${'req/s'.padStart(8)}  ${'p99 ms'.padStart(7)}  errors`);
  for (const r of results) {
    console.log(
      `${r.name.padEnd(width)}  ${r.rps.toFixed(0).padStart(8)}  ${r.p99.toFixed(1).padStart(7)}  ${r.errors}`,
    );
  }
  const [bare, first, deep, typed, firstOff, deepOff, typedOff] = results.map((r) => r.rps) as number[];
  const ratio = (name: string, value: number, target: number) =>
    console.log(
      `${name.padEnd(44)} ${value.toFixed(2)}  (target ≥ ${target}: ${value >= target ? 'met' : 'NOT met'})`,
    );
  console.log('');
  ratio('first page / bare baseline (cache on)', first! / bare!, 0.5);
  ratio('skip=900000 / first page (cache on)', deep! / first!, 0.9);
  ratio('deep typed / first page (cache on)', typed! / first!, 0.9);
  ratio('first page / bare baseline (cache off)', firstOff! / bare!, 0.5);
  ratio('skip=900000 / first page (cache off)', deepOff! / firstOff!, 0.9);
  ratio('deep typed / first page (cache off)', typedOff! / firstOff!, 0.9);
  console.log(
    `\nload average at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}
