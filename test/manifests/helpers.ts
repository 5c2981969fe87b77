// Shared by the manifest tests: temp copies of fixture trees and running the CLI.
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyDataTree } from '../support/cli.ts';

export const FIXTURES = new URL('../fixtures/manifests/', import.meta.url).pathname;
export { cli } from '../support/cli.ts';

const TMP = join(tmpdir(), 'geoshelf-manifests-tests'); // beside the folders tests move trees to

/** Returns a fresh temp folder holding a copy of `from`'s data/. */
export function tempCopy(from: string): string {
  return copyDataTree(from, TMP);
}

/** Returns the non-empty lines of `text`. */
export function lines(text: string): string[] {
  return text.split('\n').filter(Boolean);
}
