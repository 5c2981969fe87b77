// Writes a level as one GeoJSON FeatureCollection (RFC 7946), streaming: each
// feature as its source had it (id, properties as the caller gives them,
// geometry's doubles printed as JavaScript prints them, which read back the
// same), one per line, through a 1 MiB buffer into a temporary file renamed
// into place. The Earth's CRS84 is GeoJSON's own and goes undeclared; another
// body's CRS is named by a "crs" member (GeoJSON 2008), which GDAL and QGIS read.
import { open, rename, rm, type FileHandle } from 'node:fs/promises';
import { tempPathBeside } from '../core/atomic-write.ts';
import type { CrsDefinition } from '../core/shared/crs.ts';
import { BufferedFile } from './buffered-file.ts';
import type { FeatureSink } from './source-scan.ts';

/** Returns the "crs" member a non-Earth CRS needs, e.g. `"crs":{…"urn:ogc:def:crs:IAU_2015::49900"…},`; "" for the Earth's. */
function crsMember(crs: CrsDefinition): string {
  if (crs.body === 'earth') return '';
  const name = `urn:ogc:def:crs:${crs.authority}::${crs.code}`;
  return `"crs":${JSON.stringify({ type: 'name', properties: { name } })},\n`;
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
      const { type, id, properties, geometry, ...rest } = feature as typeof feature & Record<string, unknown>;
      // The members in GeoJSON's usual order; foreign members (e.g. a feature's bbox) kept after them.
      const text = JSON.stringify({
        type,
        ...(id === undefined ? {} : { id }),
        properties,
        geometry,
        ...rest,
      });
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
