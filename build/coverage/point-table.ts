// Numbers points by their exact coordinates: an open-addressing hash table
// over the doubles' bits, for the nodes of a coverage's arrangement (a Map
// keyed by strings costs several times more on a level's outline).

/** Gives each distinct point (exactly equal coordinates, −0 as 0) one id, in the order first seen. */
export class PointTable {
  private slots: Int32Array;
  private x: Float64Array;
  private y: Float64Array;
  private count = 0;
  private readonly bits = new Float64Array(1);
  private readonly words = new Int32Array(this.bits.buffer);

  constructor(capacity = 1024) {
    let size = 16;
    while (size < 2 * capacity) size *= 2;
    this.slots = new Int32Array(size).fill(-1);
    this.x = new Float64Array(Math.max(16, capacity));
    this.y = new Float64Array(Math.max(16, capacity));
  }

  /** Returns the id of point (x, y), numbering it when new. */
  id(x: number, y: number): number {
    if (x === 0) x = 0;
    if (y === 0) y = 0;
    const mask = this.slots.length - 1;
    let slot = this.hash(x, y) & mask;
    for (;;) {
      const t = this.slots[slot]!;
      if (t < 0) break;
      if (this.x[t] === x && this.y[t] === y) return t;
      slot = (slot + 1) & mask;
    }
    const id = this.count++;
    if (id === this.x.length) this.growPoints();
    this.x[id] = x;
    this.y[id] = y;
    this.slots[slot] = id;
    if (2 * this.count > this.slots.length) this.rehash();
    return id;
  }

  /** Returns the x of every point, by id. */
  xs(): Float64Array {
    return this.x.slice(0, this.count);
  }

  /** Returns the y of every point, by id. */
  ys(): Float64Array {
    return this.y.slice(0, this.count);
  }

  private hash(x: number, y: number): number {
    let h = 0x9e3779b9;
    for (const v of [x, y]) {
      this.bits[0] = v;
      h = Math.imul(h ^ this.words[0]!, 0x85ebca6b);
      h = Math.imul(h ^ (h >>> 13) ^ this.words[1]!, 0xc2b2ae35);
      h ^= h >>> 16;
    }
    return h >>> 0;
  }

  private growPoints(): void {
    const x = new Float64Array(this.x.length * 2);
    const y = new Float64Array(this.y.length * 2);
    x.set(this.x);
    y.set(this.y);
    this.x = x;
    this.y = y;
  }

  private rehash(): void {
    this.slots = new Int32Array(this.slots.length * 2).fill(-1);
    const mask = this.slots.length - 1;
    for (let id = 0; id < this.count; id++) {
      let slot = this.hash(this.x[id]!, this.y[id]!) & mask;
      while (this.slots[slot]! >= 0) slot = (slot + 1) & mask;
      this.slots[slot] = id;
    }
  }
}
