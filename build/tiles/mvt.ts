// Encodes one tile as a Mapbox Vector Tile (spec 2.1): one layer, "units",
// of polygon features, each feature's id the unit's index in its level's
// units list. Its one property, "cut", lists (e.g. "0,3") the feature's rings
// whose closing edge lies along the antimeridian cut: drawn open, filled but
// not stroked there (build/geo/antimeridian.ts). Rings are written as the spec orders them: each
// outer ring (clockwise in tile coordinates, y down) followed by its holes
// (counter-clockwise). Written straight from integer coordinates; no
// intermediate GeoJSON.

import { CUT_KEY } from '../core/shared/tiles.ts';

export const LAYER = 'units';

/** A growable byte buffer with protobuf varints. */
class Bytes {
  data = new Uint8Array(1024);
  n = 0;
  private room(k: number): void {
    if (this.n + k <= this.data.length) return;
    const bigger = new Uint8Array(Math.max(this.data.length * 2, this.n + k));
    bigger.set(this.data.subarray(0, this.n));
    this.data = bigger;
  }
  varint(v: number): void {
    this.room(10);
    while (v >= 0x80) {
      this.data[this.n++] = (v % 0x80) | 0x80;
      v = Math.floor(v / 0x80);
    }
    this.data[this.n++] = v;
  }
  bytes(b: Uint8Array): void {
    this.room(b.length);
    this.data.set(b, this.n);
    this.n += b.length;
  }
  /** A length-delimited field: its tag, its length, its bytes. */
  field(tag: number, b: Uint8Array): void {
    this.varint(tag);
    this.varint(b.length);
    this.bytes(b);
  }
  take(): Uint8Array {
    return this.data.slice(0, this.n);
  }
}

const zigzag = (v: number) => (v < 0 ? -2 * v - 1 : 2 * v);

/** Returns twice the signed area of ring [s, e) (positive: clockwise with y down). */
function ringArea2(xs: ArrayLike<number>, ys: ArrayLike<number>, s: number, e: number): number {
  let sum = 0;
  for (let i = s, j = e - 1; i < e; j = i++) sum += xs[j] * ys[i] - xs[i] * ys[j];
  return sum;
}

/** Builds one tile: add each feature's rings (outer first, then its holes), then finish(). */
export class TileEncoder {
  private layer = new Bytes();
  private geometry: number[] = [];
  private id = -1;
  private cx = 0;
  private cy = 0;
  private rings = 0; // rings of the current feature so far
  private open: number[] = []; // the current feature's rings that close across a cut
  private values = new Map<string, number>(); // the layer's values of CUT_KEY

  constructor(private extent: number) {
    this.layer.varint((15 << 3) | 0); // version
    this.layer.varint(2);
    this.layer.field((1 << 3) | 2, new TextEncoder().encode(LAYER));
  }

  /** Starts feature `id` (its rings follow). */
  feature(id: number): void {
    this.flush();
    this.id = id;
    this.cx = 0;
    this.cy = 0;
    this.rings = 0;
    this.open = [];
  }

  /**
   * Adds ring [s, e) of `xs`/`ys` (open, at least three points, integers in
   * tile units) to the current feature, turned to run as `outer` requires;
   * `open`: its closing edge (last point to first) is a cut, not to be stroked.
   */
  ring(
    xs: ArrayLike<number>,
    ys: ArrayLike<number>,
    s: number,
    e: number,
    outer: boolean,
    open = false,
  ): void {
    if (open) this.open.push(this.rings);
    this.rings++;
    const forward = ringArea2(xs, ys, s, e) >= 0 === outer;
    const g = this.geometry;
    const count = e - s;
    for (let k = 0; k < count; k++) {
      const i = forward ? s + k : e - 1 - k;
      if (k === 0) g.push((1 << 3) | 1);
      else if (k === 1) g.push(((count - 1) << 3) | 2);
      g.push(zigzag(xs[i] - this.cx), zigzag(ys[i] - this.cy));
      this.cx = xs[i];
      this.cy = ys[i];
    }
    g.push((1 << 3) | 7);
  }

  private flush(): void {
    if (this.id < 0 || this.geometry.length === 0) return;
    const f = new Bytes();
    f.varint((1 << 3) | 0);
    f.varint(this.id);
    if (this.open.length > 0) {
      const value = this.open.join(',');
      if (!this.values.has(value)) this.values.set(value, this.values.size);
      const tags = new Bytes();
      tags.varint(0); // CUT_KEY, the layer's only key
      tags.varint(this.values.get(value)!);
      f.field((2 << 3) | 2, tags.take());
    }
    f.varint((3 << 3) | 0);
    f.varint(3); // POLYGON
    const packed = new Bytes();
    for (const v of this.geometry) packed.varint(v);
    f.field((4 << 3) | 2, packed.take());
    this.layer.field((2 << 3) | 2, f.take());
    this.geometry = [];
  }

  /** Returns the tile's bytes (uncompressed). */
  finish(): Uint8Array {
    this.flush();
    if (this.values.size > 0) {
      this.layer.field((3 << 3) | 2, new TextEncoder().encode(CUT_KEY));
      for (const value of this.values.keys()) {
        const v = new Bytes();
        v.field((1 << 3) | 2, new TextEncoder().encode(value)); // string_value
        this.layer.field((4 << 3) | 2, v.take());
      }
    }
    this.layer.varint((5 << 3) | 0);
    this.layer.varint(this.extent);
    const tile = new Bytes();
    tile.field((3 << 3) | 2, this.layer.take());
    return tile.take();
  }
}
