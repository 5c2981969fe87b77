// npm run bench:import — `geoshelf locations import` of 1,000,000 CSV rows
// (about 113 MB) against the sqlite3 shell's `.import` into a table with the
// same primary key, measured in the same run. Targets: import time ≤ the
// shell's (ratio ≤ 1.00) and peak RSS ≤ 200 MB.
//
// The CSV is generated once in /tmp and kept. Each tool runs as its own
// process, timed from spawn to exit, peak RSS from /usr/bin/time (GNU time).
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROWS = 1_000_000;
const DIR = '/tmp/geoshelf-bench-import';
const CSV = join(DIR, `locations-${ROWS}.csv`);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3); // the median is shown
const BIN = fileURLToPath(new URL('../bin/geoshelf.js', import.meta.url));
const TYPES = ['convenience', 'bencinera', 'servicio', 'otro'];

/** Writes the CSV: a UUID, name, description, type and coordinates per row, like a real export. */
async function writeCsv(): Promise<void> {
  if (existsSync(CSV)) return;
  mkdirSync(DIR, { recursive: true });
  const temp = `${CSV}.tmp`;
  const out = createWriteStream(temp);
  out.write('id,name,description,type,latitude,longitude\n');
  for (let i = 0; i < ROWS; i++) {
    // ids in a scrambled order, as real UUIDs are: the primary key index is built at random
    const h = (Math.imul(i, 2654435761) >>> 0).toString(16).padStart(8, '0');
    const id = `${h}-${(i & 0xffff).toString(16).padStart(4, '0')}-4000-8000-${i.toString(16).padStart(12, '0')}`;
    const line = `${id},EJEMPLO - Lugar ${i},"EJEMPLO - Descripción del lugar, número ${i}",${TYPES[i % 4]},-${20 + (i % 30)}.${(i * 7919) % 100000},-${66 + (i % 9)}.${(i * 104729) % 100000}\n`;
    if (!out.write(line)) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  }
  await new Promise<void>((resolve) => out.end(() => resolve()));
  renameSync(temp, CSV);
}

/** Runs `command` under GNU time; returns seconds and peak RSS (MB). */
function timed(
  command: string[],
  input?: string,
): { seconds: number; rssMb: number; ok: boolean; err: string } {
  const result = spawnSync('/usr/bin/time', ['-f', '%e %M', ...command], { input, encoding: 'utf8' });
  const lines = result.stderr.trim().split('\n');
  const [seconds, kb] = lines.at(-1)!.split(' ').map(Number);
  return {
    seconds: seconds!,
    rssMb: kb! / 1024,
    ok: result.status === 0,
    err: lines.slice(0, -1).join('\n'),
  };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[(values.length - 1) >> 1]!;

async function main(): Promise<void> {
  for (const tool of ['/usr/bin/time', 'sqlite3']) {
    if (spawnSync('sh', ['-c', `command -v ${tool}`]).status !== 0) {
      console.log(
        `bench:import needs ${tool} (Debian: apt-get install ${tool === 'sqlite3' ? 'sqlite3' : 'time'}); not run`,
      );
      return;
    }
  }
  await writeCsv();
  console.log(`input: ${CSV} (${ROWS} rows, ${(statSync(CSV).size / 1e6).toFixed(0)} MB)`);
  console.log(
    `machine: ${cpus().length} cores, Node ${process.version}; load average at start ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  const shellSql = `CREATE TABLE locations (id TEXT PRIMARY KEY, name TEXT NOT NULL, description TEXT NOT NULL, type TEXT NOT NULL, latitude REAL NOT NULL, longitude REAL NOT NULL);\n.import --csv --skip 1 ${CSV} locations\nSELECT COUNT(*) FROM locations;\n`;
  const shell: number[] = [];
  const ours: number[] = [];
  const rss: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // alternate the order, so neither tool always runs on a warmer page cache
    const order = round % 2 === 0 ? ['shell', 'ours'] : ['ours', 'shell'];
    for (const tool of order) {
      const db = join(DIR, `${tool}.sqlite`);
      rmSync(db, { force: true });
      if (tool === 'shell') {
        const r = timed(['sqlite3', db], shellSql);
        if (!r.ok) throw new Error(`sqlite3 .import failed: ${r.err}`);
        shell.push(r.seconds);
      } else {
        const r = timed([process.execPath, BIN, 'locations', 'import', CSV, '--db', db]);
        if (!r.ok) throw new Error(`geoshelf import failed: ${r.err}`);
        ours.push(r.seconds);
        rss.push(r.rssMb);
      }
      rmSync(db, { force: true });
    }
    console.log(
      `round ${round + 1}: sqlite3 .import ${shell.at(-1)!.toFixed(2)} s, geoshelf ${ours.at(-1)!.toFixed(2)} s, peak RSS ${rss.at(-1)!.toFixed(0)} MB`,
    );
  }
  const ratio = median(ours) / median(shell);
  console.log(
    `\nmedian of ${ROUNDS}: sqlite3 .import ${median(shell).toFixed(2)} s, geoshelf ${median(ours).toFixed(2)} s (${(ROWS / median(ours) / 1000).toFixed(0)}k rows/s)`,
  );
  console.log(
    `geoshelf / sqlite3 .import time: ${ratio.toFixed(2)}  (target ≤ 1.00: ${ratio <= 1 ? 'met' : 'NOT met'})`,
  );
  const peak = Math.max(...rss);
  console.log(`geoshelf peak RSS: ${peak.toFixed(0)} MB  (target ≤ 200: ${peak <= 200 ? 'met' : 'NOT met'})`);
  console.log(
    `load average at end ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
}

await main();
