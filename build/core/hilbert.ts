// The position of a cell along a Hilbert curve over a 2^16 × 2^16 grid: the order
// of FlatGeobuf's packed R-tree (build/formats/hilbert.ts) and of the geometry
// checks' segment index (build/geometry/box-tree.ts).

/**
 * Returns the position of cell (x, y) along a Hilbert curve filling the
 * 2^16 × 2^16 grid, without a loop over its 16 levels (the prefix-scan
 * method of "Fast Hilbert curve generation", rawrunprotected.org; the same
 * positions as the textbook loop).
 */
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
  const i0 = x ^ y;
  const i1 = b | (0xffff ^ (i0 | a));
  return ((spread(i1) << 1) | spread(i0)) >>> 0;
}

/** Returns the 16 bits of x spread to the even bits of 32. */
function spread(x: number): number {
  x = (x | (x << 8)) & 0x00ff00ff;
  x = (x | (x << 4)) & 0x0f0f0f0f;
  x = (x | (x << 2)) & 0x33333333;
  return (x | (x << 1)) & 0x55555555;
}
