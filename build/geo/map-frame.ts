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

/** A polygon joins the main mass when its gap to the mass's box is at most this × the box's size. */
const LINK = 0.3;
/** A polygon of at least this share of the largest one's area belongs to the main mass wherever it is. */
const LARGE = 0.2;
/** The main mass frames the map only when it holds at least this share of the total area (else: archipelagos). */
const MAIN_SHARE = 0.5;

type Frame = Omit<Box, 'area'>;

const size = (b: Frame) => Math.max(b.x1 - b.x0, b.y1 - b.y0);

function gap(a: Frame, b: Frame): number {
  const dx = Math.max(0, a.x0 - b.x1, b.x0 - a.x1);
  const dy = Math.max(0, a.y0 - b.y1, b.y0 - a.y1);
  return Math.hypot(dx, dy);
}

function union(a: Frame, b: Frame): Frame {
  return {
    x0: Math.min(a.x0, b.x0),
    y0: Math.min(a.y0, b.y0),
    x1: Math.max(a.x1, b.x1),
    y1: Math.max(a.y1, b.y1),
  };
}

/**
 * Returns the box to frame: the main mass grown from the largest polygon by
 * every polygon close to it relative to its size (Chile's mainland takes in
 * the Juan Fernández Islands, 670 km off a 4,300 km coast, but not Easter
 * Island, 3,700 km away) and every polygon of at least a fifth of the
 * largest one's area, when it holds at least half the area; else the
 * box of everything (an archipelago has no main mass).
 */
export function mainFrame(boxes: Box[]): Frame {
  const all = boxes.reduce<Frame>((f, b) => union(f, b), {
    x0: Infinity,
    y0: Infinity,
    x1: -Infinity,
    y1: -Infinity,
  });
  if (boxes.length < 2) return all;
  const total = boxes.reduce((n, b) => n + b.area, 0);
  const seed = boxes.reduce((best, b) => (b.area > best.area ? b : best));
  let frame: Frame = seed;
  let area = 0;
  let rest = boxes;
  for (let grew = true; grew;) {
    grew = false;
    const far: Box[] = [];
    for (const b of rest) {
      if (gap(frame, b) <= LINK * size(frame) || b.area >= LARGE * seed.area) {
        frame = union(frame, b);
        area += b.area;
        grew = true;
      } else far.push(b);
    }
    rest = far;
  }
  return total > 0 && area / total >= MAIN_SHARE ? frame : all;
}

/**
 * Returns the plain span of `lons` and the span with western longitudes moved
 * east by 360°; `crosses` when the moved one is narrower and the plain one
 * wider than 180° (a shape across the antimeridian, e.g. Fiji: -180…180 → 177…182).
 * The one rule for the API's display bbox and the map's framing.
 */
export function longitudeSpan(lons: number[]) {
  let [west, east, shiftedWest, shiftedEast] = [Infinity, -Infinity, Infinity, -Infinity];
  for (const lon of lons) {
    const shifted = lon < 0 ? lon + 360 : lon;
    west = Math.min(west, lon);
    east = Math.max(east, lon);
    shiftedWest = Math.min(shiftedWest, shifted);
    shiftedEast = Math.max(shiftedEast, shifted);
  }
  const crosses = east - west > 180 && shiftedEast - shiftedWest < east - west;
  return { west, east, shiftedWest, shiftedEast, crosses };
}
