// The two helpers that keep published files consistent: dataset fields set in
// place, and a commit step that an interrupt cannot cut in half.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Dataset } from '../../src/shared/manifest.ts';
import { withFields } from '../../build/manifest/key-order.ts';

const dataset: Dataset = {
  level: 'ADM2',
  path: 'data/earth/XTA/XTA_ADM2.geojson',
  features: 13,
  bbox: [0, 0, 1, 1],
  geometry_types: { Polygon: 13 },
  properties: ['shapeName'],
  license: 'CC0-1.0',
  unassigned: 3,
};

describe('withFields', () => {
  it('a new key goes after the last present anchor; an existing key keeps its place; undefined removes', () => {
    const out = withFields(dataset, { preview: 'p', preview_bytes: 9, unassigned: undefined }, [
      'properties',
      'preview',
    ]);
    expect(Object.keys(out)).toEqual([
      'level',
      'path',
      'features',
      'bbox',
      'geometry_types',
      'properties',
      'preview',
      'preview_bytes',
      'license',
    ]);
    const again = withFields(out, { preview_bytes: 10, split_by: 'ADM1' }, ['preview_bytes']);
    expect(Object.keys(again).slice(5, 9)).toEqual(['properties', 'preview', 'preview_bytes', 'split_by']);
    expect(again.preview_bytes).toBe(10);
  });
});

describe('uninterruptible', () => {
  mkdirSync('/tmp/geoshelf-publishing-tests', { recursive: true });
  const dir = mkdtempSync('/tmp/geoshelf-publishing-tests/signal-');
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('SIGINT during the commit step waits for it to finish, then ends the process as SIGINT would', () => {
    const done = join(dir, 'done');
    const after = join(dir, 'after');
    const helper = new URL('../../build/core/uninterruptible.ts', import.meta.url).pathname;
    const script = `
      import { writeFileSync } from 'node:fs';
      import { uninterruptible } from ${JSON.stringify(helper)};
      await uninterruptible(async () => {
        process.kill(process.pid, 'SIGINT');
        await new Promise((resolve) => setTimeout(resolve, 200));
        writeFileSync(${JSON.stringify(done)}, 'x');
      });
      await new Promise((resolve) => setTimeout(resolve, 200));
      writeFileSync(${JSON.stringify(after)}, 'x');
    `;
    let signal: string | null = null;
    try {
      execFileSync(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        stdio: 'pipe',
      });
    } catch (error) {
      signal = (error as { signal: string | null }).signal;
    }
    expect(existsSync(done)).toBe(true); // the commit finished
    expect(existsSync(after)).toBe(false); // and the process stopped right after it
    expect(signal).toBe('SIGINT');
  });
});
