// The pages of a catalogue with other bodies (build/site/site.ts): the front
// page lists the Earth's manifests and links each other body; each body's
// index page ({body}/) lists that body's manifests only, with its map, and
// links back; the sitemap has them. In-process, from the committed Mars and
// Moon manifests and one Earth manifest.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import type { LoadedManifest } from '../../build/manifest/validate.ts';
import { renderSite } from '../../build/site/site.ts';

const ROOT = join(import.meta.dirname, '../..');
const load = (file: string): LoadedManifest => {
  const text = readFileSync(join(ROOT, file), 'utf8');
  return { file, text, manifest: JSON.parse(text) as Manifest } as LoadedManifest;
};
const loaded = [
  'data/earth/CHL/manifest.json',
  'data/moon/LQS/manifest.json',
  'data/mars/MCQ/manifest.json',
].map(load);
const context = { base: '/', script: 'assets/main.js', styles: [] };
const facts = { atlas: new Map(), downloads: new Map(), geometry: new Map() };
const marsMap = '<svg><path class="f" data-u="/mars/MCQ/#unit-MC-01"><title>Mare Boreum</title></path></svg>';

describe('pages of other bodies', () => {
  const site = renderSite(context, loaded, {
    ...facts,
    bodies: new Map([
      ['mars', { svg: marsMap, title: 'Map of every unit on Mars in the catalogue' }],
      ['moon', { svg: '', title: 'Map of every unit on the Moon in the catalogue' }],
    ]),
  });
  const rows = (html: string) => [...html.matchAll(/<td role="cell"><a href="([^"]+)"/g)].map((m) => m[1]);

  it("the front page lists the Earth's manifests only, and links every other body", () => {
    const index = site.get('index.html')!;
    expect(rows(index)).toEqual(['/earth/CHL/']);
    expect(index).toContain('<a href="/mars/">Mars</a> (1 catalogue)');
    expect(index).toContain('<a href="/moon/">The Moon</a> (1 catalogue)');
  });

  it("a body's page lists its own manifests, shows its map, and links back to the Earth", () => {
    const mars = site.get('mars/index.html')!;
    expect(rows(mars)).toEqual(['/mars/MCQ/']);
    expect(mars).toContain('<h1>Mars</h1>');
    expect(mars).toContain('data-u="/mars/MCQ/#unit-MC-01"');
    expect(mars).toContain('plate carrée');
    expect(mars).toContain('<a href="/">Earth’s countries and territories</a>');
    expect(mars).toContain('id="q"'); // the place search, as on the front page
    const moon = site.get('moon/index.html')!;
    expect(rows(moon)).toEqual(['/moon/LQS/']);
    expect(moon).not.toContain('<figure'); // no drawable map: no empty figure
  });

  it("a body's manifest page leads back to its body's page, not the front page filtered", () => {
    expect(site.get('mars/MCQ/index.html')).toContain('<li><a href="/mars/">Mars</a></li>');
    expect(site.get('earth/CHL/index.html')).toContain('<li><a href="/?body=earth">earth</a></li>');
  });

  it('the sitemap lists the body pages', () => {
    expect(site.get('sitemap.xml')).toContain('<loc>/mars/</loc>');
    expect(site.get('sitemap.xml')).toContain('<loc>/moon/</loc>');
  });

  it('without other bodies, the front page lists every manifest and links none', () => {
    const alone = renderSite(context, loaded, facts);
    expect(rows(alone.get('index.html')!)).toEqual(['/earth/CHL/', '/moon/LQS/', '/mars/MCQ/']);
    expect(alone.get('index.html')).not.toContain('class="bodies"');
    expect(alone.has('mars/index.html')).toBe(false);
  });
});
