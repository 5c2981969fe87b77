// Shared by the manifest tests: temp copies of fixture trees and running the CLI.
import { copyDataTree } from '../support/cli.ts';

export const FIXTURES = new URL('../fixtures/manifests/', import.meta.url).pathname;
export { cli } from '../support/cli.ts';

const TMP = '/tmp/geoshelf-manifests-tests';

/** Returns a fresh temp folder holding a copy of `from`'s data/. */
export function tempCopy(from: string): string {
  return copyDataTree(from, TMP);
}

/** Returns the non-empty lines of `text`. */
export function lines(text: string): string[] {
  return text.split('\n').filter(Boolean);
}
