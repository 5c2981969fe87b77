// Thrift's compact protocol, the encoding of Parquet's footer and page
// headers: only what a writer needs (fields of structs, lists, integers,
// binaries, booleans). Field ids are written as deltas from the previous
// field of the same struct, so a struct must list its fields in id order.

/** Compact protocol type ids. */
const T = { TRUE: 1, FALSE: 2, I32: 5, I64: 6, BINARY: 8, LIST: 9, STRUCT: 12 } as const;

/** Writes one Thrift message (a struct and what it holds) into a growing buffer. */
export class ThriftWriter {
  private bytes = Buffer.allocUnsafe(256);
  private at = 0;
  private last = 0; // the previous field id in the current struct
  private stack: number[] = [];

  /** Returns what was written. */
  finish(): Buffer {
    return this.bytes.subarray(0, this.at);
  }

  private room(n: number): void {
    if (this.at + n <= this.bytes.length) return;
    const bigger = Buffer.allocUnsafe(Math.max(this.bytes.length * 2, this.at + n));
    this.bytes.copy(bigger, 0, 0, this.at);
    this.bytes = bigger;
  }

  private byte(b: number): void {
    this.room(1);
    this.bytes[this.at++] = b;
  }

  /** An unsigned varint of a non-negative integer up to 2^53. */
  private varint(n: number): void {
    this.room(10);
    while (n >= 0x80) {
      this.bytes[this.at++] = (n % 0x80) | 0x80;
      n = Math.floor(n / 0x80);
    }
    this.bytes[this.at++] = n;
  }

  /** A zigzag varint (i16, i32 and i64 alike), e.g. -1 → 1, 1 → 2. */
  private int(n: number): void {
    this.varint(n >= 0 ? n * 2 : -n * 2 - 1);
  }

  private header(id: number, type: number): void {
    const delta = id - this.last;
    if (delta > 0 && delta <= 15) this.byte((delta << 4) | type);
    else {
      this.byte(type);
      this.int(id);
    }
    this.last = id;
  }

  i32(id: number, n: number): this {
    this.header(id, T.I32);
    this.int(n);
    return this;
  }

  i64(id: number, n: number): this {
    this.header(id, T.I64);
    this.int(n);
    return this;
  }

  bool(id: number, b: boolean): this {
    this.header(id, b ? T.TRUE : T.FALSE);
    return this;
  }

  /** A binary field: bytes, or a string as UTF-8. */
  binary(id: number, value: Uint8Array | string): this {
    this.header(id, T.BINARY);
    this.raw(typeof value === 'string' ? Buffer.from(value, 'utf8') : value);
    return this;
  }

  private raw(bytes: Uint8Array): void {
    this.varint(bytes.length);
    this.room(bytes.length);
    this.bytes.set(bytes, this.at);
    this.at += bytes.length;
  }

  /** A struct field: `body` writes its fields. */
  struct(id: number, body: (w: this) => void): this {
    this.header(id, T.STRUCT);
    return this.inStruct(body);
  }

  private inStruct(body: (w: this) => void): this {
    this.stack.push(this.last);
    this.last = 0;
    body(this);
    this.byte(0); // stop
    this.last = this.stack.pop()!;
    return this;
  }

  /** A list field of structs, one per item. */
  structs<V>(id: number, items: readonly V[], body: (w: this, item: V) => void): this {
    this.listHeader(id, items.length, T.STRUCT);
    for (const item of items) this.inStruct((w) => body(w, item));
    return this;
  }

  /** A list field of i32s (enums too). */
  i32s(id: number, items: readonly number[]): this {
    this.listHeader(id, items.length, T.I32);
    for (const n of items) this.int(n);
    return this;
  }

  /** A list field of strings. */
  strings(id: number, items: readonly string[]): this {
    this.listHeader(id, items.length, T.BINARY);
    for (const s of items) this.raw(Buffer.from(s, 'utf8'));
    return this;
  }

  private listHeader(id: number, size: number, type: number): void {
    this.header(id, T.LIST);
    if (size < 15) this.byte((size << 4) | type);
    else {
      this.byte(0xf0 | type);
      this.varint(size);
    }
  }

  /** Writes the message's top-level struct. */
  static message(body: (w: ThriftWriter) => void): Buffer {
    const w = new ThriftWriter();
    body(w);
    w.byte(0);
    return w.finish();
  }
}
