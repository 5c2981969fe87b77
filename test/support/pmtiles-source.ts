// An archive held in memory as a source for the reference PMTiles reader
// (the `pmtiles` package), which the tile tests read our archives back with.
import type { RangeResponse, Source } from 'pmtiles';

export class BufferSource implements Source {
  constructor(private bytes: Buffer) {}
  getKey(): string {
    return 'memory';
  }
  async getBytes(offset: number, length: number): Promise<RangeResponse> {
    const b = this.bytes.subarray(offset, offset + length);
    return { data: b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer };
  }
}
