// `npm start` as a user runs it (npm → `sh -c` → node): it checks its port
// before building, so a busy port fails fast with serve's one line and builds
// nothing; and SIGTERM to the npm process stops the server: npm exits, and the
// port is free again. Runs in a sandbox shaped like the repository (the real
// package.json and scripts/start.ts; bin/, src/, build/, public/, lib/ and node_modules/ linked; a
// three-country data tree), so the repository's own data/ and dist/ are untouched.
import { spawn } from 'node:child_process';
import { copyFile, cp, mkdir, symlink } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listeningUrl, tempDir } from './helpers.ts';

const REPO = new URL('../..', import.meta.url).pathname;
const BOUND_MS = 90_000; // every npm child is killed after this, whatever happens

let sandbox: string;
let cleanup: () => Promise<void>;

beforeAll(async () => {
  ({ dir: sandbox, cleanup } = await tempDir('geoshelf-npm-start-'));
  await mkdir(join(sandbox, 'scripts'));
  await copyFile(join(REPO, 'package.json'), join(sandbox, 'package.json'));
  await copyFile(join(REPO, 'scripts/start.ts'), join(sandbox, 'scripts/start.ts'));
  for (const linked of ['bin', 'src', 'build', 'public', 'lib', 'node_modules', 'tsconfig.json']) {
    await symlink(join(REPO, linked), join(sandbox, linked));
  }
  await cp(join(REPO, 'test/fixtures/build/data'), join(sandbox, 'data'), { recursive: true });
  await mkdir(join(sandbox, 'data/locations'));
  await copyFile(join(REPO, 'data/locations/sample.csv'), join(sandbox, 'data/locations/sample.csv'));
});
afterAll(() => cleanup());

/**
 * Spawns `npm start -- ARGS` in the sandbox, in a process group of its own,
 * collecting its output; kill() ends the whole group (npm, sh, node, even a
 * node left behind), as does a timer after BOUND_MS.
 */
function npmStart(...args: string[]) {
  return npmRun(['start', '--', ...args]);
}

/** Spawns `npm ARGS` in the sandbox, as npmStart() does. */
function npmRun(args: string[]) {
  const child = spawn('npm', args, {
    cwd: sandbox,
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  const kill = () => {
    try {
      process.kill(-child.pid!, 'SIGKILL');
    } catch {
      // the group is gone already
    }
  };
  const bound = setTimeout(kill, BOUND_MS);
  bound.unref();
  return { child, output: () => output, exited, kill };
}

/** Resolves with whether host:port can be listened on now. */
function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer();
    probe.once('error', () => resolve(false));
    probe.listen(port, '127.0.0.1', () => probe.close(() => resolve(true)));
  });
}

describe('npm start', () => {
  it(
    'a busy port → "npm start: port N on 127.0.0.1 is in use; choose another port: npm start -- --port N" and exit 1, before importing or building anything',
    async () => {
      const holder = createServer();
      await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
      const { port } = holder.address() as AddressInfo;
      const run = npmStart('--port', String(port));
      try {
        expect(await run.exited).toBe(1);
        expect(run.output()).toContain(
          `npm start: port ${port} on 127.0.0.1 is in use; choose another port: npm start -- --port N\n`,
        );
        expect(existsSync(join(sandbox, 'dist'))).toBe(false);
        expect(existsSync(join(sandbox, 'data/locations.sqlite'))).toBe(false);
      } finally {
        run.kill();
        holder.close();
      }
    },
    BOUND_MS,
  );

  it(
    'npm start --port 8126 (no "--": npm keeps the flag) → one line saying to pass it after "--", exit 2, nothing built',
    async () => {
      for (const [args, flags] of [
        [['--port', '8126'], '--port 8126'],
        [['--port=8126'], '--port 8126'],
      ] as const) {
        const run = npmRun(['start', ...args]);
        try {
          expect(await run.exited).toBe(2);
          expect(run.output()).toContain(
            `npm start: npm read --port as its own setting; pass it after "--": npm start -- ${flags}\n`,
          );
          expect(existsSync(join(sandbox, 'dist'))).toBe(false);
        } finally {
          run.kill();
        }
      }
    },
    BOUND_MS,
  );

  it(
    'SIGTERM to the npm process stops the server: npm exits and the port is free again',
    async () => {
      const run = npmStart('--port', '0');
      try {
        const url = await listeningUrl(run.child);
        const port = Number(new URL(url).port);
        expect((await fetch(`${url}/ubicaciones/`)).status).toBe(200);
        expect(await portIsFree(port)).toBe(false);
        run.child.kill('SIGTERM'); // npm alone, as a service manager or `kill PID` does
        await run.exited;
        expect(await portIsFree(port)).toBe(true);
        expect(run.output()).toContain('"event":"stopped"');
      } finally {
        run.kill(); // a server left behind (the defect) goes with its group
      }
    },
    BOUND_MS,
  );
});
