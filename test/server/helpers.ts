// Shared by the server tests: temporary databases built through the real
// importer, a real server on 127.0.0.1 port 0, and raw HTTP requests.
import type { ChildProcess } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { importLocations } from '../../src/locations/import.ts';
import { startServer, type AppOptions, type RunningServer } from '../../src/server/app.ts';
import type { LogEntry, Logger } from '../../src/server/log.ts';

export interface Reply {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer; // as sent: not decompressed
  text: string;
  json(): unknown;
}

/**
 * Returns a reply whose text is decoded when first read: most replies are
 * checked by status and headers, and decoding a 17 MiB body on each took
 * a second of the suite's CPU.
 */
function reply(status: number, headers: IncomingHttpHeaders, body: Buffer): Reply {
  let text: string | undefined;
  const decoded = () => (text ??= body.toString('utf8'));
  return {
    status,
    headers,
    body,
    get text() {
      return decoded();
    },
    json: () => JSON.parse(decoded()) as unknown,
  };
}

/** Sends one request with node:http (no automatic decompression or redirects) and returns the raw reply. */
export function request(url: string, options: { method?: string; headers?: Record<string, string> } = {}) {
  return new Promise<Reply>((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        resolve(reply(res.statusCode!, res.headers, Buffer.concat(chunks)));
      });
    });
    req.on('error', reject);
    req.end();
  });
}

/** Sends a raw request line (paths node:http would refuse or normalise, e.g. "/a/../b"). */
export function rawPathRequest(
  base: string,
  path: string,
  headers: Record<string, string> = {},
  method = 'GET',
) {
  const url = new URL(base);
  return new Promise<Reply>((resolve, reject) => {
    // A connection of its own (agent: false): a kept-alive socket that the server closes as
    // the next request goes out fails with ECONNRESET on a loaded machine, which is not what these tests check.
    const req = httpRequest(
      { host: url.hostname, port: url.port, path, headers, method, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          resolve(reply(res.statusCode!, res.headers, Buffer.concat(chunks)));
        });
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/** A temporary folder, removed by the returned cleanup. */
export async function tempDir(
  prefix = 'geoshelf-test-',
): Promise<{ dir: string; cleanup: () => Promise<void> }> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  return { dir, cleanup: () => rm(dir, { recursive: true, force: true }) };
}

export interface SampleRow {
  id?: string;
  name: string;
  description: string;
  type: string;
  latitude: number;
  longitude: number;
}

/** Returns `count` rows cycling through `types`, e.g. "Lugar 7" of type bencinera. */
export function sampleRows(
  count: number,
  types = ['convenience', 'bencinera', 'servicio', 'otro'],
): SampleRow[] {
  return Array.from({ length: count }, (_, i) => ({
    name: `Lugar ${i}`,
    description: `Descripción ${i}`,
    type: types[i % types.length]!,
    latitude: -33 - i / 1000,
    longitude: -70 - i / 1000,
  }));
}

/** Writes `rows` as a JSON file in `dir` and imports it into `dir/name`; returns the database path. */
export async function buildDb(dir: string, rows: SampleRow[], name = 'locations.sqlite'): Promise<string> {
  const input = join(dir, `${name}.input.json`);
  await writeFile(input, JSON.stringify(rows));
  const db = join(dir, name);
  const result = await importLocations({ files: [input], db });
  if (result.problems.length > 0) throw new Error(JSON.stringify(result.problems));
  return db;
}

/** Returns a logger that keeps the entries in `entries` (the tests' servers print nothing). */
export function recordingLogger(): Logger & { entries: LogEntry[] } {
  const entries: LogEntry[] = [];
  return Object.assign((entry: LogEntry) => void entries.push(entry), { entries });
}

/** Starts a real server on 127.0.0.1, port 0, logging into a recorder unless `options.log` is given. */
export function serve(options: AppOptions): Promise<RunningServer> {
  return startServer({ log: recordingLogger(), ...options, host: '127.0.0.1', port: 0 });
}

/**
 * Resolves with the URL of the first log line of `child` (a `geoshelf serve`
 * or `npm start` process) whose event is "listening"; rejects if it exits first.
 */
export function listeningUrl(child: ChildProcess): Promise<string> {
  return new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      for (const line of out.split('\n').slice(0, -1)) {
        if (!line.startsWith('{')) continue; // e.g. npm's own "> start" lines
        const entry = JSON.parse(line) as { event?: string; url?: string };
        if (entry.event === 'listening') resolve(entry.url!);
      }
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before listening`)));
  });
}

/** Asks for `path` and hangs up as soon as the first bytes arrive. */
function abortMidFile(base: string, path: string, range?: string): Promise<void> {
  return new Promise((resolve) => {
    const req = httpRequest(base + path, { headers: range ? { range } : {}, agent: false }, (res) => {
      res.once('data', () => {
        req.destroy();
        resolve();
      });
      res.once('end', resolve);
    });
    req.on('error', () => resolve());
    req.end();
  });
}

/**
 * Has `clients` clients ask for `path`, 50 at once, every other one with a
 * Range, each hanging up mid-file; returns the process's open descriptors
 * once they are back within 5 of what they were before (or after 5 s).
 */
export async function descriptorsAfterAborts(
  base: string,
  path: string,
  clients: number,
): Promise<{ baseline: number; now: number }> {
  const openFds = () => readdirSync('/proc/self/fd').length;
  await abortMidFile(base, path); // warm up lazily opened handles
  const baseline = openFds();
  for (let done = 0; done < clients; done += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, clients - done) }, (_, i) =>
        abortMidFile(base, path, i % 2 ? `bytes=${i * 1000}-` : undefined),
      ),
    );
  }
  let now = openFds();
  for (let wait = 0; wait < 100 && now > baseline + 5; wait++) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    now = openFds();
  }
  return { baseline, now };
}
