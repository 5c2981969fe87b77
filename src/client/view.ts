// The map's view box arithmetic (pure, unit-tested in Node): zooming keeps the
// point under the pointer still and stays within a zoom range.

export interface View {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Returns `view` scaled by `factor` (< 1 zooms in) around (cx, cy), which
 * stays at the same place on screen; the width is kept within [minW, maxW].
 */
export function zoomAt(view: View, factor: number, cx: number, cy: number, minW: number, maxW: number): View {
  const w = Math.min(maxW, Math.max(minW, view.w * factor));
  const f = w / view.w;
  return { x: cx - (cx - view.x) * f, y: cy - (cy - view.y) * f, w, h: view.h * f };
}

/** Returns `view` moved by (dx, dy) in its own units. */
export function panBy(view: View, dx: number, dy: number): View {
  return { ...view, x: view.x + dx, y: view.y + dy };
}
