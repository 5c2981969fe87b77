// A level's encoded records kept in source order until a writer copies them
// out in another (FlatGeobuf's and GeoParquet's Hilbert order): in memory for
// a small level, else in a temporary file beside the output, read back one
// record at a time. Written once for both formats, which each had a copy.
import { open, rm, type FileHandle } from 'node:fs/promises';
import { BufferedFile, MemoryFile } from './buffered-file.ts';

export class RecordBody {
  private readonly at: Float64Array; // each record's offset, then the end of the last
  private inMemory: Buffer | undefined;
  private buffer = Buffer.allocUnsafe(1 << 16);

  private constructor(
    private readonly path: string,
    private file: FileHandle | undefined,
    private readonly writer: BufferedFile | MemoryFile,
    count: number,
  ) {
    this.at = new Float64Array(count + 1);
  }

  /** Opens the body of `count` records: in memory when `small`, else in the file `path` (removed by close()). */
  static async open(path: string, count: number, small: boolean): Promise<RecordBody> {
    const file = small ? undefined : await open(path, 'w+');
    return new RecordBody(path, file, file ? new BufferedFile(file, 0) : new MemoryFile(), count);
  }

  /** Appends record `index` (records come in index order). */
  async add(index: number, bytes: Uint8Array): Promise<void> {
    this.at[index] = this.writer.position;
    await this.writer.write(bytes);
    this.at[index + 1] = this.writer.position; // the next record's start, or the body's end
  }

  /** Ends the writing: the records can be read from here on. */
  async finish(): Promise<void> {
    await this.writer.flush();
    if (!this.file) this.inMemory = (this.writer as MemoryFile).contents();
  }

  /** Returns record `k`'s bytes, valid until the next call (one buffer is reused). */
  record(k: number): Buffer | Promise<Buffer> {
    const size = this.at[k + 1] - this.at[k];
    if (this.inMemory) return this.inMemory.subarray(this.at[k], this.at[k] + size);
    if (size > this.buffer.length) this.buffer = Buffer.allocUnsafe(size);
    const buffer = this.buffer;
    return this.file!.read(buffer, 0, size, this.at[k]).then(() => buffer.subarray(0, size));
  }

  /** Closes and removes the temporary file, if any; safe to call twice and after a failure. */
  async close(): Promise<void> {
    const file = this.file;
    this.file = undefined;
    await file?.close().catch(() => {});
    await rm(this.path, { force: true });
  }
}
