// Checks the geometry of every feature of one GeoJSON file, one feature at a
// time (bounded memory), and returns one issue per invalid feature: the
// GeoJSON reader (build/geojson/) hands each feature's positions to a
// GeometrySink. A large file is shared with a worker thread
// (build/geometry/parallel.ts). Used when the measurer's own pass did not
// check the file (its measurement came from the cache).
import { open, type FileHandle } from 'node:fs/promises';
import { inFile } from '../geojson/errors.ts';
import { scanRange } from '../geojson/read.ts';
import { FeatureCollectionScanner } from '../geojson/scanner.ts';
import { findSegments } from '../geojson/segments.ts';
import { GeometrySink } from './feature-sink.ts';
import { checkInWorker } from './parallel.ts';
import { moveIssue, type FileGeometry, type RangeResult } from './verdict.ts';

const PARALLEL_MIN_BYTES = 32 << 20; // share with a worker thread from this size on

/**
 * Returns the verdict on every feature of `path`, a GeoJSON FeatureCollection
 * (the measurer's problems, a GeoJSONError, if it is malformed).
 * For tests: `parallelMinBytes` lowers the size from which a worker thread
 * takes the second half; `chunkSize` (bytes per read) cuts tokens at a chunk's end;
 * `joined` is told when the worker's half joined the result.
 */
export async function checkGeometryFile(
  path: string,
  options: { parallelMinBytes?: number; chunkSize?: number; joined?: () => void } = {},
): Promise<FileGeometry> {
  const file = await open(path, 'r');
  try {
    const { size } = await file.stat();
    const segments =
      size >= (options.parallelMinBytes ?? PARALLEL_MIN_BYTES)
        ? findSegments(file, size, Math.ceil(size / 2))
        : [];
    const { chunkSize } = options;
    const sink = new GeometrySink();
    const scanner = new FeatureCollectionScanner(sink);
    let from = 0;
    if (segments.length >= 2) {
      const cut = segments[1]!.from;
      const second = checkInWorker(path, cut, size);
      const { carry } = await scanRange(file, scanner, { from: 0, to: cut, toEnd: false, chunkSize });
      const part = carry === 0 && scanner.isBetweenFeatures() ? await second : undefined;
      if (part?.between) {
        options.joined?.();
        return join(scanner.features, sink, part);
      }
      // The cut was not between features (or the worker failed): go on here.
      from = cut - carry;
    }
    await scanRange(file, scanner, { from, to: size, toEnd: true, chunkSize });
    return { checked: scanner.features, issues: sink.issues };
  } catch (error) {
    throw inFile(path, error);
  } finally {
    await file.close();
  }
}

/** Returns the first part's verdict followed by the worker's, its feature indices moved on. */
function join(checked: number, sink: GeometrySink, second: RangeResult): FileGeometry {
  const moved = second.issues.map((issue) => moveIssue(issue, checked));
  return { checked: checked + second.checked, issues: [...sink.issues, ...moved] };
}

/**
 * Checks the features of bytes [from, to) of `path`, which start inside the
 * "features" array before a feature (a worker's half); indices count from
 * there. `between`: the range ended between features, and was checked whole.
 */
export async function checkRange(path: string, from: number, to: number): Promise<RangeResult> {
  const sink = new GeometrySink();
  const scanner = new FeatureCollectionScanner(sink);
  scanner.startBetweenFeatures();
  let file: FileHandle | undefined;
  try {
    file = await open(path, 'r');
    const { size } = await file.stat();
    const { carry } = await scanRange(file, scanner, { from, to, toEnd: to >= size });
    const between = to >= size || (carry === 0 && scanner.isBetweenFeatures());
    return { checked: scanner.features, issues: sink.issues, between };
  } catch {
    return { checked: 0, issues: [], between: false }; // this thread checks the range again, and says why
  } finally {
    await file?.close();
  }
}
