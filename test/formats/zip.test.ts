// writeZip (build/formats/zip.ts) when a file it zips cannot be read or
// changes size under it (issue 27 item 6): one file-changed problem naming
// the file, no temporary file left, and never yazl's unheard 'error' event
// (which ended the process with a raw stack).
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { UserError } from '../../build/core/errors.ts';
import { writeZip } from '../../build/formats/zip.ts';

const TMP = mkdtempSync(join(tmpdir(), 'geoshelf-zip-'));
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

/** Returns the problems writeZip throws as a UserError (anything else is thrown on). */
async function problemsOf(out: string, entries: Parameters<typeof writeZip>[1]) {
  try {
    await writeZip(out, entries);
    return 'written';
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    return error.problems.map((p) => `${p.file}: ${p.rule}: ${p.message}`);
  }
}

describe('writeZip: a file that cannot be read as it was', () => {
  it('a file gone before it is read → file-changed naming it, nothing left in the folder', async () => {
    const dir = mkdtempSync(join(TMP, 'gone-'));
    writeFileSync(join(dir, 'a.txt'), 'a');
    const missing = join(dir, 'b.txt');
    expect(
      await problemsOf(join(dir, 'x.zip'), [
        { file: join(dir, 'a.txt'), name: 'a.txt' },
        { file: missing, name: 'b.txt' },
      ]),
    ).toEqual([
      `${missing}: file-changed: changed while it was zipped into x.zip (it is gone); run the command again`,
    ]);
    expect(readdirSync(dir)).toEqual(['a.txt']);
  });

  it('a file whose bytes are not its size (as one changed while zipped; /proc files always are) → file-changed naming it', async () => {
    if (!existsSync('/proc/self/status')) return; // not Linux
    const dir = mkdtempSync(join(TMP, 'size-'));
    expect(await problemsOf(join(dir, 'x.zip'), [{ file: '/proc/self/status', name: 'status' }])).toEqual([
      '/proc/self/status: file-changed: changed while it was zipped into x.zip (file data stream has unexpected number of bytes); run the command again',
    ]);
    expect(readdirSync(dir)).toEqual([]);
  });
});
