// The bounds and centre a PMTiles header states, read back by the reference
// reader (the `pmtiles` package): valid positions, longitudes within
// [-180, 180] and latitudes within [-90, 90], whatever the data holds.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PMTiles, type Header } from 'pmtiles';
import { describe, expect, it } from 'vitest';
import { OuterRings, planeOf } from '../../build/geo/map-plane.ts';
import { levelArchive } from '../../build/tiles/level-tiles.ts';
import { readLevelRings } from '../../build/tiles/level-rings.ts';
import { writeArchive, type ArchiveOptions } from '../../build/tiles/pmtiles.ts';
import { BufferSource } from '../support/pmtiles-source.ts';

/** Returns [minLon, minLat, maxLon, maxLat, centerLon, centerLat] of an archive's header. */
async function headerBox(bytes: Buffer): Promise<number[]> {
  const h: Header = await new PMTiles(new BufferSource(bytes)).getHeader();
  return [h.minLon, h.minLat, h.maxLon, h.maxLat, h.centerLon, h.centerLat];
}

const oneTile = [{ z: 0, x: 0, y: 0, data: gzipSync(Buffer.from('tile')) }];
const archive = (bounds: ArchiveOptions['bounds']) => writeArchive(oneTile, { bounds, metadata: {} });

describe('PMTiles header bounds', () => {
  it.each([
    ['all out of range', [-200, -95, 250, 180], [-180, -90, 180, 90, 0, 0]],
    ['north of the pole', [10, 80, 20, 200], [10, 80, 20, 90, 15, 85]],
    ['east of the antimeridian', [170, -10, 190, 10], [170, -10, 180, 10, 175, 0]],
  ])('%s: %j → clamped to the globe, the centre inside', async (_label, bounds, expected) => {
    expect(await headerBox(archive(bounds as ArchiveOptions['bounds']))).toEqual(expected);
  });

  it('bounds within range are kept (to 1e-7 degrees), the centre their midpoint', async () => {
    const box = await headerBox(archive([-75.6443953, -55.61183, -66.95992, -17.5800118]));
    const expected = [-75.6443953, -55.61183, -66.95992, -17.5800118, -71.30215765, -36.5959209];
    box.forEach((v, i) => expect(v).toBeCloseTo(expected[i]!, 6));
  });

  it('a level whose data runs past the pole (latitudes to 120) gets an archive with maxLat 90', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'geoshelf-pmtiles-'));
    try {
      const polygon = {
        type: 'Polygon',
        coordinates: [
          [
            [170, 80],
            [200, 80],
            [200, 120],
            [170, 120],
            [170, 80],
          ],
        ],
      };
      const file = join(dir, 'OOR_ADM1.geojson');
      const feature = { type: 'Feature', properties: { name: 'Out of range' }, geometry: polygon };
      await writeFile(file, JSON.stringify({ type: 'FeatureCollection', features: [feature] }));
      const outer = new OuterRings();
      outer.add(polygon);
      const { bytes } = levelArchive(await readLevelRings([file]), planeOf(outer)!, 'OOR_ADM1');
      expect(await headerBox(bytes)).toEqual([170, 80, 180, 90, 175, 85]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
