// The reader's one kind of failure: malformed input at a byte offset. Every
// user of the reader (measure, geometry, formats) reports it the same way.
import { UserError } from '../core/errors.ts';
import { problem } from '../core/problem.ts';

/** A malformed input at a byte offset, thrown by the scan; users turn it into a GeoJSONError. */
export class ScanError extends Error {
  constructor(
    readonly offset: number,
    readonly reason: string,
  ) {
    super(`byte ${offset}: ${reason}`);
  }
}

/** A malformed GeoJSON file: one problem, printed as "PATH: byte OFFSET: reason". */
export class GeoJSONError extends UserError {
  override name = 'GeoJSONError';
  constructor(
    readonly path: string,
    readonly offset: number,
    readonly reason: string,
  ) {
    super(problem(path, reason, { byte: offset, rule: 'geojson' }));
  }
}

/** Returns `error` as the problem of file `path`: a ScanError becomes a GeoJSONError; anything else is returned as it is. */
export function inFile(path: string, error: unknown): unknown {
  return error instanceof ScanError ? new GeoJSONError(path, error.offset, error.reason) : error;
}
