// Stated limits: TopoJSON is built in memory and refuses a level over its
// size limit with one clear line naming the file (the other formats stream).
import { closeSync, openSync, rmSync, ftruncateSync } from 'node:fs';
import { expect, test } from 'vitest';
import { UserError } from '../../build/core/errors.ts';
import { TOPOJSON_MAX_BYTES, writeTopoJson } from '../../build/formats/topojson.ts';

test('TopoJSON of a level over TOPOJSON_MAX_BYTES → a UserError naming the file and the limit', async () => {
  const path = '/tmp/geoshelf-too-big.geojson';
  const fd = openSync(path, 'w');
  ftruncateSync(fd, TOPOJSON_MAX_BYTES + 1); // sparse: nothing is written to disk
  closeSync(fd);
  try {
    const attempt = writeTopoJson(path, '/tmp/geoshelf-too-big.topojson', 'L');
    await expect(attempt).rejects.toBeInstanceOf(UserError);
    await expect(attempt).rejects.toThrow(
      `${path}: ${TOPOJSON_MAX_BYTES + 1} bytes is over the TopoJSON limit of ${TOPOJSON_MAX_BYTES} bytes (TopoJSON is built in memory)`,
    );
  } finally {
    rmSync(path, { force: true });
  }
});
