// Shared by the Web Mercator tile tests: a level of the sample cut into
// Web Mercator tiles (build/tiles/mercator.ts) and its tiles decoded as a
// standard reader decodes them, with the reference PMTiles reader
// (`pmtiles`) and `@mapbox/vector-tile`.
import { join } from 'node:path';
import { VectorTile } from '@mapbox/vector-tile';
import { PbfReader } from 'pbf';
import { PMTiles } from 'pmtiles';
import type { Level } from '../../build/core/shared/manifest.ts';
import { TILE_EXTENT } from '../../build/core/shared/tiles.ts';
import { mercatorArchive } from '../../build/tiles/mercator.ts';
import { readMercatorLevel } from '../../build/tiles/mercator-level.ts';
import type { LevelRings } from '../../build/tiles/level-rings.ts';
import type { UnitProperties } from '../../build/tiles/mvt.ts';
import { BufferSource } from './pmtiles-source.ts';

const DATA = join(import.meta.dirname, '../../data/earth');

export interface Cut {
  rings: LevelRings;
  properties: UnitProperties;
  bytes: Buffer;
  maxzoom: number;
}

export interface Decoded {
  z: number;
  x: number;
  y: number;
  features: { props: Record<string, unknown>; rings: [number, number][][] }[];
}

const cuts = new Map<string, Promise<Cut>>();

/** Returns a level of the sample cut into Web Mercator tiles, with made-up release IDs on its features (once per level). */
export function cut(iso: string, level: Level): Promise<Cut> {
  const key = `${iso}_${level}`;
  if (!cuts.has(key)) cuts.set(key, cutNow(iso, level));
  return cuts.get(key)!;
}

async function cutNow(iso: string, level: Level): Promise<Cut> {
  const path = join(DATA, iso, `${iso}_${level}.geojson`);
  const ids = [Array.from({ length: 5000 }, (_, i) => `${iso}-${level}-id${i}`)];
  const { rings, properties } = await readMercatorLevel([path], { ids });
  const { bytes, tiles } = mercatorArchive(rings, properties, { name: `${iso}_${level}` });
  return { rings, properties, bytes, maxzoom: tiles.levels };
}

/** Returns every stored tile, decoded by @mapbox/vector-tile (rings in tile units, y down). */
export async function decoded(bytes: Buffer): Promise<Decoded[]> {
  const reader = new PMTiles(new BufferSource(bytes));
  const header = await reader.getHeader();
  const out: Decoded[] = [];
  for (let z = header.minZoom; z <= header.maxZoom; z++) {
    for (let x = 0; x < 2 ** z; x++) {
      for (let y = 0; y < 2 ** z; y++) {
        const tile = await reader.getZxy(z, x, y);
        if (!tile) continue;
        const layer = new VectorTile(new PbfReader(new Uint8Array(tile.data))).layers.units;
        if (layer.extent !== TILE_EXTENT) throw new Error(`${z}/${x}/${y}: extent ${layer.extent}`);
        const features = [];
        for (let i = 0; i < layer.length; i++) {
          const f = layer.feature(i);
          const rings = f.loadGeometry().map((ring) => ring.map((p): [number, number] => [p.x, p.y]));
          features.push({ props: f.properties, rings });
        }
        out.push({ z, x, y, features });
      }
    }
  }
  return out;
}
