// The markers of tiny shapes (build/site/map-svg.ts draws one around every
// polygon under a few pixels): kept the same size on screen as the reader
// zooms, and hidden once their shape is large enough to see by itself.

/** Marker radius on screen, in pixels. */
const RADIUS_PX = 5;
/** A shape at least this many pixels across needs no marker. */
const VISIBLE_PX = 6;

/** Sizes the markers of `svg` for `pxPerUnit` screen pixels per SVG unit. */
export function updateMarkers(svg: SVGSVGElement, pxPerUnit: number): void {
  for (const m of svg.querySelectorAll<SVGCircleElement>('circle.m')) {
    const size = Number(m.dataset.s ?? 0) * pxPerUnit;
    m.setAttribute('r', String(RADIUS_PX / pxPerUnit));
    m.classList.toggle('hidden', size >= VISIBLE_PX);
  }
}
