// Checks geometry inside the measurer's pass (build/measure/scanner.ts): the
// scanner already reads every position to its exact double for the bbox, so
// it hands them here as it goes, and each feature's geometry is checked when
// it is complete. One read and one parse of the file serve both.
import type { PositionSink } from '../measure/positions.ts';
import { checkFeature, type FeatureIssue } from './check-file.ts';
import type { FlatGeometry } from './parse-geometry.ts';

/** Keeps one geometry's positions, rings and polygons flat, and the issues of the features checked so far. */
export class GeometrySink implements PositionSink {
  // Doubles from the start (NaN, not 0): a field that starts as a small
  // integer changes the object's hidden class the first time a coordinate is
  // stored, and readPositionRunInto's optimized code, which checks it, was
  // thrown away ~600 times a run (a deoptimization loop).
  x = NaN;
  y = NaN;
  readonly issues: FeatureIssue[] = [];
  private readonly g: FlatGeometry = {
    type: '',
    multi: false,
    xy: new Float64Array(1 << 16),
    positions: 0,
    ringEnds: new Int32Array(1 << 10),
    rings: 0,
    polygonEnds: new Int32Array(1 << 8),
    polygons: 0,
  };

  get xy(): Float64Array {
    return this.g.xy;
  }

  get positions(): number {
    return this.g.positions;
  }

  set positions(n: number) {
    this.g.positions = n;
  }

  reset(): void {
    this.g.positions = 0;
    this.g.rings = 0;
    this.g.polygons = 0;
  }

  reserve(n: number): void {
    const g = this.g;
    const need = 2 * (g.positions + n + 1);
    if (need <= g.xy.length) return;
    const bigger = new Float64Array(Math.max(need, 2 * g.xy.length));
    bigger.set(g.xy.subarray(0, 2 * g.positions));
    g.xy = bigger;
  }

  push(): void {
    const g = this.g;
    this.reserve(1);
    g.xy[2 * g.positions] = this.x;
    g.xy[2 * g.positions + 1] = this.y;
    g.positions++;
  }

  endRing(): void {
    const g = this.g;
    if (g.rings >= g.ringEnds.length) g.ringEnds = growInt(g.ringEnds);
    g.ringEnds[g.rings++] = g.positions;
  }

  endPolygon(): void {
    const g = this.g;
    if (g.polygons >= g.polygonEnds.length) g.polygonEnds = growInt(g.polygonEnds);
    g.polygonEnds[g.polygons++] = g.rings;
  }

  endGeometry(type: string, feature: number, box: Float64Array): void {
    const g = this.g;
    g.type = type;
    g.multi = type === 'MultiPolygon';
    checkFeature(feature, g, this.issues, box);
  }
}

function growInt(a: Int32Array): Int32Array {
  const bigger = new Int32Array(a.length * 2);
  bigger.set(a);
  return bigger;
}
