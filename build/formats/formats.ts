// Converts one source level (or split part) into every download format, and
// keeps the results in a cache folder keyed by the source's sha256, so a
// rebuild converts only what changed. Returns what the site and API list.
import { createHash } from 'node:crypto';
import { Worker } from 'node:worker_threads';
import { createReadStream, existsSync } from 'node:fs';
import { mkdir, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { UserError } from '../core/errors.ts';
import type { Rule } from '../core/rules.ts';
import { compiledScript } from '../core/compiled.ts';
import type { CrsDefinition } from '../core/shared/crs.ts';
import { hashFileInWorker } from '../measure/hash.ts';
import { openGeoPackage } from './geopackage.ts';
import { openGeoParquet } from './geoparquet.ts';
import { openShapefile, type ShapefileResult } from './shapefile.ts';
import { UNIT_ID_PROPERTY } from '../core/shared/api.ts';
import { pump, scanSource, type SourceScan } from './source-scan.ts';
import { writeSecondHalf, type SecondHalf } from './second-thread.ts';
import type { TopoJsonGrid } from './topojson.ts';

/** From this source size on, TopoJSON is written on a worker thread, beside the other formats. */
export const WORKER_FROM_BYTES = 8 << 20;

/** Runs writeSecondHalf on a worker thread; its errors come back as they were thrown (UserError or not). */
function secondHalfOnWorker(
  source: string,
  scan: SourceScan,
  layer: string,
  paths: { fgb: string; topojson: string },
  crs: CrsDefinition,
): Promise<SecondHalf> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(compiledScript('build/formats/formats-worker.ts'), {
      workerData: { source, scan, layer, paths, crs },
    });
    worker.once(
      'message',
      (reply: { result?: SecondHalf; error?: { message: string; stack?: string; user: boolean } }) => {
        if (reply.result) resolve(reply.result);
        else {
          const error = reply.error!.user
            ? new UserError(reply.error!.message)
            : new Error(reply.error!.message);
          if (!reply.error!.user) error.stack = reply.error!.stack;
          reject(error);
        }
        void worker.terminate();
      },
    );
    worker.once('error', reject);
    // Exiting without a reply (e.g. out of memory) must fail the build, not leave it waiting.
    worker.once('exit', (code) => reject(new Error(`the formats worker thread exited with code ${code}`)));
  });
}

export type FormatName = 'gpkg' | 'fgb' | 'shp' | 'topojson' | 'parquet';

/** File name ending of each format, e.g. "CHL_ADM1" → "CHL_ADM1.shp.zip". */
export const FORMAT_SUFFIX: Record<FormatName, string> = {
  gpkg: '.gpkg',
  fgb: '.fgb',
  shp: '.shp.zip',
  topojson: '.topojson',
  parquet: '.parquet',
};

export const FORMAT_LABEL: Record<FormatName, string> = {
  gpkg: 'GeoPackage',
  fgb: 'FlatGeobuf',
  shp: 'Shapefile (zip)',
  topojson: 'TopoJSON',
  parquet: 'GeoParquet',
};

export interface FormatFile {
  format: FormatName | 'zip' | 'geojson'; // "zip": the whole-country archive; "geojson": a simplified copy
  file: string; // e.g. "CHL_ADM1.gpkg"
  bytes: number;
  sha256: string;
  tolerance_m?: number; // a simplified copy's tolerance, e.g. 1000
}

export interface Conversion {
  layer: string; // e.g. "CHL_ADM1", the layer (table, object) name inside every file
  files: FormatFile[];
  /** Shapefile field names that differ from their property, e.g. {property: "src_shape_id", field: "src_shape_"}. */
  shapefileRenamed: { property: string; field: string }[];
  topojson?: TopoJsonGrid; // absent when not written or not quantised (positions exact)
  skipped: { format: FormatName; reason: string }[]; // e.g. TopoJSON of a level over its size limit
  /** What a written file leaves out of its source, e.g. the z of TopoJSON positions; `pointer` into the source. */
  warnings: { format: FormatName; rule: Rule; pointer: string; message: string }[];
}

/** Returns the sha256 of a file, read as a stream. */
export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/**
 * Writes every format of `source` (a GeoJSON file) into the folder `dir`
 * (created, and replaced when it exists), named `layer` + FORMAT_SUFFIX,
 * each declaring `crs` (the manifest's) as GDAL would. The folder appears
 * whole or not at all: it is built beside and renamed.
 */
export async function convertLevel(
  source: string,
  dir: string,
  layer: string,
  crs: CrsDefinition,
  unitIds?: string[], // each feature's release ID, written as its first property (UNIT_ID_PROPERTY)
): Promise<Conversion> {
  const staging = `${dir}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  try {
    const path = (format: FormatName) => join(staging, layer + FORMAT_SUFFIX[format]);
    const scan = await scanSource(source, {}, unitIds);
    const skipped: Conversion['skipped'] = [];
    // Two halves, each parsing every feature once: FlatGeobuf + TopoJSON (on a second core for
    // large sources) and GeoPackage + Shapefile + GeoParquet here, meanwhile.
    const { size } = await stat(source);
    const paths = { fgb: path('fgb'), topojson: path('topojson') };
    const second =
      size >= WORKER_FROM_BYTES
        ? secondHalfOnWorker(source, scan, layer, paths, crs)
        : writeSecondHalf(source, scan, layer, paths, crs);
    let shp: ShapefileResult;
    try {
      const sinks = [
        openGeoPackage(path('gpkg'), layer, scan, crs),
        await openShapefile(path('shp'), layer, scan, crs),
        await openGeoParquet(path('parquet'), scan, crs),
      ];
      shp = (await pump(source, scan, sinks))[1] as ShapefileResult;
    } finally {
      await second.catch(() => {}); // never leave the worker writing into a folder being removed
    }
    const { topojson, skipped: why } = await second;
    if (why) skipped.push({ format: 'topojson', reason: why });
    const warnings: Conversion['warnings'] = [];
    if (scan.unitIdClash) {
      warnings.push({
        format: 'gpkg',
        rule: 'unit-id-kept',
        pointer: '',
        message: `has a "${UNIT_ID_PROPERTY}" property of its own, kept as it is: ${layer}'s downloads go without the release's unit IDs (the API's units list them)`,
      });
    }
    if (topojson && scan.zAt !== undefined) {
      warnings.push({
        format: 'topojson',
        rule: 'z-dropped',
        pointer: scan.zAt,
        message: `${layer}.topojson is 2D: the z of every position is left out there (GeoPackage, FlatGeobuf, Shapefile and GeoParquet keep it)`,
      });
    }
    const formats = (Object.keys(FORMAT_SUFFIX) as FormatName[]).filter((f) => existsSync(path(f)));
    // Hashed at once: large files on the measurer's hash thread, in parallel with the rest.
    const files: FormatFile[] = await Promise.all(
      formats.map(async (format) => {
        const { size } = await stat(path(format));
        const sha256 =
          size >= WORKER_FROM_BYTES
            ? (await hashFileInWorker(path(format))).sha256
            : await sha256File(path(format));
        return { format, file: layer + FORMAT_SUFFIX[format], bytes: size, sha256 };
      }),
    );
    const conversion: Conversion = {
      layer,
      files,
      shapefileRenamed: shp.renamed,
      ...(topojson && 'quantization' in topojson ? { topojson } : {}),
      skipped,
      warnings,
    };
    await writeFile(join(staging, 'conversion.json'), JSON.stringify(conversion, null, 2) + '\n');
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
    return conversion;
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Returns the cache key of a conversion: the source's sha256 and CRS (the
 * same file under another manifest crs is another conversion), e.g.
 * "8ab2…-IAU_2015-30100", and a hash of the unit IDs written into it, when
 * any (the same file released again with other IDs is another conversion).
 */
export function conversionKey(sourceSha256: string, crs: CrsDefinition, unitIds?: string[]): string {
  const key = `${sourceSha256}-${crs.authority}-${crs.code}`;
  if (!unitIds) return key;
  return `${key}-${createHash('sha256').update(unitIds.join('\n')).digest('hex').slice(0, 16)}`;
}
