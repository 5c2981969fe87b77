// Shared by the tests of issue 26's releases through the CLI
// (test/release/trust.test.ts, and trust-pages.test.ts in the long project).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readLedger } from '../../build/release/ledger.ts';
import { cli } from './cli.ts';

/** Reads a JSON file. */
export const read = <T>(path: string) => JSON.parse(readFileSync(path, 'utf8')) as T;

/** A feed entry, as far as these tests read it. */
export interface Entry {
  type: string;
  country: string;
  level?: string;
  id?: string;
  code?: string;
  name?: string;
  restored?: boolean;
}

/** Runs `geoshelf ARGS… --root ROOT` and returns its result; throws when it does not exit 0. */
export async function ok(root: string, ...args: string[]) {
  const r = await cli(...args, '--root', root);
  if (r.code !== 0) throw new Error(`geoshelf ${args.join(' ')}: exit ${r.code}\n${r.stderr}`);
  return r;
}

/** Builds the catalogue with every release to ROOT/dist; returns the folder. */
export async function build(root: string): Promise<string> {
  await ok(root, 'build', '--out', join(root, 'dist'));
  return join(root, 'dist');
}

/** Returns the feed of release `version` as the built site publishes it. */
export function changes(dist: string, version: string): Entry[] {
  return read<Entry[]>(join(dist, `api/releases/${version}/changes.json`));
}

/** Returns the feed of release `version` as the ledger holds it (build publishes it as changes.json). */
export function feed(root: string, version: string): Entry[] {
  return readLedger(root).releases.find((r) => r.record.version === version)!.changes as Entry[];
}
