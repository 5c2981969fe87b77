// Hilbert order of boxes, as FlatGeobuf's packed R-tree expects (the
// reference writer sorts by the Hilbert value of each box centre on a
// 65,535-step grid over the extent, highest first).

import { hilbert } from '../core/hilbert.ts';

const HILBERT_MAX = (1 << 16) - 1;

/**
 * Returns the indexes of `boxes` (4 numbers each: minX, minY, maxX, maxY)
 * sorted by the Hilbert value of their centres within `extent`, highest
 * first; ties keep their source order.
 */
export function hilbertOrder(boxes: Float64Array, extent: [number, number, number, number]): Uint32Array {
  const count = boxes.length / 4;
  const [minX, minY, maxX, maxY] = extent;
  const width = maxX - minX;
  const height = maxY - minY;
  const values = new Float64Array(count);
  for (let i = 0; i < count; i++) {
    const cx = (boxes[i * 4] + boxes[i * 4 + 2]) / 2;
    const cy = (boxes[i * 4 + 1] + boxes[i * 4 + 3]) / 2;
    const x = width === 0 ? 0 : Math.floor((HILBERT_MAX * (cx - minX)) / width);
    const y = height === 0 ? 0 : Math.floor((HILBERT_MAX * (cy - minY)) / height);
    values[i] = hilbert(x, y);
  }
  const order = Uint32Array.from({ length: count }, (_, i) => i);
  return order.sort((a, b) => values[b] - values[a] || a - b);
}
