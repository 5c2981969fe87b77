// An edit made in dist/ never reaches the ledger (issue 27 item 8): whatever
// dist/ shares between its own files, a file of a release rewritten in place
// there (as `prettier --write`, `sed -i` or writeFileSync do) leaves the
// release's stored bytes as they were, and the next build publishes them
// again. Through the CLI, as a publisher runs it.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli, copyDataTree } from '../support/cli.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-dist-edit-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** Every file under `dir` (the ledger) with its sha256. */
function hashes(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) out.set(join(e.parentPath, e.name), sha256(readFileSync(join(e.parentPath, e.name))));
  }
  return out;
}

describe('an edit in dist/', () => {
  it('rewriting a release file in place changes nothing in the ledger, and the next build puts the release back', async () => {
    const root = copyDataTree(FIXTURE, TMP);
    const out = join(root, 'dist');
    expect((await cli('release', '1.0.0', '--root', root)).code).toBe(0);
    expect((await cli('build', '--root', root, '--out', out)).code).toBe(0);
    const ledger = hashes(join(root, 'data/releases'));
    const released = ['data/earth/CHL/CHL_ADM1.geojson', 'earth/CHL/index.html', 'api/v1/earth/CHL.json'].map(
      (p) => join(out, 'releases/1.0.0', p),
    );
    const before = released.map((p) => readFileSync(p));
    for (const p of released) writeFileSync(p, `${readFileSync(p, 'utf8')}\n/* edited in dist/ */\n`); // in place: same inode

    expect(hashes(join(root, 'data/releases'))).toEqual(ledger);
    expect((await cli('build', '--root', root, '--out', out)).code).toBe(0);
    expect(released.map((p) => readFileSync(p))).toEqual(before);
    expect(hashes(join(root, 'data/releases'))).toEqual(ledger);
  }, 120_000);
});
