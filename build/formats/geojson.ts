// Writes a level as one GeoJSON FeatureCollection (RFC 7946), streaming: each
// feature as its source had it (id, properties as the caller gives them,
// the geometry's doubles printed as JavaScript prints them, -0 too, so they
// read back bit for bit), one per line, through a 1 MiB buffer into a temporary file renamed
// into place. The Earth's CRS84 is GeoJSON's own and goes undeclared; another
// body's CRS is named by a "crs" member (GeoJSON 2008), which GDAL and QGIS read.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { tempPathBeside } from '../core/atomic-write.ts';
import type { CrsDefinition } from '../core/shared/crs.ts';
import { BufferedFile } from './buffered-file.ts';
import type { GeoFeature } from '../geojson/level-features.ts';
import type { FeatureSink } from './source-scan.ts';

/** Returns the "crs" member a non-Earth CRS needs, e.g. `"crs":{…"urn:ogc:def:crs:IAU_2015::49900"…},`; "" for the Earth's. */
function crsMember(crs: CrsDefinition): string {
  if (crs.body === 'earth') return '';
  const name = `urn:ogc:def:crs:${crs.authority}::${crs.code}`;
  return `"crs":${JSON.stringify({ type: 'name', properties: { name } })},\n`;
}

/** Returns a number as JSON, but -0 as "-0" (JSON.stringify prints "0"): the source's double, bit for bit. */
function numberText(n: number): string {
  return Object.is(n, -0) ? '-0' : JSON.stringify(n);
}

/** Returns a geometry's coordinates (nested arrays of numbers) as JSON, each number by numberText. */
function coordinatesText(value: unknown): string {
  if (typeof value === 'number') return numberText(value);
  if (Array.isArray(value)) return `[${value.map(coordinatesText).join(',')}]`;
  return JSON.stringify(value) ?? 'null';
}

/**
 * Returns a feature as one line of JSON: its members in GeoJSON's usual
 * order, foreign members (e.g. a feature's bbox) after them, and the
 * geometry's coordinates by coordinatesText.
 */
function featureText(feature: GeoFeature): string {
  const { type, id, properties, geometry, ...rest } = feature as GeoFeature & Record<string, unknown>;
  const head = JSON.stringify({ type, ...(id === undefined ? {} : { id }), properties }).slice(0, -1);
  const tail = Object.keys(rest).length > 0 ? `,${JSON.stringify(rest).slice(1, -1)}` : '';
  if (geometry === null || geometry === undefined) return `${head},"geometry":null${tail}}`;
  const { coordinates, ...members } = geometry;
  const shape = JSON.stringify(members).slice(0, -1); // e.g. {"type":"Polygon"
  return `${head},"geometry":${shape},"coordinates":${coordinatesText(coordinates)}}${tail}}`;
}

/**
 * Opens a GeoJSON file being written beside `out`, named `name` (e.g.
 * "earth_ADM1", GDAL's layer name) in `crs`; add() appends the features in
 * order, finish() closes the collection and renames the file into place.
 */
export async function openGeoJson(out: string, name: string, crs: CrsDefinition): Promise<FeatureSink<void>> {
  const temp = tempPathBeside(out);
  let file: FileHandle | undefined = await open(temp, 'w');
  const writer = new BufferedFile(file, 0);
  const head = `{"type":"FeatureCollection","name":${JSON.stringify(name)},\n${crsMember(crs)}"features":[\n`;
  await writer.write(Buffer.from(head));
  let first = true;
  const abort = async () => {
    await file?.close().catch(() => {});
    file = undefined;
    await rm(temp, { force: true });
  };
  return {
    async add(feature) {
      const text = featureText(feature);
      await writer.write(Buffer.from(first ? text : `,\n${text}`));
      first = false;
    },
    async finish() {
      try {
        await writer.write(Buffer.from('\n]}\n'));
        await writer.flush();
        await file!.close();
        file = undefined;
        await rename(temp, out);
      } catch (error) {
        await abort();
        throw error;
      }
    },
    abort,
  };
}
