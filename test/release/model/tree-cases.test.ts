// Tree scripts the random ones reach rarely, each released through the
// release's identity step and its feed compared with its truth, as
// tree-model.test.ts does (test/release/model/tree.ts).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { rng } from './level.ts';
import { differences, identifyReleaser, TreeChain } from './tree-run.ts';
import { initialTree, TreeWriter, type TreeState } from './tree.ts';

const roots: string[] = [];
afterEach(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});

/** Releases the first tree, then each script in turn; returns each script's differences from its truth. */
async function released(scripts: ((w: TreeWriter) => void)[]): Promise<string[][]> {
  const random = rng(7);
  const root = mkdtempSync(join(tmpdir(), 'geoshelf-tree-cases-'));
  roots.push(root);
  const chain = new TreeChain(root, identifyReleaser());
  let tree: TreeState = initialTree(random);
  await chain.release(tree);
  const out: string[][] = [];
  for (const script of scripts) {
    const w = new TreeWriter(tree, random);
    script(w);
    tree = w.next();
    out.push(differences(w.truth, await chain.release(tree)));
  }
  return out;
}

describe('release feed: a country whose every level is replaced', () => {
  it('a new level where the only level was removed: each of its units is reported added', async () => {
    const diff = await released([
      (w) => w.removeLevel('URY', 'ADM0'),
      (w) => {
        w.removeLevel('URY', 'ADM1');
        w.addLevel('URY', 'ADM2');
      },
    ]);
    expect(diff).toEqual([[], []]);
  });

  it('a level restored where the only level was removed: each unit is reported restored, with its old ID', async () => {
    const diff = await released([
      (w) => w.removeLevel('ARG', 'ADM1'),
      (w) => {
        w.addLevel('ARG', 'ADM1');
        w.removeLevel('ARG', 'ADM0');
      },
    ]);
    expect(diff).toEqual([[], []]);
  });
});
