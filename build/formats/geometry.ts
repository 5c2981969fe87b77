// Geometry helpers shared by the binary writers: a feature's polygons as
// plain rings, its bbox, and its WKB (GeoPackage). Only Polygon and
// MultiPolygon reach here (the measurer refuses other types); a third
// number in a position (z) is dropped, as every output is 2D.
import type { GeoFeature } from '../core/read-features.ts';

export type Ring = number[][]; // [[x, y], …], closed as in GeoJSON
export type Polygon = Ring[]; // outer ring, then holes

export interface Shape {
  multi: boolean; // a MultiPolygon (kept as one even with a single polygon)
  polygons: Polygon[];
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
export function shapePoints(shape: Shape): number {
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

/** Returns the size in bytes of a shape's WKB. */
export function wkbSize(shape: Shape): number {
  let rings = 0;
  for (const polygon of shape.polygons) rings += polygon.length;
  const headers = shape.multi ? 9 + shape.polygons.length * 9 : 9;
  return headers + rings * 4 + shapePoints(shape) * 16;
}

/**
 * Writes the shape as little-endian WKB (ISO, 2D): Polygon (3) or
 * MultiPolygon (6), into `buffer` from `at` (wkbSize bytes); returns the end.
 */
export function writeWkb(shape: Shape, buffer: Buffer, at: number): number {
  let o = at;
  const header = (type: number, count: number) => {
    buffer.writeUInt8(1, o);
    buffer.writeUInt32LE(type, o + 1);
    buffer.writeUInt32LE(count, o + 5);
    o += 9;
  };
  const polygon = (rings: Polygon) => {
    header(3, rings.length);
    for (const ring of rings) {
      buffer.writeUInt32LE(ring.length, o);
      o += 4;
      for (const p of ring) {
        buffer.writeDoubleLE(p[0], o);
        buffer.writeDoubleLE(p[1], o + 8);
        o += 16;
      }
    }
  };
  if (shape.multi) {
    header(6, shape.polygons.length);
    for (const p of shape.polygons) polygon(p);
  } else polygon(shape.polygons[0]);
  return o;
}
