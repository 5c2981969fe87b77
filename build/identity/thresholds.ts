// The thresholds of identity matching and of the change classification,
// declared once: release's flags override the four re-digitisation ones.

export interface Thresholds {
  codeShare: number; // a code pair is one place when its overlap holds this share of the smaller unit…
  nearMetres: number; // …or when the names agree and the two are this close (tiny units drawn apart)
  nameShare: number; // same name, no code: this share of the smaller unit
  geometryIoU: number; // mutual best overlap (intersection over union) of at least this: the same place, whatever the labels
  significant: number; // a merge or split: an unmatched unit lies this share in another
  settle: number; // early exit: a code pair keeping 1 − settle of both areas takes part in no merge
  /** Re-digitisation: the area changes by at most this share… */
  redigitiseArea: number;
  /** …and no vertex moves farther than this many metres… */
  redigitiseDistance: number;
  /** …or than this many times the noise ν_ref of the unit's neighbours (0: fixed limits)… */
  redigitiseKDistance: number;
  /** …and the area change is at most this many times ν_ref × the perimeter, when that is more… */
  redigitiseKArea: number;
  /** …and the pair's own median offset ν is at most this many times ν_ref (or the distance limit). */
  redigitiseKOffset: number;
  /** ν_ref is the median ν of this many nearest other identity pairs of the level. */
  noiseNeighbours: number;
}

/**
 * The defaults, measured on two independent vintages of the U.S. counties
 * (Census 2015 and 2017 at 1:10M, docs/releases.md): where the neighbours
 * did not move (ν_ref = 0) they are 1 % and 100 m; for independent drawings
 * the limits widen with the neighbours' disagreement, never the pair's own.
 */
export const DEFAULT_THRESHOLDS: Thresholds = {
  codeShare: 0.5,
  nearMetres: 5000,
  nameShare: 0.5,
  geometryIoU: 0.9,
  significant: 0.5,
  settle: 0.1,
  redigitiseArea: 0.01,
  redigitiseDistance: 100,
  redigitiseKDistance: 75,
  redigitiseKArea: 3,
  redigitiseKOffset: 4,
  noiseNeighbours: 8,
};

/** What the classification measures on one identity pair, in metres and m². */
export interface PairMeasure {
  relativeArea: number; // (new − old) / old
  hausdorff: number; // H, the largest distance between the two drawings
  offset: number; // ν, the pair's own median vertex offset
  reference: number; // ν_ref, the noise of its neighbours (or its lineage)
  perimeter: number; // P, of the old drawing
  areaM2: number; // of the old drawing
}

/**
 * Returns whether a geometry change is a re-digitisation (the same line
 * drawn again) rather than a boundary change. The limits widen with ν_ref,
 * the re-digitisation noise the rest of the level shows, never with the
 * pair's own offset (a unit moved or scaled whole has a large one):
 * H ≤ max(D, Kd·ν_ref), |ΔA| ≤ max(A·area, Ka·ν_ref·P) and ν ≤ max(D, Kν·ν_ref).
 */
export function isRedigitised(m: PairMeasure, t: Thresholds): boolean {
  const distance = Math.max(t.redigitiseDistance, t.redigitiseKDistance * m.reference);
  const area = Math.max(t.redigitiseArea * m.areaM2, t.redigitiseKArea * m.reference * m.perimeter);
  const offset = Math.max(t.redigitiseDistance, t.redigitiseKOffset * m.reference);
  return m.hausdorff <= distance && Math.abs(m.relativeArea) * m.areaM2 <= area && m.offset <= offset;
}
