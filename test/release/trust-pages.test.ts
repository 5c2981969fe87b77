// A country added to a released catalogue, and one described differently,
// through `release` twice and `build`, as a new publisher runs them (issue
// 26): the feed, changes.json, the country's history and its links, and the
// What changed page. Two releases and a build each: the long project. The
// rules in process: test/release/country-details.test.ts and the tree model
// (test/release/model/tree-model.test.ts); the other release rules through
// the CLI: test/release/trust.test.ts.
import { cpSync, existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { copyDataTree } from '../support/cli.ts';
import { build, changes, feed, ok, read } from '../support/trust.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-trust-pages-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));
/** Each test runs two releases and a build: a bound for a hang only, generous for a loaded machine. */
const BOUND = 240_000;

describe('release: a country added is reported', () => {
  it(
    'a country new in a release is country-added in the feed and changes.json, each of its units added; its history lists only the releases that hold it, and each link resolves',
    async () => {
      const root = copyDataTree(FIXTURE, TMP);
      rmSync(join(root, 'data/earth/FJI'), { recursive: true });
      await ok(root, 'release', '2026.12');
      cpSync(join(FIXTURE, 'data/earth/FJI'), join(root, 'data/earth/FJI'), { recursive: true });
      const r = await ok(root, 'release', '2027.01');
      expect(r.stdout).not.toContain('no changes');
      const dist = await build(root);
      const published = changes(dist, '2027.01');
      expect(published.map((e) => [e.type, e.country, e.level ?? ''])).toEqual([
        ['country-added', 'FJI', ''],
        ['level-added', 'FJI', 'ADM0'],
        ['added', 'FJI', 'ADM0'],
      ]);
      expect(published[2]).toMatchObject({ code: expect.any(String), name: 'Fiji', id: expect.any(String) });
      const history = read<{ releases: { version: string }[] }>(join(dist, 'api/v1/earth/FJI/history.json'));
      expect(history.releases.map((v) => v.version)).toEqual(['2027.01']);
      const html = readFileSync(join(dist, 'earth/FJI/index.html'), 'utf8');
      const links = [...html.matchAll(/href="(\/releases[^"#]*)"/g)].map((m) => m[1]!);
      expect(links.some((l) => l.includes('2026.12'))).toBe(false);
      expect(links.length).toBeGreaterThan(0);
      for (const link of links)
        expect(existsSync(join(dist, link, link.endsWith('/') ? 'index.html' : '')), link).toBe(true);
    },
    BOUND,
  );
});

describe('release: a country described differently is reported', () => {
  it(
    'a country renamed, its source licence and a level licence changed is one country-changed entry naming each field, from → to; its history and What changed say so',
    async () => {
      const root = copyDataTree(FIXTURE, TMP);
      await ok(root, 'release', '2026.12');
      const file = join(root, 'data/earth/FJI/manifest.json');
      const m = read<{
        name: { en: string };
        source: { license: string; url: string };
        datasets: { license: string }[];
      }>(file);
      m.name.en = 'Republic of Fiji';
      m.source.license = 'CC0-1.0';
      m.datasets[0]!.license = 'CC0-1.0';
      writeFileSync(file, JSON.stringify(m, null, 2) + '\n');
      const r = await ok(root, 'release', '2027.01');
      expect(r.stdout).not.toContain('no changes');
      expect(feed(root, '2027.01')).toEqual([
        {
          type: 'country-changed',
          country: 'FJI',
          body: 'earth',
          name: 'Republic of Fiji',
          fields: [
            { field: 'ADM0.license', from: 'CC-BY-4.0', to: 'CC0-1.0' },
            { field: 'name.en', from: 'Fiji', to: 'Republic of Fiji' },
            { field: 'source.license', from: 'CC-BY-4.0', to: 'CC0-1.0' },
          ],
        },
      ]);
      const dist = await build(root);
      expect(changes(dist, '2027.01')).toEqual(feed(root, '2027.01'));
      const history = read<{ releases: { version: string; changes: Record<string, number> }[] }>(
        join(dist, 'api/v1/earth/FJI/history.json'),
      );
      expect(history.releases[0]).toMatchObject({ version: '2027.01', changes: { 'country-changed': 1 } });
      const page = readFileSync(join(dist, 'releases-changes/2027.01/index.html'), 'utf8');
      expect(page).toContain('name.en “Fiji” → “Republic of Fiji”');
    },
    BOUND,
  );
});
