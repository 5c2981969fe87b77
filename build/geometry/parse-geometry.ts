// Reads one feature's geometry straight from its bytes into flat arrays:
// positions as x, y doubles, plus where each ring and polygon ends. No
// JSON.parse, no nested arrays: that parse and its garbage cost more than the
// validity checks themselves. Numbers become the exact doubles JSON.parse
// gives (fast path: at most 15 digits and no exponent, one correctly rounded
// division; otherwise Number() of the text).

/** A Polygon or MultiPolygon, flat. Arrays are reused from feature to feature: copy what you keep. */
export interface FlatGeometry {
  type: string; // e.g. "MultiPolygon"; "" when the geometry is null
  multi: boolean; // coordinates nested 4 deep (else 3)
  xy: Float64Array; // positions [x0, y0, x1, y1, …] (a third number is dropped)
  positions: number;
  ringEnds: Int32Array; // ring r holds positions [ringEnds[r-1] ?? 0, ringEnds[r])
  rings: number;
  polygonEnds: Int32Array; // polygon p holds rings [polygonEnds[p-1] ?? 0, polygonEnds[p])
  polygons: number;
}

/** Thrown when the bytes are not the JSON the measurer accepts; the measurer says where. */
export class GeometryParseError extends Error {}

const POW10 = Array.from({ length: 23 }, (_, k) => 10 ** k);

export class GeometryReader {
  readonly g: FlatGeometry = {
    type: '',
    multi: false,
    xy: new Float64Array(1 << 16),
    positions: 0,
    ringEnds: new Int32Array(1 << 10),
    rings: 0,
    polygonEnds: new Int32Array(1 << 8),
    polygons: 0,
  };
  private b: Uint8Array = new Uint8Array(0);
  private i = 0;

  /** Returns the geometry of one feature (`bytes` = one JSON object), or undefined if it has none with coordinates. */
  read(bytes: Uint8Array): FlatGeometry | undefined {
    this.b = bytes;
    this.i = 0;
    const g = this.g;
    g.type = '';
    g.positions = 0;
    g.rings = 0;
    g.polygons = 0;
    let found = false;
    this.expect(0x7b);
    this.members((key) => {
      if (key !== 'geometry') return false;
      if (this.peek() !== 0x7b) return false; // null geometry
      this.i++;
      this.members((member) => {
        if (member === 'type' && this.peek() === 0x22) {
          g.type = this.string();
          return true;
        }
        if (member === 'coordinates' && this.peek() === 0x5b) {
          g.multi = this.coordinates() === 4;
          found = true;
          return true;
        }
        return false;
      });
      return true;
    });
    return found ? g : undefined;
  }

  private fail(what: string): never {
    throw new GeometryParseError(`${what} at byte ${this.i} of the feature`);
  }

  private peek(): number {
    const b = this.b;
    let i = this.i;
    while (b[i] === 0x20 || b[i] === 0x0a || b[i] === 0x0d || b[i] === 0x09) i++;
    this.i = i;
    return b[i] ?? -1;
  }

  private expect(c: number): void {
    if (this.peek() !== c) this.fail(`expected '${String.fromCharCode(c)}'`);
    this.i++;
  }

  /** Reads "key": value pairs up to '}'; `onKey` reads the value and returns true, or returns false to skip it. */
  private members(onKey: (key: string) => boolean): void {
    if (this.peek() === 0x7d) {
      this.i++;
      return;
    }
    for (;;) {
      if (this.peek() !== 0x22) this.fail('expected a key');
      const key = this.string();
      this.expect(0x3a);
      this.peek();
      if (!onKey(key)) this.skipValue();
      const c = this.peek();
      this.i++;
      if (c === 0x7d) return;
      if (c !== 0x2c) this.fail("expected ',' or '}'");
    }
  }

  /** Reads a string at b[i] (a '"'); keys and types have no escapes worth decoding here. */
  private string(): string {
    const b = this.b;
    const start = ++this.i;
    let i = start;
    let escaped = false;
    while (i < b.length && b[i] !== 0x22) {
      if (b[i] === 0x5c) {
        escaped = true;
        i++;
      }
      i++;
    }
    if (i >= b.length) this.fail('unterminated string');
    this.i = i + 1;
    const text = Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('utf8');
    return escaped ? (JSON.parse(`"${text}"`) as string) : text;
  }

  /** Skips any JSON value at b[i]: a string, a container (brackets and strings matched) or a scalar. */
  private skipValue(): void {
    const b = this.b;
    let i = this.i;
    const c = b[i];
    if (c === 0x22) {
      i = skipString(b, i);
    } else if (c === 0x7b || c === 0x5b) {
      let depth = 0;
      do {
        const d = b[i];
        if (d === undefined) this.fail('unexpected end');
        if (d === 0x22) {
          i = skipString(b, i);
          continue;
        }
        if (d === 0x7b || d === 0x5b) depth++;
        else if (d === 0x7d || d === 0x5d) depth--;
        i++;
      } while (depth > 0);
    } else {
      while (i < b.length && b[i] !== 0x2c && b[i] !== 0x7d && b[i] !== 0x5d) i++;
    }
    this.i = i;
  }

  /**
   * Reads a "coordinates" array; returns its nesting depth (3: Polygon, 4:
   * MultiPolygon). Arrays of numbers are positions, arrays of positions rings,
   * arrays of rings polygons.
   */
  private coordinates(): number {
    const b = this.b;
    const g = this.g;
    const kinds = [0, 0, 0, 0, 0, 0]; // per open level: 1 numbers, 2 positions, 3 rings, 4 polygons (0: unknown yet)
    const counts = [0, 0, 0, 0, 0, 0]; // per open level: items so far
    let level = 0;
    let i = this.i;
    let x = 0;
    for (;;) {
      const c = b[i];
      if (c === undefined) this.fail('unexpected end of the feature');
      if (c === 0x5b && kinds[level] === 2 && startsNumber(b[i + 1])) {
        // Fast path for the common case, a position "[x,y]" inside a ring whose
        // first position is read: anything else (spaces, a third number) goes
        // the general way below.
        const afterX = this.number(i + 1);
        if (b[afterX] === 0x2c && startsNumber(b[afterX + 1])) {
          const x0 = lastValue;
          const afterY = this.number(afterX + 1);
          if (b[afterY] === 0x5d) {
            if (g.positions * 2 + 2 > g.xy.length) g.xy = grow(g.xy);
            g.xy[2 * g.positions] = x0;
            g.xy[2 * g.positions + 1] = lastValue;
            g.positions++;
            counts[level]!++;
            i = afterY + 1;
            continue;
          }
        }
      }
      if (c === 0x5b) {
        if (++level > 4) this.fail('coordinates nested too deep');
        kinds[level] = 0;
        counts[level] = 0;
        i++;
      } else if (c === 0x5d) {
        const kind = kinds[level]!;
        if (kind === 0) this.fail('empty array');
        if (kind === 1) {
          if (counts[level]! < 2) this.fail('a position has fewer than 2 numbers');
          if (g.positions * 2 + 2 > g.xy.length) g.xy = grow(g.xy);
          g.xy[2 * g.positions] = x;
          g.xy[2 * g.positions + 1] = lastY;
          g.positions++;
        } else if (kind === 2) {
          if (g.rings >= g.ringEnds.length) g.ringEnds = growInt(g.ringEnds);
          g.ringEnds[g.rings++] = g.positions;
        } else if (kind === 3) {
          if (g.polygons >= g.polygonEnds.length) g.polygonEnds = growInt(g.polygonEnds);
          g.polygonEnds[g.polygons++] = g.rings;
        }
        i++;
        level--;
        if (level === 0) {
          this.i = i;
          if (kind === 3 && g.polygons === 1) return 3; // a Polygon: its rings are the one polygon
          if (kind === 4) return 4;
          return this.fail('coordinates are not those of a Polygon or MultiPolygon');
        }
        const parent = kinds[level]!;
        if (parent === 0) kinds[level] = kind + 1;
        else if (parent !== kind + 1) this.fail('positions are nested unevenly');
        counts[level]!++;
      } else if (c === 0x2c || c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) {
        i++;
      } else {
        // A number: only inside a position.
        const kind = kinds[level]!;
        if (kind === 0) kinds[level] = 1;
        else if (kind !== 1) this.fail('positions are nested unevenly');
        const n = counts[level]!;
        i = this.number(i);
        if (n === 0) x = lastValue;
        else if (n === 1) lastY = lastValue;
        counts[level] = n + 1;
      }
    }
  }

  /** Reads a JSON number at b[i] into lastValue; returns the index after it. */
  private number(i: number): number {
    const b = this.b;
    const start = i;
    const negative = b[i] === 0x2d;
    if (negative) i++;
    let m = 0;
    let digits = 0;
    let d: number;
    while ((d = b[i]! - 0x30) >= 0 && d <= 9) {
      m = m * 10 + d;
      i++;
      digits++;
    }
    let fraction = 0;
    if (b[i] === 0x2e) {
      i++;
      while ((d = b[i]! - 0x30) >= 0 && d <= 9) {
        m = m * 10 + d;
        i++;
        fraction++;
      }
    }
    const c = b[i];
    if (i === start) this.fail('expected a number');
    if (c === 0x65 || c === 0x45 || digits + fraction > 15 || digits === 0) {
      // Exponent, long or odd: the text's own value, exactly as JSON.parse reads it.
      while (
        i < b.length &&
        b[i] !== 0x2c &&
        b[i] !== 0x5d &&
        b[i] !== 0x20 &&
        b[i] !== 0x0a &&
        b[i] !== 0x0d &&
        b[i] !== 0x09
      )
        i++;
      const text = Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('latin1');
      lastValue = Number(text);
      if (Number.isNaN(lastValue) || !/^-?\d/.test(text)) this.fail('not a number');
      return i;
    }
    const v = fraction === 0 ? m : m / POW10[fraction]!;
    lastValue = negative ? -v : v;
    return i;
  }
}

/** Returns whether byte c can start a JSON number. */
function startsNumber(c: number | undefined): boolean {
  return c === 0x2d || (c !== undefined && c >= 0x30 && c <= 0x39);
}

/** Returns the index after the string that starts at b[i] (a '"'). */
function skipString(b: Uint8Array, i: number): number {
  i++;
  while (i < b.length && b[i] !== 0x22) i += b[i] === 0x5c ? 2 : 1;
  return i + 1;
}

let lastValue = 0;
let lastY = 0;

function grow(a: Float64Array): Float64Array {
  const bigger = new Float64Array(a.length * 2);
  bigger.set(a);
  return bigger;
}

function growInt(a: Int32Array): Int32Array {
  const bigger = new Int32Array(a.length * 2);
  bigger.set(a);
  return bigger;
}
