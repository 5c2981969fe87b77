// The units list as built (build/site/units-list.ts): readable without
// script, UNITS_PAGE units per page sorted by name, the first page on the
// country page and each further page a page of its own, linked by a pager.
import { describe, expect, it } from 'vitest';
import type { CountryAtlas } from '../../build/site/atlas.ts';
import { pagerPages, unitsPages, unitsSection } from '../../build/site/units-list.ts';
import type { Unit } from '../../build/site/units.ts';
import { UNITS_PAGE } from '../../build/core/shared/api.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';

const m = {
  body: 'earth',
  iso_a3: 'USA',
  iso_a2: 'US',
  name: { en: 'United States' },
  datasets: [{ level: 'ADM2', parts: [{ code: 'US-AL', path: 'data/earth/USA/ADM2/US-AL.geojson' }] }],
} as unknown as Manifest;
const unit = (id: string, name: string, code: string, parent: string, part?: string): Unit => ({
  id,
  name,
  names: [],
  code,
  parent,
  bbox: [0, 0, 1, 1],
  display_bbox: [0, 0, 1, 1],
  feature: 0,
  ...(part ? { part } : {}),
});
const counties = Array.from({ length: 250 }, (_, i) => {
  const fips = String(1001 + 2 * i).padStart(5, '0');
  return unit(`USA-ADM2-US-AL.${fips}`, `County ${String(249 - i).padStart(3, '0')}`, fips, 'US-AL', 'US-AL');
});
const atlas = {
  levels: [
    { level: 'ADM1', units: [unit('US-AL', 'Alabama', 'US-AL', 'USA')] },
    { level: 'ADM2', units: counties },
  ],
} as CountryAtlas;
const context = { base: '/', script: 'assets/main.js', styles: [] };
const rows = (html: string) => [...html.matchAll(/<tr id="unit-([^"]+)">/g)].map((r) => r[1]);

describe('units list as built', () => {
  it("the country page lists each level's first page by name, with code, parent name and part file", () => {
    const html = unitsSection('/', m, atlas).toString();
    const ids = rows(html);
    expect(ids).toHaveLength(1 + UNITS_PAGE);
    expect(ids[1]).toBe(counties[249].id); // "County 000" first
    expect(html).toContain(
      '<tr id="unit-USA-ADM2-US-AL.01499"><th scope="row" data-label="Name"><a href="#unit-USA-ADM2-US-AL.01499">County 000</a></th><td data-label="Code">01499</td><td data-label="Parent">Alabama</td><td data-label="Part file"><a class="download" href="/data/earth/USA/ADM2/US-AL.geojson">US-AL.geojson</a></td></tr>',
    );
    expect(html).toContain('ADM2: <span class="units-shown">units 1–100 of 250, by name</span>');
    expect(html).toContain('<a href="/earth/USA/units/ADM2/2/" rel="next">Next</a>');
    expect(html).not.toContain('needs JavaScript');
  });

  it('further pages are pages of their own; together the pages list every unit once', () => {
    const pages = unitsPages(context, m, atlas);
    expect([...pages.keys()]).toEqual([
      'earth/USA/units/ADM2/2/index.html',
      'earth/USA/units/ADM2/3/index.html',
    ]);
    const all = [unitsSection('/', m, atlas).toString(), ...pages.values()].flatMap(rows);
    expect(new Set(all).size).toBe(251);
    const last = pages.get('earth/USA/units/ADM2/3/index.html')!;
    expect(rows(last)).toHaveLength(50);
    expect(last).toContain('href="/earth/USA/#unit-USA-ADM2-US-AL.01001"'); // names link to the country page
    expect(last).toContain('<a href="/earth/USA/units/ADM2/2/" rel="prev">Previous</a>');
    expect(last).toContain('<a href="/earth/USA/units/ADM2/3/" aria-current="page">3</a>');
    expect(last).not.toContain('rel="next"');
  });

  it('the pager links every page of up to 9, else the first, the last and two either side', () => {
    expect(pagerPages(1, 3)).toEqual([1, 2, 3]);
    expect(pagerPages(5, 32)).toEqual([1, null, 3, 4, 5, 6, 7, null, 32]);
    expect(pagerPages(1, 32)).toEqual([1, 2, 3, null, 32]);
  });
});
