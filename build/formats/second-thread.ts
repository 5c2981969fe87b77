// The half of a conversion that runs on a second thread for large levels:
// FlatGeobuf and TopoJSON, fed by their own parse of each feature, while
// the main thread writes GeoPackage and Shapefile (formats.ts).
import { UserError } from '../core/errors.ts';
import type { CrsDefinition } from '../core/shared/crs.ts';
import { openFlatGeobuf } from './flatgeobuf.ts';
import { pump, type FeatureSink, type SourceScan } from './source-scan.ts';
import { openTopoJson, type TopoJsonResult } from './topojson.ts';

export interface SecondHalf {
  topojson?: TopoJsonResult;
  skipped?: string; // why TopoJSON was not written, e.g. the level is over its size limit
}

/** Writes the FlatGeobuf (in `crs`) and (unless refused) the TopoJSON of `source` to the paths given. */
export async function writeSecondHalf(
  source: string,
  scan: SourceScan,
  layer: string,
  paths: { fgb: string; topojson: string },
  crs: CrsDefinition,
): Promise<SecondHalf> {
  const sinks: FeatureSink[] = [await openFlatGeobuf(paths.fgb, layer, scan, crs)];
  let skipped: string | undefined;
  try {
    sinks.push(await openTopoJson(source, paths.topojson, layer, scan));
  } catch (error) {
    if (!(error instanceof UserError)) {
      await sinks[0].abort();
      throw error;
    }
    skipped = error.message;
  }
  const results = await pump(source, scan, sinks);
  return { topojson: results[1] as TopoJsonResult | undefined, skipped };
}
