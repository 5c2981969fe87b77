// Makes a dataset's preview: the least simplified rendering whose file fits a
// byte budget, found by bisection over thresholds that are computed once per
// input (build/preview/simplify.ts), never by re-running the simplification per try.
import { UserError } from '../core/errors.ts';
import { problem } from '../core/problem.ts';
import type { Dataset, Simplification } from '../core/shared/manifest.ts';
import { eachLevelFeature } from '../geojson/level-features.ts';
import { CoverageArcsBuilder } from '../simplify/arcs.ts';
import {
  checkPolygonal,
  decimalsFor,
  outlineOf,
  render,
  weigh,
  type Method,
  type Outline,
  type Prepared,
  type Rendering,
} from './simplify.ts';

/**
 * Properties a preview keeps: those that name or identify a feature and its
 * parent (geoBoundaries' shapeName/shapeISO/shapeType/parentISO, the split's
 * adm1ISO, and common plain names). Everything else is dropped to save bytes.
 */
export const PREVIEW_PROPERTIES = new Set([
  'shapeName',
  'shapeISO',
  'shapeType',
  'parentISO',
  'adm1ISO',
  'name',
  'name_en',
  'NAME',
  'code',
  'iso_3166_2',
]);

export interface PreviewOptions {
  maxBytes: number; // e.g. 2097152
  method: Method;
}

export interface PreviewResult {
  text: string;
  bytes: number;
  simplification: Simplification;
  decimals: number; // e.g. 4
  threshold: number; // the exact weight threshold used, in metres (-1: none, every vertex kept)
  passes: number; // renderings tried, the final one included
  vertices: number; // shared-arc vertices kept (a border shared by two features counts once)
  inputVertices: number; // shared-arc vertices before simplification
}

/**
 * Returns the preview of the GeoJSON files `paths` (relative to `root`; a
 * level published as parts has several): every feature kept, in order, with
 * its identifying properties; the least simplification whose text fits
 * `options.maxBytes`; coordinates rounded to match the tolerance. Throws a
 * UserError when a file is unreadable or not a FeatureCollection, or when even
 * the most simplified rendering (three vertices per ring) does not fit.
 */
export async function makePreview(
  root: string,
  paths: string[],
  options: PreviewOptions,
  perDegree: number, // metres per degree on the manifest's body (METRES_PER_DEGREE): what tolerances are in
): Promise<PreviewResult> {
  // One feature at a time: its rings go into the arc builder and only its properties are kept, so
  // the level's parsed tree is never held (a 1 GiB level took 6 GB parsed whole: bench:large-level).
  const source = paths.join(', ');
  const builder = new CoverageArcsBuilder(16, false);
  builder.level();
  let i = 0;
  for (const path of paths) {
    await eachLevelFeature(root, path, (feature) => {
      checkPolygonal(source, feature, i++);
      builder.add(feature);
    });
  }
  const shape = outlineOf(builder.finish(), (key) => PREVIEW_PROPERTIES.has(key));
  // A level that may fit whole is tried whole first: that needs no weights.
  let whole: Rendering | undefined;
  if (wholeBytesEstimate(shape) <= options.maxBytes * 1.5) {
    whole = render(shape, -1, decimalsFor(0, perDegree));
    if (whole.bytes <= options.maxBytes) {
      const vertices = shape.arcs.x.length;
      const none = { method: 'none', tolerance_m: 0 } as const;
      const { text, bytes } = whole;
      return {
        text,
        bytes,
        simplification: none,
        decimals: decimalsFor(0, perDegree),
        threshold: -1,
        passes: 1,
        vertices,
        inputVertices: vertices,
      };
    }
  }
  return fitBudget(source, weigh(shape, options.method, perDegree), options, whole);
}

/** Returns about how many bytes the level takes written whole: its heads, and 24 bytes a position (6 decimals). */
function wholeBytesEstimate({ features, coverage }: Outline): number {
  let bytes = 0;
  for (const feature of features) bytes += feature.head.length + 60;
  const { arcStart, ringArcs } = coverage;
  for (const ref of ringArcs) {
    const a = ref < 0 ? ~ref : ref;
    bytes += 24 * (arcStart[a + 1] - arcStart[a] - 1);
  }
  return bytes;
}

/**
 * Returns the rendering for the smallest candidate index k whose text fits:
 * k = 0 keeps every vertex (method "none"), k ≥ 1 drops vertices weighing at
 * most thresholds[k-1]. The bracket [fails, fits] narrows by interpolating
 * bytes against the number of kept vertices (bytes are close to linear in
 * it), falling back to halving the kept-vertex range when a side repeats,
 * until fails + 1 = fits. `whole`: the level rendered whole, when the caller
 * has tried it already and it did not fit.
 */
export function fitBudget(
  source: string,
  prepared: Prepared,
  options: PreviewOptions,
  whole?: Rendering,
): PreviewResult {
  const { thresholds, keptAbove, fixedVertices, perDegree } = prepared;
  const last = thresholds.length; // the most simplified candidate
  let passes = whole ? 1 : 0;
  const tries = new Map<number, Rendering>();
  const attempt = (k: number): Rendering => {
    passes++;
    const threshold = k === 0 ? -1 : thresholds[k - 1]!;
    const rendering = render(prepared, threshold, decimalsFor(k === 0 ? 0 : threshold, perDegree));
    tries.set(k, rendering);
    return rendering;
  };
  const kept = (k: number) => keptAbove[k]! + fixedVertices;

  const smallest = attempt(last);
  if (smallest.bytes > options.maxBytes) {
    throw new UserError(
      problem(
        source,
        `cannot fit ${options.maxBytes} bytes: even keeping 3 vertices per ring the preview is ${smallest.bytes} bytes (try a larger --max-bytes)`,
      ),
    );
  }
  let fits = last;
  let fails = -1; // index known (or assumed, for -1) not to fit
  // Model for the unknown side: about 2 × (decimals + 5) bytes per extra vertex.
  let failsBytes = smallest.bytes + (kept(0) - kept(last)) * 2 * (decimalsFor(0, perDegree) + 5);
  if (whole && last > 0) {
    tries.set(0, whole);
    [fails, failsBytes] = [0, whole.bytes];
  } else if (last > 0 && failsBytes <= options.maxBytes * 1.5) {
    const rendering = attempt(0);
    if (rendering.bytes <= options.maxBytes) fits = 0;
    else [fails, failsBytes] = [0, rendering.bytes];
  }
  let lastSide = 0; // +1 when the last try fitted, -1 when it did not
  let halve = false; // after two tries on the same side, halve once (Illinois-style)
  while (fits - fails > 1) {
    let k: number;
    if (halve) {
      // Halve the kept-vertex range; with k = 0 never tried, at most double the vertices (renders stay small).
      const hi = fails < 0 ? Math.min(kept(0), 2 * kept(fits)) : kept(fails);
      k = indexKeeping(keptAbove, (kept(fits) + hi) / 2 - fixedVertices);
    } else {
      const fitsBytes = tries.get(fits)!.bytes;
      const lo = kept(fits);
      const hi = kept(Math.max(fails, 0));
      const target = lo + ((hi - lo) * (options.maxBytes - fitsBytes)) / Math.max(1, failsBytes - fitsBytes);
      k = indexKeeping(keptAbove, target - fixedVertices);
    }
    k = Math.min(fits - 1, Math.max(fails + 1, k));
    const rendering = attempt(k);
    const sideNow = rendering.bytes <= options.maxBytes ? 1 : -1;
    if (sideNow > 0) fits = k;
    else [fails, failsBytes] = [k, rendering.bytes];
    halve = sideNow === lastSide && !halve;
    lastSide = sideNow;
  }

  const best = tries.get(fits)!;
  const threshold = fits === 0 ? 0 : thresholds[fits - 1]!;
  return {
    text: best.text,
    bytes: best.bytes,
    simplification:
      fits === 0
        ? { method: 'none', tolerance_m: 0 }
        : { method: prepared.method, tolerance_m: Math.round(threshold) },
    decimals: decimalsFor(threshold, perDegree),
    threshold: fits === 0 ? -1 : threshold,
    passes,
    vertices: kept(fits),
    inputVertices: kept(0),
  };
}

/** Returns the smallest k whose keptAbove[k] is at most `count` (keptAbove decreases with k). */
function indexKeeping(keptAbove: Int32Array, count: number): number {
  let lo = 0;
  let hi = keptAbove.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (keptAbove[mid]! <= count) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Returns the preview path of a dataset, e.g. "data/earth/CHL/preview/CHL_ADM1.preview.geojson". */
export function previewPath(folder: string, iso3: string, dataset: Dataset): string {
  return `${folder}preview/${iso3}_${dataset.level}.preview.geojson`;
}

/** Returns the GeoJSON files a dataset's preview is made from: its `path`, else all its parts. */
export function previewInputs(dataset: Dataset): string[] {
  if (dataset.path) return [dataset.path];
  return (dataset.parts ?? []).map((part) => part.path);
}
