// Frames a country map on its main mass, so far-flung islands do not shrink
// the main territory (Chile's Easter Island, France's overseas regions, the
// Chatham Islands of New Zealand); the rest stays drawn outside the frame,
// reachable by zooming out.

/** A polygon's box in projected units: x = longitude × cos(mid-latitude), y = latitude. */
export interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  area: number; // of the outer ring, same units squared
}

/** Two polygons belong together when the gap between their boxes is at most this × the larger one's size. */
const LINK = 0.3;
/** The main mass frames the map only when it holds at least this share of the total area (else: archipelagos). */
const MAIN_SHARE = 0.5;

const size = (b: Box) => Math.max(b.x1 - b.x0, b.y1 - b.y0);

function gap(a: Box, b: Box): number {
  const dx = Math.max(0, a.x0 - b.x1, b.x0 - a.x1);
  const dy = Math.max(0, a.y0 - b.y1, b.y0 - a.y1);
  return Math.hypot(dx, dy);
}

/**
 * Returns the box to frame: the cluster of polygons with the largest total
 * area, where polygons link when close relative to their size (the mainland
 * and its coastal islands), when it holds at least half the area; else the
 * box of everything. Sweeps by x, so near-linear for a country's polygons.
 */
export function mainFrame(boxes: Box[]): Omit<Box, 'area'> {
  const all = {
    x0: Math.min(...boxes.map((b) => b.x0)),
    y0: Math.min(...boxes.map((b) => b.y0)),
    x1: Math.max(...boxes.map((b) => b.x1)),
    y1: Math.max(...boxes.map((b) => b.y1)),
  };
  if (boxes.length < 2) return all;
  const parent = boxes.map((_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]];
    return i;
  };
  const order = boxes.map((_, i) => i).sort((a, b) => boxes[a].x0 - boxes[b].x0);
  const reach = LINK * Math.max(...boxes.map(size));
  for (let i = 0; i < order.length; i++) {
    const a = boxes[order[i]];
    for (let j = i + 1; j < order.length; j++) {
      const b = boxes[order[j]];
      if (b.x0 - a.x1 > reach) break; // sorted by x0: nothing further can link
      if (gap(a, b) <= LINK * Math.max(size(a), size(b))) parent[find(order[i])] = find(order[j]);
    }
  }
  const areas = new Map<number, number>();
  let total = 0;
  boxes.forEach((b, i) => {
    areas.set(find(i), (areas.get(find(i)) ?? 0) + b.area);
    total += b.area;
  });
  const [root, area] = [...areas].sort((a, b) => b[1] - a[1])[0];
  if (total <= 0 || area / total < MAIN_SHARE) return all;
  const members = boxes.filter((_, i) => find(i) === root);
  return {
    x0: Math.min(...members.map((b) => b.x0)),
    y0: Math.min(...members.map((b) => b.y0)),
    x1: Math.max(...members.map((b) => b.x1)),
    y1: Math.max(...members.map((b) => b.y1)),
  };
}
