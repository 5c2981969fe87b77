import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { clientBundle } from '../../build/site/client-bundle.ts';
import type { Manifest } from '../../build/core/shared/manifest.ts';
import { renderCountryPage } from '../../build/site/pages/country-page.ts';
import { escapeHtml } from '../../build/core/escape-html.ts';
import { formatBytes, formatInt, normaliseBase } from '../../build/site/pages/html.ts';
import { fileUrl } from '../../build/core/dist-paths.ts';
import { renderIndexPage } from '../../build/site/pages/index-page.ts';

const context = { base: '/', script: 'assets/main.js', styles: ['assets/main.css'] };

/** A valid manifest with realistic field lengths, e.g. like Natural Earth's. */
function manifest(i: number, patch: Partial<Manifest> = {}): Manifest {
  const iso = String.fromCharCode(65 + (i % 26), 65 + ((i / 26) % 26), 65 + ((i / 676) % 26));
  const dataset = (level: 'ADM0' | 'ADM1') => ({
    level,
    path: `data/earth/${iso}/${iso}_${level}.geojson`,
    bytes: 123_456 + i,
    sha256: 'ab'.repeat(32),
    features: level === 'ADM0' ? 1 : 12,
    bbox: [-10, -10, 10, 10] as [number, number, number, number],
    geometry_types: { MultiPolygon: 1 },
    properties: ['shapeGroup', 'shapeISO', 'shapeName', 'shapeType'],
    license: 'public-domain' as const,
    src_provider: 'Natural Earth',
  });
  return {
    schema_version: 1,
    body: 'earth',
    iso_a3: iso,
    iso_a2: iso.slice(0, 2),
    m49_region: 'Latin America and the Caribbean',
    name: { en: `Republic of Country ${i}`, es: `República del País ${i}` },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: i % 10 === 0 ? 'review' : 'ok',
    source: {
      name: 'Natural Earth',
      url: 'https://www.naturalearthdata.com/',
      license: 'public-domain',
      retrieved: '2026-11-01',
    },
    datasets: i % 3 === 0 ? [dataset('ADM0'), dataset('ADM1')] : [dataset('ADM0')],
    ...patch,
  };
}

describe('pages', () => {
  it('index of 250 manifests: HTML + CSS + JS under 150 KB gzipped', async () => {
    const bundle = await clientBundle();
    const manifests = Array.from({ length: 250 }, (_, i) => manifest(i));
    const html = renderIndexPage({ base: '/', script: bundle.script, styles: bundle.styles }, manifests);
    expect(html.match(/<tr role="row" data-status/g)).toHaveLength(250);
    const loaded = [
      Buffer.from(html),
      bundle.files.get(bundle.script)!,
      ...bundle.styles.map((s) => bundle.files.get(s)!),
    ];
    const gzipped = loaded.reduce((n, bytes) => n + gzipSync(bytes, { level: 9 }).length, 0);
    expect(gzipped).toBeLessThan(150 * 1024);
  });

  it('manifest text is escaped everywhere (names, notes, source)', () => {
    const m = manifest(1, {
      name: { en: '<script>alert(1)</script>', es: 'A & "B"' },
      notes: '<img src=x onerror=alert(1)>',
      source: {
        name: '</a><b>',
        url: 'https://example.org/?a=1&b="2"',
        license: 'public-domain',
        retrieved: '2026-01-01',
      },
    });
    const page = renderCountryPage(context, 'data/earth/BBA/manifest.json', m);
    expect(page).not.toContain('<script>alert');
    expect(page).not.toContain('<img src=x');
    expect(page).not.toContain('</a><b>');
    expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(page).toContain('href="https://example.org/?a=1&amp;b=&quot;2&quot;"');
    const index = renderIndexPage(context, [m]);
    expect(index).not.toContain('<script>alert');
    expect(index).toContain('A &amp; &quot;B&quot;');
  });

  it('a source URL that is not http(s) (e.g. javascript:) is shown as text, never linked', () => {
    const m = manifest(2, {
      source: { name: 'Evil', url: 'javascript:alert(1)', license: 'public-domain', retrieved: '2026-01-01' },
    });
    const page = renderCountryPage(context, 'data/earth/CAA/manifest.json', m);
    expect(page).not.toMatch(/href="javascript:/i);
    expect(page).toContain('Evil (javascript:alert(1))');
  });

  it('status review/deprecated → a banner with the word, not colour alone', () => {
    const review = renderCountryPage(context, 'f', manifest(3, { status: 'review' }));
    expect(review).toMatch(/<p class="banner banner-review" role="note">.*Under review/);
    const ok = renderCountryPage(context, 'f', manifest(4, { status: 'ok' }));
    expect(ok).not.toContain('class="banner');
  });

  it('normaliseBase: "/", "sub" → "/sub/", absolute URLs kept, odd paths refused', () => {
    expect(normaliseBase('/')).toBe('/');
    expect(normaliseBase('sub')).toBe('/sub/');
    expect(normaliseBase('/a/b')).toBe('/a/b/');
    expect(normaliseBase('https://cdn.example.org/geo')).toBe('https://cdn.example.org/geo/');
    expect(() => normaliseBase('/a/../b/')).toThrow();
    expect(() => normaliseBase('/a b/')).toThrow();
  });

  it('formatInt writes what toLocaleString("en-US") writes: separators, signs, -0, fractions, huge numbers', () => {
    const numbers = [0, -0, 7, 999, 1000, -1000, 4_367_927, -12_345_678, 2 ** 53 - 1, 2 ** 53, 1e21];
    numbers.push(1.5, -0.25, 1234.5678, NaN, Infinity, -Infinity);
    for (let digits = 1; digits <= 16; digits++) numbers.push(Number('9'.repeat(digits)), 10 ** digits);
    for (const n of numbers) expect(formatInt(n)).toBe(n.toLocaleString('en-US'));
  });

  it('escapeHtml: the five special characters become entities, other text is left as it is', () => {
    expect(escapeHtml(`a<b>&"c'`)).toBe('a&lt;b&gt;&amp;&quot;c&#39;');
    expect(escapeHtml('Bío Bío, 東京')).toBe('Bío Bío, 東京');
    expect(escapeHtml('')).toBe('');
  });

  it('fileUrl encodes each segment as encodeURIComponent does, and leaves an unreserved path as it is', () => {
    const paths = [
      'data/earth/CHL/CHL_ADM1.geojson',
      "a/(b)!~*'.-_/c",
      'a/%2e%2e.geojson',
      'a/b c#d?e',
      'a/Bío/東京',
    ];
    for (const path of paths) {
      expect(fileUrl('/x/', path)).toBe(`/x/${path.split('/').map(encodeURIComponent).join('/')}`);
    }
    expect(fileUrl('/', 'data/earth/CHL/CHL_ADM1.geojson')).toBe('/data/earth/CHL/CHL_ADM1.geojson');
  });

  it('formatBytes: B, KB, MB with one decimal under 10', () => {
    expect([formatBytes(512), formatBytes(107_974), formatBytes(4_367_927)]).toEqual([
      '512 B',
      '105 KB',
      '4.2 MB',
    ]);
  });
});
