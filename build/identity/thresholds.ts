// The thresholds of identity matching and of the change classification,
// declared once: release's flags override the four re-digitisation ones.

export interface Thresholds {
  codeShare: number; // a code pair is one place when its overlap holds this share of the smaller unit…
  nearMetres: number; // …or when the names agree and the two are this close (tiny units drawn apart)
  nameShare: number; // same name, no code: this share of the smaller unit
  geometryIoU: number; // neither code nor name: mutual best overlap (intersection over union) of at least this
  significant: number; // a merge or split: an unmatched unit lies this share in another
  settle: number; // early exit: a code pair keeping 1 − settle of both areas takes part in no merge
  /** Re-digitisation: the area changes by at most this share… */
  redigitiseArea: number;
  /** …and no vertex moves farther than this many metres… */
  redigitiseDistance: number;
  /** …or than this many times the pair's own median vertex offset ν (0: fixed limits)… */
  redigitiseKDistance: number;
  /** …and the area change is at most this many times ν × the perimeter, when that is more. */
  redigitiseKArea: number;
}

/**
 * The defaults, measured on two independent vintages of the U.S. counties
 * (Census 2015 and 2017 at 1:10M, docs/releases.md): for one
 * lineage (ν = 0) they are the 1 % and 1 km; for independent
 * drawings the limits widen with the pair's own disagreement.
 */
export const DEFAULT_THRESHOLDS: Thresholds = {
  codeShare: 0.5,
  nearMetres: 5000,
  nameShare: 0.5,
  geometryIoU: 0.9,
  significant: 0.5,
  settle: 0.1,
  redigitiseArea: 0.01,
  redigitiseDistance: 1000,
  redigitiseKDistance: 75,
  redigitiseKArea: 3,
};

/**
 * Returns whether a geometry change is a re-digitisation (the same line
 * drawn again) rather than a boundary change: the largest distance H and
 * the area change |ΔA| both stay within the limits, which widen with the
 * pair's median vertex offset ν (metres) and perimeter P (metres):
 * H ≤ max(distance, kDistance·ν) and |ΔA| ≤ max(area·A, kArea·ν·P).
 */
export function isRedigitised(
  m: { relativeArea: number; hausdorff: number; offset: number; perimeter: number; areaM2: number },
  t: Thresholds,
): boolean {
  const distance = Math.max(t.redigitiseDistance, t.redigitiseKDistance * m.offset);
  const area = Math.max(t.redigitiseArea * m.areaM2, t.redigitiseKArea * m.offset * m.perimeter);
  return m.hausdorff <= distance && Math.abs(m.relativeArea) * m.areaM2 <= area;
}
