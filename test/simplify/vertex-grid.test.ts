import { describe, expect, it } from 'vitest';
import { VertexGrid } from '../../build/simplify/vertex-grid.ts';
import { seededRandom } from '../support/random.ts';

describe('VertexGrid', () => {
  it('finds exactly the vertices in a box, each once, for small boxes and for boxes of many cells (the R-tree)', () => {
    const random = seededRandom(29);
    const n = 5000;
    const x = new Float64Array(n);
    const y = new Float64Array(n);
    for (let i = 0; i < n; i++) {
      // Clustered like borders, with repeats (nodes) and negative coordinates.
      x[i] = i % 7 === 0 ? x[i - 1] || 0 : -20 + 40 * random() ** 2;
      y[i] = i % 7 === 0 ? y[i - 1] || 0 : -10 + 20 * random();
    }
    const grid = new VertexGrid(x, y, 0.05);
    for (let q = 0; q < 300; q++) {
      const w = q % 3 === 0 ? 30 * random() : 0.3 * random(); // a third span far more than 64 cells
      const x0 = -20 + 40 * random();
      const y0 = -10 + 20 * random();
      const [x1, y1] = [x0 + w, y0 + w * random()];
      const count = grid.query(x0, y0, x1, y1);
      const got = [...grid.found.subarray(0, count)].sort((a, b) => a - b);
      const want: number[] = [];
      for (let i = 0; i < n; i++) if (x[i] >= x0 && x[i] <= x1 && y[i] >= y0 && y[i] <= y1) want.push(i);
      expect(got).toEqual(want);
    }
  });
});
