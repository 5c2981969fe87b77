// When the geometry checks leave their plain loops, fast on ordinary
// boundaries, for an index (build/geometry/box-tree.ts), which keeps
// adversarial shapes (long teeth, thousands of holes or polygons) near
// n log n. Both ways give the very same answer in the same order; tests set
// every limit to 0 to run the indexes on small inputs and compare.
export const indexLimits = {
  /** x-sweep steps (chains met) allowed per chain before the remaining pairs come from an index; ordinary rings take ~7. */
  sweepStepsPerChain: 32,
  /** Holes (or polygons) of one feature from which nesting is tested through an index rather than pair by pair. */
  ringsForIndex: 32,
  /** Linear point-in-ring scans of one ring (or polygon) before its segments get an index… */
  scansBeforeIndex: 4,
  /** …if it has at least this many segments. */
  segmentsForIndex: 64,
};

/**
 * Envelope and segment tests done so far, in every loop that could meet all
 * pairs (sweep steps, R-tree boxes, holes and polygons paired, segments
 * scanned to locate a point): tests bound it on adversarial shapes, to catch
 * a return to quadratic work without timing anything.
 */
export const work = { tests: 0 };
