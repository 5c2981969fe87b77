// The data of bench:geometry: a level of valid polygons, one feature per line,
// rings of 150-1,500 positions with 6 decimals, a fifth of them MultiPolygons
// of three polygons with holes. Deterministic for a seed.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { seededRandom } from '../test/support/random.ts';
import { starPolygon } from '../test/geometry/generate.ts';

/** Returns feature number i as one line of GeoJSON. */
function featureLine(random: () => number, i: number): string {
  const x = random() * 340 - 170;
  const y = random() * 160 - 80;
  const n = () => 150 + Math.floor(random() * 1351);
  const multi = random() < 0.2;
  const geometry = multi
    ? {
        type: 'MultiPolygon',
        coordinates: [0, 1, 2].map((k) =>
          starPolygon(random, x + k * 0.25, y, 0.1, n(), k === 0 ? 0 : 1 + k),
        ),
      }
    : { type: 'Polygon', coordinates: starPolygon(random, x, y, 0.1, n(), 0) };
  const properties = { shapeName: `Region ${i}`, shapeISO: `XX-${i}`, shapeGroup: 'XXX', shapeType: 'ADM2' };
  return JSON.stringify({ type: 'Feature', id: `XXX:ADM2:${i}`, properties, geometry });
}

/** Writes a FeatureCollection of about `bytes` at `path` unless it is already there. */
export function ensureLevel(path: string, bytes: number, seed: number): void {
  if (existsSync(path)) return;
  console.log(`generating ${path} (~${Math.round(bytes / 1e6)} MB, once; kept for later runs)…`);
  mkdirSync(dirname(path), { recursive: true });
  const temp = `${path}.tmp`;
  const fd = openSync(temp, 'w');
  const random = seededRandom(seed);
  let written = writeSync(fd, '{"type":"FeatureCollection","features":[\n');
  let block: string[] = [];
  let blockLength = 0;
  for (let i = 0; written + blockLength < bytes; i++) {
    const line = (i === 0 ? '' : ',\n') + featureLine(random, i);
    block.push(line);
    blockLength += line.length;
    if (blockLength > 8 << 20) {
      written += writeSync(fd, block.join(''));
      block = [];
      blockLength = 0;
    }
  }
  writeSync(fd, `${block.join('')}\n]}\n`);
  closeSync(fd);
  renameSync(temp, path);
}
