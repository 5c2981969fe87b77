// The "bbox" members of a FeatureCollection, for the scanner (./scanner.ts). RFC 7946 5: a bbox, where present, holds the extent of the
// coordinates of its object. Each member is read as it comes (before or after
// what it covers) and compared, once that object is complete, with the plain
// min/max of its coordinates, as a manifest's bbox is (spec 2.2). The
// collection's own is compared by the caller, once every segment has joined.
//
// A geometry's own extent costs the hot loop a little (its min/max move often
// at first), so it is kept only where a member may need it: for the first
// feature, for a geometry whose feature or itself has a member before the
// coordinates, and for every geometry once any feature has shown one. A member
// that still finds its extent untracked (after the coordinates, in a file whose
// first feature had none) is counted in `unchecked`; the caller then scans the
// file again with `trackAll`.
import { F_FEATURE, F_GEOMETRY, F_TOP } from './states.ts';

/** A feature's or a geometry's bbox member that does not hold its extent. */
export interface BboxIssue {
  feature: number; // the feature's index, counted from the scan's start (a worker's segment: from its own)
  geometry: boolean; // the bbox of the feature's geometry, not of the feature itself
  stated: number[] | null; // null: not an array of 4 (or 6, with heights) numbers
  actual: number[]; // [west, south, east, north] of its coordinates
}

/** What a bbox member says, as the scanner keeps it: undefined when absent, null when not 4 or 6 numbers. */
export type Stated = number[] | null | undefined;

/**
 * Returns whether `stated` holds the extent `box` ([west, south, east, north]):
 * the same 4 numbers, or with heights [w, s, low, e, n, high] the same 4 at
 * their places (heights are not measured).
 */
export function holdsExtent(stated: number[] | null, box: ArrayLike<number>): boolean {
  if (stated === null) return false;
  const [e, n] = stated.length === 6 ? [3, 4] : [2, 3];
  return stated[0] === box[0] && stated[1] === box[1] && stated[e] === box[2] && stated[n] === box[3];
}

/** The scanner's bbox members: the one being read, the current feature's and geometry's, and what is wrong. */
export class BboxMembers {
  collection: Stated; // the collection's own
  readonly issues: BboxIssue[] = [];
  unchecked = 0; // members whose extent was not tracked (see above)
  private track = true; // keep each geometry's extent, from now on
  private tracking = false; // the last geometry's extent was kept
  private firstFeature = true;
  private feature: Stated;
  private geometry: Stated;
  private owner = F_TOP; // the object whose member is being read: F_TOP, F_FEATURE or F_GEOMETRY
  private values: number[] = [];
  private numbers = true; // every value of the array so far is a number
  private readonly geometryBox = new Float64Array(4); // the extent of the last geometry's coordinates
  private readonly kept = new Float64Array(4); // the file's extent before that geometry

  /** `trackAll`: keep every geometry's extent (a second pass, when `unchecked` > 0). */
  constructor(private readonly trackAll = false) {}

  /** The extent of the last geometry's coordinates (while every geometry's is tracked). */
  get extent(): Float64Array {
    return this.geometryBox;
  }

  /** The array of a bbox member of `owner` (the frame it is in) starts. */
  start(owner: number): void {
    this.owner = owner;
    this.values = [];
    this.numbers = true;
  }

  /** A number in that array. */
  number(value: number): void {
    this.values.push(value);
  }

  /** A value in that array that is not a number. */
  spoil(): void {
    this.numbers = false;
  }

  /** The array ends. */
  end(): void {
    const n = this.values.length;
    this.set(this.owner, this.numbers && (n === 4 || n === 6) ? this.values : null);
  }

  /** A bbox member of `owner` that is not an array. */
  notAnArray(owner: number): void {
    this.set(owner, null);
  }

  private set(owner: number, stated: number[] | null): void {
    if (owner === F_TOP) this.collection = stated;
    else if (owner === F_FEATURE) this.feature = stated;
    else if (owner === F_GEOMETRY) this.geometry = stated;
  }

  startFeature(): void {
    this.feature = undefined;
  }

  startGeometry(): void {
    this.geometry = undefined;
  }

  /**
   * Before a geometry's coordinates: `box`, the file's extent so far, is kept
   * aside and emptied, so the scan widens it to theirs alone.
   */
  startCoordinates(box: Float64Array): void {
    this.tracking = this.track || this.feature !== undefined || this.geometry !== undefined;
    if (!this.tracking) return;
    this.kept.set(box);
    box[0] = box[1] = Infinity;
    box[2] = box[3] = -Infinity;
  }

  /**
   * After them: their extent is kept for the geometry's and the feature's
   * bbox, and `box` is the file's again, widened by it (of equal values the
   * earlier stays, as in one pass of strict comparisons).
   */
  endCoordinates(box: Float64Array): void {
    if (!this.tracking) return;
    const { geometryBox: g, kept } = this;
    g.set(box);
    box[0] = g[0] < kept[0] ? g[0] : kept[0];
    box[1] = g[1] < kept[1] ? g[1] : kept[1];
    box[2] = g[2] > kept[2] ? g[2] : kept[2];
    box[3] = g[3] > kept[3] ? g[3] : kept[3];
  }

  /** The geometry of feature `feature` ends: its bbox member, if any, is checked. */
  endGeometry(feature: number): void {
    if (this.geometry !== undefined) this.check(this.geometry, feature, true);
  }

  /** Feature `feature` ends: its bbox member, if any, is checked against its geometry's extent. */
  endFeature(feature: number): void {
    if (this.feature !== undefined) this.check(this.feature, feature, false);
    if (this.firstFeature) {
      // A file whose first feature has no bbox member most likely has none.
      this.firstFeature = false;
      this.track = this.trackAll || this.feature !== undefined || this.geometry !== undefined;
    }
  }

  private check(stated: number[] | null, feature: number, geometry: boolean): void {
    if (!this.tracking) {
      this.unchecked++;
      this.track = true;
    } else if (!holdsExtent(stated, this.geometryBox)) {
      this.issues.push({ feature, geometry, stated, actual: [...this.geometryBox] });
    }
  }
}
