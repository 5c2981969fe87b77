// Geometry helpers shared by the binary writers: a feature's polygons as
// plain rings, its bbox, and its WKB (GeoPackage). Only Polygon and
// MultiPolygon reach here (the measurer refuses other types). A level is
// written with z when any of its positions has a third number (a position
// without one then gets z = 0, as GDAL reads such GeoJSON); numbers after
// the third are dropped, as GDAL drops them.
import type { GeoFeature } from '../geojson/level-features.ts';

export type Ring = number[][]; // [[x, y], …] or [[x, y, z], …], closed as in GeoJSON
export type Polygon = Ring[]; // outer ring, then holes

export interface Shape {
  multi: boolean; // a MultiPolygon (kept as one even with a single polygon)
  polygons: Polygon[];
}

/** How every feature of a level is written: what the file declares once for all of them. */
export interface Layout {
  multi: boolean; // every feature as a MultiPolygon (a level holding any), e.g. a Polygon as one of one
  z: boolean; // every position with z
}

/** Returns the z of a position: its third number, 0 when it has none. */
export const zOf = (p: number[]): number => (p.length > 2 ? p[2] : 0);

/** Returns the JSON pointer (within the geometry's coordinates) of the first position with a third number, e.g. "/0/3". */
export function firstZ(shape: Shape): string | undefined {
  for (let m = 0; m < shape.polygons.length; m++) {
    const polygon = shape.polygons[m];
    for (let r = 0; r < polygon.length; r++) {
      const k = polygon[r].findIndex((p) => p.length > 2);
      if (k >= 0) return `${shape.multi ? `/${m}` : ''}/${r}/${k}`;
    }
  }
  return undefined;
}

/** Returns the polygons of a feature's geometry; a UserError-worthy message for anything else. */
export function shapeOf(feature: GeoFeature): Shape {
  const geometry = feature.geometry;
  if (geometry?.type === 'Polygon') return { multi: false, polygons: [geometry.coordinates as Polygon] };
  if (geometry?.type === 'MultiPolygon') return { multi: true, polygons: geometry.coordinates as Polygon[] };
  throw new Error(`geometry ${geometry ? geometry.type : 'null'} is not a Polygon or MultiPolygon`);
}

/** Returns [minX, minY, maxX, maxY] of a shape. */
export function shapeBbox(shape: Shape): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const polygon of shape.polygons) {
    for (const ring of polygon) {
      for (const p of ring) {
        const x = p[0];
        const y = p[1];
        if (x < minX) minX = x;
        if (x > maxX) maxX = x;
        if (y < minY) minY = y;
        if (y > maxY) maxY = y;
      }
    }
  }
  return [minX, minY, maxX, maxY];
}

/** Returns the number of positions in a shape. */
function shapePoints(shape: Shape): number {
  let n = 0;
  for (const polygon of shape.polygons) for (const ring of polygon) n += ring.length;
  return n;
}

/** Returns twice the signed area of a ring (positive when counter-clockwise). */
export function ringArea2(ring: Ring): number {
  let sum = 0;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    sum += (ring[j][0] - ring[i][0]) * (ring[j][1] + ring[i][1]);
  }
  return sum;
}

/** Returns the size in bytes of a shape's WKB as `layout` writes it. */
export function wkbSize(shape: Shape, layout: Layout): number {
  let rings = 0;
  for (const polygon of shape.polygons) rings += polygon.length;
  const headers = shape.multi || layout.multi ? 9 + shape.polygons.length * 9 : 9;
  return headers + rings * 4 + shapePoints(shape) * (layout.z ? 24 : 16);
}

/**
 * Writes the shape as little-endian ISO WKB: Polygon (3) or MultiPolygon
 * (6), 1003 and 1006 with z, into `buffer` from `at` (wkbSize bytes);
 * returns the end.
 */
export function writeWkb(shape: Shape, layout: Layout, buffer: Buffer, at: number): number {
  let o = at;
  const z = layout.z;
  const dims = z ? 3 : 2;
  const header = (type: number, count: number) => {
    buffer.writeUInt8(1, o);
    buffer.writeUInt32LE(z ? type + 1000 : type, o + 1);
    buffer.writeUInt32LE(count, o + 5);
    o += 9;
  };
  const polygon = (rings: Polygon) => {
    header(3, rings.length);
    for (const ring of rings) {
      buffer.writeUInt32LE(ring.length, o);
      o += 4;
      if (!LITTLE_ENDIAN) {
        for (const p of ring) {
          for (let d = 0; d < dims; d++) buffer.writeDoubleLE(d < 2 ? p[d] : zOf(p), o + d * 8);
          o += dims * 8;
        }
        continue;
      }
      // The ring's doubles into an aligned array, then one copy: a WKB double sits at any offset.
      const n = ring.length * dims;
      if (n > wkbDoubles.length) {
        wkbDoubles = new Float64Array(Math.max(n, wkbDoubles.length * 2));
        wkbBytes = new Uint8Array(wkbDoubles.buffer);
      }
      let k = 0;
      for (const p of ring) {
        wkbDoubles[k++] = p[0];
        wkbDoubles[k++] = p[1];
        if (z) wkbDoubles[k++] = zOf(p);
      }
      buffer.set(wkbBytes.subarray(0, n * 8), o);
      o += n * 8;
    }
  };
  if (shape.multi || layout.multi) {
    header(6, shape.polygons.length);
    for (const p of shape.polygons) polygon(p);
  } else polygon(shape.polygons[0]);
  return o;
}

/** Whether this machine stores doubles little-endian, as WKB (here) wants them: then they are copied as they lie. */
const LITTLE_ENDIAN = new Uint8Array(new Float64Array([1]).buffer)[7] === 0x3f;
/** Reused between rings by writeWkb. */
let wkbDoubles = new Float64Array(1 << 12);
let wkbBytes = new Uint8Array(wkbDoubles.buffer);
