// The ledger's record files read whole as JSON: release.json in every record
// format, and site.json, registry.json and changes.json of the older ones
// (build/release/ledger.ts). A ledger is untrusted input: a record is opened
// without following a link, bounded in size, and each failure is a problem
// naming the file.
import { closeSync, fstatSync, openSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ReleaseChange } from '../core/shared/api.ts';
import type { Problem } from '../core/problem.ts';
import { ledgerProblem } from './ledger-chunks.ts';
import { checkList, releaseChange } from './ledger-shapes.ts';
import { LEDGER_OPEN, unreadable } from './object-store.ts';

/** release.json larger than this is damage (the sample's is about 60 kB). */
const MAX_RECORD_BYTES = 64 << 20;

/**
 * Returns the JSON in `file` (relative to `root`), or undefined with a
 * problem when it is missing, not a file (a link, a folder), too large or
 * not JSON.
 */
export function readRecordJson(root: string, file: string, problems: Problem[]): unknown {
  let text: string;
  let fd: number;
  try {
    fd = openSync(join(root, file), LEDGER_OPEN);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const message =
      code === 'ELOOP' ? 'is a symbolic link: a ledger holds files only' : 'missing from the ledger';
    problems.push(ledgerProblem(file, message));
    return undefined;
  }
  try {
    const info = fstatSync(fd);
    if (!info.isFile()) {
      problems.push(ledgerProblem(file, 'is not a file'));
      return undefined;
    }
    if (info.size > MAX_RECORD_BYTES) {
      problems.push(
        ledgerProblem(file, `is ${info.size} bytes, more than a record can be (${MAX_RECORD_BYTES})`),
      );
      return undefined;
    }
    text = readFileSync(fd, 'utf8');
  } catch (error) {
    problems.push(ledgerProblem(file, unreadable(error)));
    return undefined;
  } finally {
    closeSync(fd);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    problems.push(ledgerProblem(file, `not JSON: ${(error as Error).message}`));
    return undefined;
  }
}

/** Returns the feed of a release of ledger_version 1 or 2, from its changes.json, checked. */
export function readChangesFile(root: string, dir: string, problems: Problem[]): ReleaseChange[] | undefined {
  const file = `${dir}/changes.json`;
  const changes = readRecordJson(root, file, problems);
  if (changes === undefined) return undefined;
  const wrong = checkList(changes, releaseChange);
  if (wrong) {
    problems.push(ledgerProblem(file, wrong));
    return undefined;
  }
  return changes as ReleaseChange[];
}
