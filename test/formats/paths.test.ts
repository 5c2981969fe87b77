// The writers' two paths: small levels built in memory, large ones streamed
// through temporary files (IN_MEMORY_BELOW_BYTES). Both must give the same bytes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, expect, test } from 'vitest';
import { writeFlatGeobuf } from '../../build/formats/flatgeobuf.ts';
import { writeShapefile } from '../../build/formats/shapefile.ts';
import { EPSG_4326 } from '../../build/core/shared/crs.ts';

const REPO = new URL('../../', import.meta.url).pathname;
const SOURCE = join(REPO, 'data/earth/CHL/CHL_ADM1.geojson');
const dir = mkdtempSync('/tmp/geoshelf-paths-');
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('Shapefile in memory and through files → the same .shp, .shx, .dbf, .prj, .cpg bytes', async () => {
  const memory = join(dir, 'memory.shp.zip');
  const files = join(dir, 'files.shp.zip');
  await writeShapefile(SOURCE, memory, 'CHL_ADM1', EPSG_4326, undefined, Infinity);
  await writeShapefile(SOURCE, files, 'CHL_ADM1', EPSG_4326, undefined, 0);
  for (const ext of ['shp', 'shx', 'dbf', 'prj', 'cpg']) {
    const read = (zip: string) =>
      execFileSync('unzip', ['-p', zip, `CHL_ADM1.${ext}`], { maxBuffer: 1 << 28 });
    expect(read(memory).equals(read(files)), ext).toBe(true);
  }
});

test('FlatGeobuf in memory and through files → the same bytes', async () => {
  await writeFlatGeobuf(SOURCE, join(dir, 'memory.fgb'), 'CHL_ADM1', EPSG_4326, undefined, Infinity);
  await writeFlatGeobuf(SOURCE, join(dir, 'files.fgb'), 'CHL_ADM1', EPSG_4326, undefined, 0);
  expect(readFileSync(join(dir, 'memory.fgb')).equals(readFileSync(join(dir, 'files.fgb')))).toBe(true);
});
