// What the scanner (./scanner.ts) hands a FeatureListener: each feature as
// the scan passes its end, with its text whole, or only its "properties"
// objects' text. The scan marks from where the bytes read must be kept
// (keepFrom), so that a feature's text spanning chunks reaches the listener
// whole (./read.ts).

/** One feature as the scan passes its end. */
export interface FeatureEnd {
  index: number; // counted from the scan's start
  start: number; // file offsets of its text, end exclusive
  end: number;
  bytes: Buffer | undefined; // its text, with keep "feature"; valid only during the call
  type: string; // "Polygon" or "MultiPolygon"
  box: Float64Array; // [minX, minY, maxX, maxY] of its positions; valid only during the call
  z: boolean; // a position has a third number
}

/** What a user of the reader is handed of each feature (build/geojson/features.ts). */
export interface FeatureListener {
  /**
   * The bytes it reads: each feature's text whole ("feature"), or only its
   * "properties" objects ("properties"), so the scan keeps no more in memory.
   */
  readonly keep: 'feature' | 'properties';
  /** A "properties" object (not null), its text at file offset `start`; `bytes` are valid only during the call. */
  properties(bytes: Buffer, start: number): void;
  /** A feature ends (after its properties). */
  feature(feature: FeatureEnd): void;
}

/** Hands a listener each feature's bytes, and keeps the offset from which they must stay in memory. */
export class FeatureHandOff {
  /** The file offset from which the bytes read must be kept for the listener (-1: none): see scanRange. */
  keepFrom = -1;
  private propertiesStart = 0;

  constructor(private readonly listener: FeatureListener) {}

  /** A feature starts at file offset `start`. */
  startFeature(start: number): void {
    if (this.listener.keep === 'feature') this.keepFrom = start;
  }

  /** A "properties" object starts at file offset `start`. */
  startProperties(start: number): void {
    this.propertiesStart = start;
    if (this.listener.keep === 'properties') this.keepFrom = start;
  }

  /** The "properties" object ends at buf[i]; buf[0] is at file offset `base`. */
  endProperties(buf: Buffer, base: number, i: number): void {
    // Its bytes are all in buf: kept from its start (or its feature's) on.
    const start = this.propertiesStart;
    this.listener.properties(buf.subarray(start - base, i + 1), start);
    if (this.listener.keep === 'properties') this.keepFrom = -1;
  }

  /** The feature ends at buf[i]; buf[0] is at file offset `base`. */
  endFeature(buf: Buffer, base: number, i: number, feature: Omit<FeatureEnd, 'end' | 'bytes'>): void {
    const listener = this.listener;
    // Each member named, not `...feature`: an object spread per feature slowed the whole scan (docs/benchmarks.md).
    listener.feature({
      index: feature.index,
      start: feature.start,
      end: base + i + 1,
      bytes: listener.keep === 'feature' ? buf.subarray(feature.start - base, i + 1) : undefined,
      type: feature.type,
      box: feature.box,
      z: feature.z,
    });
    this.keepFrom = -1;
  }
}
