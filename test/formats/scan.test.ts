// The scan every writer starts from: feature byte ranges, per-feature bboxes
// and geometry kinds read by the GeoJSON reader (no JSON.parse of geometry),
// and the typed fields, compared with a plain JSON.parse of the same files and @turf/bbox.
import turfBbox from '@turf/bbox';
import { readFileSync } from 'node:fs';
import { describe, expect, test } from 'vitest';
import { FieldCollector } from '../../build/formats/fields.ts';
import { scanSource } from '../../build/formats/source-scan.ts';

const REPO = new URL('../../', import.meta.url).pathname;

/** Whether feature `i`'s box in `boxes` is `expected`, number for number (Object.is, as toEqual compares them). */
const sameBox = (boxes: Float64Array, i: number, expected: number[]) =>
  expected.length === 4 && expected.every((v, k) => Object.is(boxes[i * 4 + k], v));

describe('scanSource', () => {
  // USA_ADM2 (2.4 MB) crosses 1 MiB chunk ends.
  test.each([
    'data/earth/USA/USA_ADM2.geojson',
    'data/earth/CHL/CHL_ADM1.geojson',
    'data/earth/FJI/FJI_ADM0.geojson',
  ])(
    '%s: byte ranges, bboxes (= @turf/bbox), kinds and fields equal a JSON.parse of the file',
    async (path) => {
      const text = readFileSync(REPO + path);
      const features = (JSON.parse(text.toString('utf8')) as { features: GeoJSON.Feature[] }).features;
      const scan = await scanSource(REPO + path);
      expect(scan.count).toBe(features.length);
      const collector = new FieldCollector();
      // Compared without expect, which costs more per call than the comparison
      // (3,000 features); the first that differs is then shown by expect.
      const differ: number[] = [];
      features.forEach((feature, i) => {
        const slice = text.subarray(scan.starts[i], scan.ends[i]).toString('utf8');
        const same = JSON.stringify(JSON.parse(slice)) === JSON.stringify(feature);
        if (!same || !sameBox(scan.boxes, i, turfBbox(feature))) differ.push(i);
        collector.add(feature.properties);
      });
      const first = differ[0];
      if (first !== undefined) {
        expect(JSON.parse(text.subarray(scan.starts[first], scan.ends[first]).toString('utf8'))).toEqual(
          features[first],
        );
        expect([...scan.boxes.subarray(first * 4, first * 4 + 4)]).toEqual(turfBbox(features[first]));
      }
      expect(differ).toEqual([]);
      expect(scan.fields).toEqual(collector.fields());
      expect(scan.multiPolygons).toBe(features.filter((f) => f.geometry.type === 'MultiPolygon').length);
    },
  );

  test('positions laid out otherwise (spaces, exponents) → the same bbox and fields', async () => {
    const path = '/tmp/geoshelf-scan-test.geojson';
    const feature = {
      type: 'Feature',
      properties: { a: 1 },
      geometry: {
        type: 'Polygon',
        coordinates: [
          [
            [1e-3, 2],
            [3, 2],
            [3, 4.5],
            [1e-3, 2],
          ],
        ],
      },
    };
    const { writeFileSync, rmSync } = await import('node:fs');
    writeFileSync(path, `{"type":"FeatureCollection","features":[ ${JSON.stringify(feature, null, 1)} ]}`);
    try {
      const scan = await scanSource(path);
      expect([...scan.boxes]).toEqual([0.001, 2, 3, 4.5]);
      expect(scan.fields).toEqual([
        { name: 'a', type: 'integer', maxBytes: 1, integerBytes: 1, fractionDigits: 0 },
      ]);
    } finally {
      rmSync(path, { force: true });
    }
  });

  test('a one-line level whose features span chunks → bboxes = @turf/bbox, wherever a chunk ends', async () => {
    const { writeFileSync, rmSync } = await import('node:fs');
    const path = '/tmp/geoshelf-scan-one-line.geojson';
    // Three features of ~0.8 MB each, on one line: every chunk end (1 MiB) falls inside a geometry.
    const features = [0, 1, 2].map((f) => ({
      type: 'Feature' as const,
      properties: { n: f },
      geometry: {
        type: 'Polygon' as const,
        coordinates: [
          Array.from({ length: 30_001 }, (_, k) =>
            // 6 decimals, as boundary files write them (17 digits take the general path)
            k === 30_000
              ? [f, 0]
              : [Math.round((f + Math.sin(k)) * 1e6) / 1e6, Math.round(-Math.cos(k) * 1e7) / 1e6],
          ),
        ],
      },
    }));
    features.forEach((feature) => feature.geometry.coordinates[0].push(feature.geometry.coordinates[0][0]));
    const text = JSON.stringify({ type: 'FeatureCollection', features });
    try {
      // Shifted by 0…23 bytes: the chunk's end falls on every byte of a position, its '[' included.
      for (let shift = 0; shift < 24; shift++) {
        writeFileSync(path, ' '.repeat(shift) + text);
        const scan = await scanSource(path);
        const differ = features.flatMap((feature, i) =>
          sameBox(scan.boxes, i, turfBbox(feature)) ? [] : [i],
        );
        expect(differ, `shift ${shift}`).toEqual([]);
      }
    } finally {
      rmSync(path, { force: true });
    }
  });
});
