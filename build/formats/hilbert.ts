// Hilbert order of boxes, as FlatGeobuf's packed R-tree expects (the
// reference writer sorts by the Hilbert value of each box centre on a
// 65,535-step grid over the extent, highest first).

const HILBERT_MAX = (1 << 16) - 1;

/** Returns the Hilbert index of (x, y) on a 16-bit grid (Rawrunprotection's branch-free algorithm). */
export function hilbert(x: number, y: number): number {
  let a = x ^ y;
  let b = 0xffff ^ a;
  let c = 0xffff ^ (x | y);
  let d = x & (y ^ 0xffff);
  let A = a | (b >> 1);
  let B = (a >> 1) ^ a;
  let C = (c >> 1) ^ (b & (d >> 1)) ^ c;
  let D = (a & (c >> 1)) ^ (d >> 1) ^ d;
  a = A;
  b = B;
  c = C;
  d = D;
  A = (a & (a >> 2)) ^ (b & (b >> 2));
  B = (a & (b >> 2)) ^ (b & ((a ^ b) >> 2));
  C ^= (a & (c >> 2)) ^ (b & (d >> 2));
  D ^= (b & (c >> 2)) ^ ((a ^ b) & (d >> 2));
  a = A;
  b = B;
  c = C;
  d = D;
  A = (a & (a >> 4)) ^ (b & (b >> 4));
  B = (a & (b >> 4)) ^ (b & ((a ^ b) >> 4));
  C ^= (a & (c >> 4)) ^ (b & (d >> 4));
  D ^= (b & (c >> 4)) ^ ((a ^ b) & (d >> 4));
  a = A;
  b = B;
  c = C;
  d = D;
  C ^= (a & (c >> 8)) ^ (b & (d >> 8));
  D ^= (b & (c >> 8)) ^ ((a ^ b) & (d >> 8));
  a = C ^ (C >> 1);
  b = D ^ (D >> 1);
  let i0 = x ^ y;
  let i1 = b | (0xffff ^ (i0 | a));
  i0 = (i0 | (i0 << 8)) & 0x00ff00ff;
  i0 = (i0 | (i0 << 4)) & 0x0f0f0f0f;
  i0 = (i0 | (i0 << 2)) & 0x33333333;
  i0 = (i0 | (i0 << 1)) & 0x55555555;
  i1 = (i1 | (i1 << 8)) & 0x00ff00ff;
  i1 = (i1 | (i1 << 4)) & 0x0f0f0f0f;
  i1 = (i1 | (i1 << 2)) & 0x33333333;
  i1 = (i1 | (i1 << 1)) & 0x55555555;
  return ((i1 << 1) | i0) >>> 0;
}

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
