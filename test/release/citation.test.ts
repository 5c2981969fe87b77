// How to cite a release (build/site/citation.ts): each release publishes a
// CITATION.cff that validates against the Citation File Format 1.2.0 schema
// (test/fixtures/citation/schema-1.2.0.json, from
// citation-file-format/citation-file-format: no network at test time) and a
// BibTeX entry, both naming the release's version, date and URL (with
// --site-url; without it no URL line, as CFF wants an absolute one) and
// crediting every source with its licence; its front page shows the block;
// a rebuild publishes the same bytes; text from the data cannot break either
// format.
import { cpSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { parse } from 'yaml';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { citedSources, renderBibtex, renderCff } from '../../build/site/citation.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { buildCatalogue } from '../../build/build.ts';
import { makeRelease } from '../../build/release/release.ts';
import { copyDataTree, copyRoot } from '../support/cli.ts';

const FIXTURE = new URL('../fixtures/build', import.meta.url).pathname;
const SCHEMA = new URL('../fixtures/citation/schema-1.2.0.json', import.meta.url).pathname;
const TMP = join(tmpdir(), `geoshelf-citation-${process.pid}`);
afterAll(() => rmSync(TMP, { recursive: true, force: true }));

const ajv = new Ajv({ strict: false, allErrors: true });
addFormats.default(ajv);
const cff = ajv.compile(JSON.parse(readFileSync(SCHEMA, 'utf8')));

let released: string;
beforeAll(async () => {
  released = copyDataTree(FIXTURE, TMP);
  // And Mars's sample quadrangles: another body's index page names its release too.
  cpSync(new URL('../../data/mars', import.meta.url).pathname, join(released, 'data/mars'), {
    recursive: true,
  });
  expect((await makeRelease(released, '1.0.0', { date: '2026-12-03' })).status).toBe('recorded');
}, 120_000); // a bound for a hang only

/** Returns the number of "{" minus "}" outside escapes, and whether it ever went below zero. */
function braces(text: string): { depth: number; negative: boolean } {
  let depth = 0;
  let negative = false;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth < 0) negative = true;
  }
  return { depth, negative };
}

describe('citing a release', () => {
  it('publishes CITATION.cff (valid CFF 1.2.0) and citation.bib naming the version, date, URL and every source', async () => {
    const root = copyRoot(released, TMP);
    const out = join(TMP, `${root.split('/').pop()}-dist`);
    const withOrigin = { root, out, base: '/geo/', siteUrl: 'https://example.org' };
    expect((await buildCatalogue(withOrigin)).ok).toBe(true);
    const text = readFileSync(join(out, 'releases/1.0.0/CITATION.cff'), 'utf8');
    const doc = parse(text) as Record<string, unknown> & {
      references: { title: string; license?: string }[];
    };
    expect(cff(doc) ? [] : cff.errors).toEqual([]);
    expect(doc).toMatchObject({
      version: '1.0.0',
      'date-released': '2026-12-03',
      url: 'https://example.org/geo/releases/1.0.0/',
    });
    const manifests = ['earth/ANT', 'earth/CHL', 'earth/FJI', 'mars/MCQ'].map(
      (folder) => JSON.parse(readFileSync(join(root, `data/${folder}/manifest.json`), 'utf8')) as Manifest,
    );
    expect(doc.references.map((r) => r.license ?? null).sort()).toEqual(['CC-BY-4.0', 'CC0-1.0', null, null]);
    const bib = readFileSync(join(out, 'releases/1.0.0/citation.bib'), 'utf8');
    expect(bib).toMatch(/^@misc\{geoshelf-1\.0\.0,\n/);
    expect(bib).toContain('  version = {1.0.0},');
    expect(bib).toContain('  year = {2026},\n  month = dec,');
    expect(bib).toContain('  url = {https://example.org/geo/releases/1.0.0/},');
    for (const m of manifests) expect(bib).toContain(m.source.name);
    expect(braces(bib)).toEqual({ depth: 0, negative: false });
    const page = readFileSync(join(out, 'releases/1.0.0/index.html'), 'utf8');
    expect(page).toContain('<h2 id="cite-h">Cite this release</h2>');
    expect(page).toContain('release 1.0.0 (2026-12-03)');
    expect(page).toContain('<a href="./CITATION.cff" download>');
    // Another body's page says it belongs to the release and links its front page, without its
    // version: the same file in every release, so a release shares the body's folder.
    const mars = readFileSync(join(out, 'releases/1.0.0/mars/index.html'), 'utf8');
    expect(mars).toContain('This page belongs to <a href="../">a release</a>');
    expect(mars).not.toContain('1.0.0');
    // A rebuild publishes the same bytes.
    expect((await buildCatalogue(withOrigin)).ok).toBe(true);
    expect(readFileSync(join(out, 'releases/1.0.0/CITATION.cff'), 'utf8')).toBe(text);
  });

  it('without --site-url: no URL line in either file (CFF wants an absolute URL), and the CFF still validates', async () => {
    const root = copyRoot(released, TMP);
    const out = join(TMP, `${root.split('/').pop()}-dist`);
    expect((await buildCatalogue({ root, out })).ok).toBe(true);
    const text = readFileSync(join(out, 'releases/1.0.0/CITATION.cff'), 'utf8');
    expect(text).not.toMatch(/^url:/m);
    expect(cff(parse(text)) ? [] : cff.errors).toEqual([]);
    expect(readFileSync(join(out, 'releases/1.0.0/citation.bib'), 'utf8')).not.toContain('url =');
  });

  it('a source name with quotes, braces, a backslash or a newline reads back the same from the CFF, and keeps the BibTeX balanced', () => {
    const name = 'Instituto "Geo" {IGN} 50% & co\\ne\nwline #1 ~ ^_$';
    const manifest = {
      iso_a3: 'XYZ',
      source: { name, url: 'https://example.org/a?b=1&c=%222%22', license: 'CC-BY-4.0' },
    };
    const citation = {
      version: '2.0',
      date: '2027-01-31',
      url: 'https://example.org/r/2.0/',
      sources: citedSources([manifest as unknown as Manifest]),
    };
    const doc = parse(renderCff(citation)) as { references: { title: string; url: string }[] };
    expect(cff(doc) ? [] : cff.errors).toEqual([]);
    expect(doc.references[0]).toMatchObject({ title: name, url: manifest.source.url });
    const bib = renderBibtex(citation);
    expect(braces(bib)).toEqual({ depth: 0, negative: false });
    expect(bib.split('\n').filter((l) => l.startsWith('  ')).length).toBe(7); // the newline did not open a field
  });
});
