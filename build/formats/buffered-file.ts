// Writes a file sequentially through one fixed 1 MiB buffer: no allocation
// per write and none per flush, so converting a large level does not leave
// the allocator holding freed buffers (resident memory the process keeps).
import type { FileHandle } from 'node:fs/promises';

const SIZE = 1 << 20;

/** Outputs of levels smaller than this (GeoJSON bytes) are built in memory: no temporary files. */
export const IN_MEMORY_BELOW_BYTES = 8 << 20;

export class BufferedFile {
  private buffer = Buffer.allocUnsafe(SIZE);
  private used = 0;
  /** The file offset the next write goes to (bytes written so far, from `start`). */
  position: number;

  constructor(
    private file: FileHandle,
    start = 0,
  ) {
    this.position = start;
  }

  /** Appends `bytes` (copied: the caller may reuse them). */
  async write(bytes: Uint8Array): Promise<void> {
    if (this.used + bytes.length > SIZE) await this.flush();
    if (bytes.length > SIZE) {
      await this.file.write(bytes, 0, bytes.length, this.position);
    } else {
      this.buffer.set(bytes, this.used);
      this.used += bytes.length;
    }
    this.position += bytes.length;
  }

  /** Writes out what the buffer holds. */
  async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.file.write(this.buffer, 0, this.used, this.position - this.used);
    this.used = 0;
  }
}

/** The same interface kept in memory, for small outputs (no temporary file, no system calls). */
export class MemoryFile {
  private chunks: Buffer[] = [];
  position = 0;

  write(bytes: Uint8Array): Promise<void> {
    this.chunks.push(Buffer.from(bytes)); // a copy: callers reuse their buffers
    this.position += bytes.length;
    return Promise.resolve(); // the file interface's: a BufferedFile waits on the disk
  }

  flush(): Promise<void> {
    return Promise.resolve();
  }

  /** Returns everything written, as one buffer. */
  contents(): Buffer {
    const all = Buffer.concat(this.chunks);
    this.chunks = [all];
    return all;
  }
}
