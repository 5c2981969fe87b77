// Rings cut at the antimeridian. Data that crosses 180° (Fiji, Chukotka, the
// Aleutians) is split there into polygons that meet along lon = ±180; in the
// map's plane the two halves touch, and their shared edge is the cut, not a
// coastline or a border, so it must not be stroked. A ring whose cut edges
// form one run is turned to start where the run ends and end where it starts:
// drawn as an open subpath, it is filled as if closed (straight across the
// cut) but its stroke stops at the cut.

type Position = number[];

/** Whether a position lies on the antimeridian, as split data puts it: at exactly ±180. */
export function onAntimeridian(p: Position): boolean {
  return Array.isArray(p) && Math.abs(p[0]) === 180;
}

/**
 * Returns `ring` (a GeoJSON ring, closed or not) as an open list of
 * positions ending at its cut, and `open: true`, when its edges along the
 * antimeridian form exactly one run; otherwise the ring as it is and
 * `open: false` (no cut, or several, which are rare: such a ring keeps its
 * whole outline).
 */
export function openAtCut(ring: Position[]): { ring: Position[]; open: boolean } {
  const first = ring[0];
  const last = ring[ring.length - 1];
  const closed = ring.length > 1 && first?.[0] === last?.[0] && first?.[1] === last?.[1];
  const pts = closed ? ring.slice(0, -1) : ring;
  const n = pts.length;
  if (n < 3) return { ring, open: false };
  const cut = pts.map((p, i) => onAntimeridian(p) && onAntimeridian(pts[(i + 1) % n]));
  let start = -1; // the first cut edge of the run (its previous edge is not cut)
  let runs = 0;
  for (let i = 0; i < n; i++) {
    if (cut[i] && !cut[(i - 1 + n) % n]) {
      runs++;
      start = i;
    }
  }
  if (runs !== 1) return { ring, open: false };
  let end = start; // the point the run ends at
  while (cut[end % n]) end++;
  const out: Position[] = [];
  for (let k = end; k <= start + n; k++) out.push(pts[k % n]); // from the run's end round to its start
  return { ring: out, open: true };
}
