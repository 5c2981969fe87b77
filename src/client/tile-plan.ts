// Which stored tiles draw a view of a map: the level whose tiles are 512–1024
// px wide on screen, the tiles of it under the view, and, where the adaptive
// pyramid stopped splitting, the nearest stored ancestor (a full-detail leaf,
// which the build cuts at a finer extent). No DOM: the tests plan views of our
// archives with it, and count their bytes.
import { levelAt, tilesUnder, TILE_EXTENT, type TilesInfo } from '../../build/core/shared/tiles.ts';
import { decodeTile, type DecodedTile } from './mvt.ts';
import type { Archive } from './pmtiles-reader.ts';

export interface View {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface PlannedTile {
  z: number;
  x: number;
  y: number;
  tile: DecodedTile;
}

/** Loads and decodes tiles once per archive. */
export class TileSource {
  private decoded = new Map<string, Promise<DecodedTile | undefined>>();
  constructor(
    readonly archive: Archive,
    readonly info: TilesInfo,
  ) {}

  /** Returns tile z/x/y decoded, or undefined when the archive does not store it. */
  tile(z: number, x: number, y: number): Promise<DecodedTile | undefined> {
    const key = `${z}/${x}/${y}`;
    let p = this.decoded.get(key);
    if (!p) {
      p = this.archive.tile(z, x, y).then((b) => (b ? decodeTile(b) : undefined));
      this.decoded.set(key, p);
    }
    return p;
  }

  /** Returns the stored tile drawing cell z/x/y: itself, or the nearest stored ancestor when that is a leaf. */
  private async resolve(z: number, x: number, y: number): Promise<PlannedTile | undefined> {
    for (let l = z; l >= 0; l--, x >>= 1, y >>= 1) {
      if (!(await this.archive.has(l, x, y))) continue;
      const tile = await this.tile(l, x, y);
      if (!tile) return undefined;
      // A stored ancestor that was split (extent TILE_EXTENT) has stored children: the cell is empty.
      return l === z || tile.extent > TILE_EXTENT ? { z: l, x, y, tile } : undefined;
    }
    return undefined;
  }

  /** Returns the tiles drawing `view` (SVG units) shown at `pxPerUnit` screen pixels per unit. */
  async plan(view: View, pxPerUnit: number): Promise<PlannedTile[]> {
    const [, , side] = this.info.root;
    const level = levelAt(side, pxPerUnit, this.info.levels);
    const cells = tilesUnder(this.info.root, level, [view.x, view.y, view.x + view.w, view.y + view.h]);
    const found = await Promise.all(cells.map(([x, y]) => this.resolve(level, x, y)));
    const unique = new Map<string, PlannedTile>();
    for (const t of found) if (t) unique.set(`${t.z}/${t.x}/${t.y}`, t);
    return [...unique.values()];
  }
}
