// The map's pointer, wheel and keyboard input: drag pans, two pointers
// pinch-zoom, the wheel zooms at the pointer, arrows pan, + − 0 zoom and reset,
// and a click (no drag) on a unit calls `onUnitClick`.
import type { MapView } from './map-view.ts';

/** Pointer travel (in CSS pixels) past which a press is a drag, not a click. */
const DRAG = 3;

export function listenToPointer(map: MapView, onUnitClick: (id: string) => void): void {
  const { viewport } = map;
  const pointers = new Map<number, { x: number; y: number }>();
  let moved = 0;
  viewport.addEventListener('pointerdown', (e) => {
    map.interacted();
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    moved = 0;
  });
  viewport.addEventListener('pointermove', (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const [c, d] = [...pointers.values()];
      const after = Math.hypot(c.x - d.x, c.y - d.y);
      const mid = map.toSvg((c.x + d.x) / 2, (c.y + d.y) / 2);
      if (before > 0 && after > 0) map.zoom(before / after, mid.x, mid.y);
      moved += 10;
      return;
    }
    const { scale } = map.toSvg(e.clientX, e.clientY);
    moved += Math.abs(e.clientX - last.x) + Math.abs(e.clientY - last.y);
    if (moved > DRAG) {
      if (!viewport.hasPointerCapture(e.pointerId)) viewport.setPointerCapture(e.pointerId);
      map.pan(-(e.clientX - last.x) * scale, -(e.clientY - last.y) * scale);
    }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  const end = (e: PointerEvent) => {
    pointers.delete(e.pointerId);
  };
  viewport.addEventListener('pointerup', end);
  viewport.addEventListener('pointercancel', end);
  viewport.addEventListener('click', (e) => {
    const shape = (e.target as Element).closest?.('[data-u], [data-t]') as SVGElement | null;
    const id = shape?.dataset.u ?? shape?.dataset.t;
    if (id === undefined || moved > DRAG) return;
    onUnitClick(id);
  });
}

export function listenToWheel(map: MapView): void {
  map.viewport.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      map.interacted();
      const at = map.toSvg(e.clientX, e.clientY);
      map.zoom(Math.exp(Math.max(-1, Math.min(1, e.deltaY / 300))), at.x, at.y);
    },
    { passive: false },
  );
}

export function listenToKeys(map: MapView): void {
  map.viewport.addEventListener('keydown', (e) => {
    const step = 0.1;
    const { w, h } = map.view;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-w * step, 0],
      ArrowRight: [w * step, 0],
      ArrowUp: [0, -h * step],
      ArrowDown: [0, h * step],
    };
    if (moves[e.key]) map.pan(...moves[e.key]);
    else if (e.key === '+' || e.key === '=') map.zoom(1 / 1.5);
    else if (e.key === '-' || e.key === '_') map.zoom(1.5);
    else if (e.key === '0') map.show(map.home);
    else return;
    e.preventDefault();
  });
}
