// The Web Mercator archives (build/tiles/mercator.ts), read back as a
// standard reader reads them: the header and metadata by the reference
// PMTiles reader, each feature's properties by `@mapbox/vector-tile`, and
// one tile placed at its z/x/y by GDAL's MVT driver. (Every vertex and every
// shared border, at every zoom: mercator-oracle.test.ts, long.)
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PMTiles } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { mercator, mercatorArchive, MAX_LATITUDE } from '../../build/tiles/mercator.ts';
import { mercatorStyles } from '../../build/tiles/mercator-style.ts';
import type { LoadedManifest } from '../../build/manifest/validate.ts';
import { cut, decoded } from '../support/mercator-tiles.ts';
import { BufferSource } from '../support/pmtiles-source.ts';

describe('Web Mercator archives', () => {
  it('the header says MVT, gzip, zooms 0..max, the data bounds and a centre; the metadata lists vector_layers', async () => {
    const { bytes, maxzoom } = await cut('CHL', 'ADM1');
    const reader = new PMTiles(new BufferSource(bytes));
    const header = await reader.getHeader();
    expect([header.specVersion, header.tileType, header.tileCompression]).toEqual([3, 1, 2]);
    expect([header.minZoom, header.maxZoom]).toEqual([0, maxzoom]);
    expect(maxzoom).toBeGreaterThan(4);
    expect(maxzoom).toBeLessThanOrEqual(12);
    const { coords } = (await cut('CHL', 'ADM1')).rings;
    const c = coords.data.subarray(0, coords.length);
    const [lons, lats] = [c.filter((_, i) => i % 2 === 0), c.filter((_, i) => i % 2 === 1)];
    expect(header.minLon).toBeCloseTo(Math.min(...lons), 6);
    expect(header.maxLon).toBeCloseTo(Math.max(...lons), 6);
    expect(header.minLat).toBeCloseTo(Math.min(...lats), 6);
    expect(header.maxLat).toBeCloseTo(Math.max(...lats), 6);
    expect(header.centerLon).toBeGreaterThan(header.minLon);
    expect(header.centerLon).toBeLessThan(header.maxLon);
    expect(header.centerZoom).toBeLessThanOrEqual(maxzoom);
    const metadata = (await reader.getMetadata()) as { vector_layers: { id: string; fields: object }[] };
    expect(metadata.vector_layers).toEqual([
      {
        id: 'units',
        fields: { unit_id: 'String', code: 'String', name: 'String' },
        minzoom: 0,
        maxzoom,
      },
    ]);
  });

  it("the data's source is credited, escaped, in the archive's metadata and the style: maps show attribution as HTML", async () => {
    const hostile = 'Survey <img src=x onerror="alert(1)"> & Co';
    const escaped = 'Survey &lt;img src=x onerror=&quot;alert(1)&quot;&gt; &amp; Co';
    const { rings, properties } = await cut('URY', 'ADM1');
    const { bytes } = mercatorArchive(rings, properties, { name: 'URY_ADM1', attribution: hostile });
    const metadata = (await new PMTiles(new BufferSource(bytes)).getMetadata()) as { attribution?: string };
    expect(metadata.attribution).toBe(escaped);
    const loaded = [
      {
        file: 'data/earth/URY/manifest.json',
        manifest: { iso_a3: 'URY', name: { en: 'Uruguay' }, source: { name: hostile } },
      },
    ] as unknown as LoadedManifest[];
    const levels = new Map([
      [
        'data/earth/URY/manifest.json',
        { ADM1: { path: 'earth/URY/URY_ADM1.mercator.pmtiles', bytes: bytes.length, maxzoom: 7 } },
      ],
    ]);
    const style = JSON.parse(
      mercatorStyles(loaded, levels, undefined).get('earth/URY/URY_ADM1.style.json')!,
    ) as {
      sources: Record<string, { attribution?: string }>;
    };
    expect(style.sources.URY_ADM1!.attribution).toBe(escaped);
  });

  it('latitudes past ±85.0511° are clamped: Antarctica is drawn to the edge of the square, not beyond', () => {
    expect(mercator(0, 90)[1]).toBe(mercator(0, MAX_LATITUDE)[1]);
    expect(mercator(0, MAX_LATITUDE)[1]).toBeCloseTo(0, 9);
    expect(mercator(180, -90)).toEqual([1, expect.closeTo(1, 9)]);
  });

  it("every feature keeps its unit's release ID, code and name; each unit is in some tile of every zoom", async () => {
    const c = await cut('CHL', 'ADM1');
    const tiles = await decoded(c.bytes);
    for (let z = 0; z <= c.maxzoom; z++) {
      const seen = new Map<unknown, Record<string, unknown>>();
      for (const t of tiles.filter((t) => t.z === z))
        for (const f of t.features) seen.set(f.props.code, f.props);
      expect(seen.size, `zoom ${z}`).toBe(c.rings.units);
      // Tarapacá is feature 14 of the file: CL-TA, with its made-up release ID.
      expect(seen.get('CL-TA')).toEqual({ unit_id: 'CHL-ADM1-id14', code: 'CL-TA', name: 'Tarapacá' });
    }
  });

  it('GDAL reads a tile placed at its z/x/y: the units named as in the source, where the source puts them', async (ctx) => {
    try {
      execFileSync('ogrinfo', ['--version'], { timeout: 10_000 });
    } catch {
      return ctx.skip();
    }
    const c = await cut('CHL', 'ADM1');
    const reader = new PMTiles(new BufferSource(c.bytes));
    // The tile of zoom 5 holding Santiago (-70.65, -33.45).
    const [wx, wy] = mercator(-70.65, -33.45);
    const [z, x, y] = [5, Math.floor(wx * 32), Math.floor(wy * 32)];
    const tile = (await reader.getZxy(z, x, y))!;
    const dir = mkdtempSync(join(tmpdir(), 'geoshelf-mvt-'));
    try {
      mkdirSync(join(dir, `${z}/${x}`), { recursive: true });
      const raw = new Uint8Array(tile.data);
      writeFileSync(join(dir, `${z}/${x}/${y}.pbf`), raw[0] === 0x1f ? gunzipSync(raw) : raw);
      const out = execFileSync(
        'ogr2ogr',
        ['-f', 'GeoJSON', '-t_srs', 'EPSG:4326', '/vsistdout/', join(dir, `${z}/${x}/${y}.pbf`), 'units'],
        { timeout: 30_000, maxBuffer: 64 << 20 },
      );
      const fc = JSON.parse(out.toString('utf8')) as {
        features: {
          properties: Record<string, string>;
          geometry: { coordinates: number[][][][] | number[][][] };
        }[];
      };
      const rm = fc.features.find((f) => f.properties.code === 'CL-RM')!;
      expect(rm.properties.name).toBe('Región Metropolitana de Santiago');
      // Every vertex GDAL gives lies in the region's bbox, give or take one pixel at zoom 5 (about 0.03°).
      const flat = JSON.stringify(rm.geometry.coordinates)
        .match(/-?\d+(\.\d+)?(e-?\d+)?/g)!
        .map(Number);
      const lons = flat.filter((_, i) => i % 2 === 0);
      const lats = flat.filter((_, i) => i % 2 === 1);
      expect(Math.min(...lons)).toBeGreaterThan(-71.8);
      expect(Math.max(...lons)).toBeLessThan(-69.7);
      expect(Math.min(...lats)).toBeGreaterThan(-34.4);
      expect(Math.max(...lats)).toBeLessThan(-32.8);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
