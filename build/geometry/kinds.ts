// Every kind of geometry problem validate reports, in one list: the fixture
// test reads it to check each kind has a fixture under
// test/fixtures/geometry/false/ with its exact message. The OGC kinds are
// GEOS's words (TopologyValidationError), lower case.
export const GEOMETRY_PROBLEM_KINDS = [
  // RFC 7946 structure: errors
  'ring not closed',
  'ring too short',
  // GEOS's IsValidOp, in the order it checks: warnings (errors with --strict)
  'invalid coordinate',
  'too few points in geometry component',
  'self-intersection',
  'ring self-intersection',
  'hole lies outside shell',
  'holes are nested',
  'nested shells',
  'interior is disconnected',
  // Not GEOS's: a position outside [-180, 180] × [-90, 90] in a dataset whose
  // CRS is lon/lat (build/geometry/range.ts), reported beside the above
  'coordinate out of range',
] as const;

/** One kind of geometry problem, e.g. "ring self-intersection". */
export type GeometryProblemKind = (typeof GEOMETRY_PROBLEM_KINDS)[number];
