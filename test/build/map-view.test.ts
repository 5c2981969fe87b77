// The map's view box arithmetic (src/client/view.ts).
import { describe, expect, it } from 'vitest';
import { panBy, zoomAt } from '../../src/client/view.ts';

describe('map view', () => {
  const view = { x: 0, y: 0, w: 600, h: 400 };

  it('zooming in around a point keeps that point at the same place on screen', () => {
    const z = zoomAt(view, 0.5, 150, 100, 10, 2000);
    expect(z).toEqual({ x: 75, y: 50, w: 300, h: 200 });
    // (150, 100) was a quarter across and down; it still is
    expect([(150 - z.x) / z.w, (100 - z.y) / z.h]).toEqual([0.25, 0.25]);
  });

  it('zoom stays within its range, keeping the aspect ratio', () => {
    expect(zoomAt(view, 1e-6, 300, 200, 10, 2000).w).toBe(10);
    const out = zoomAt(view, 1e6, 300, 200, 10, 2000);
    expect(out.w).toBe(2000);
    expect(out.h).toBeCloseTo((2000 * 400) / 600, 9);
  });

  it('panning moves the box by its own units', () => {
    expect(panBy(view, -60, 40)).toEqual({ x: -60, y: 40, w: 600, h: 400 });
  });
});
