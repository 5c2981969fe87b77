// A feature's geometry as the checks read it: positions as x, y doubles plus
// where each ring and polygon ends, filled by the GeoJSON reader through a
// PositionSink (build/geometry/feature-sink.ts). No nested arrays: building
// them cost more than the validity checks themselves.

/** A Polygon or MultiPolygon, flat. Arrays are reused from feature to feature: copy what you keep. */
export interface FlatGeometry {
  type: string; // e.g. "MultiPolygon"
  multi: boolean; // coordinates nested 4 deep (else 3)
  xy: Float64Array; // positions [x0, y0, x1, y1, …] (a third number is dropped)
  positions: number;
  ringEnds: Int32Array; // ring r holds positions [ringEnds[r-1] ?? 0, ringEnds[r])
  rings: number;
  polygonEnds: Int32Array; // polygon p holds rings [polygonEnds[p-1] ?? 0, polygonEnds[p])
  polygons: number;
}
