// Seeded random FeatureCollections written as text, for the differential test:
// the text varies in ways JSON.stringify never produces (exponents, -0, long
// mantissas, escapes, member order, whitespace) while JSON.parse reads it the same.

import { seededRandom } from '../support/random.ts';

type Random = () => number;

const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)];
const int = (random: Random, min: number, max: number) => min + Math.floor(random() * (max - min + 1));

const WHITESPACE = ['', '', '', ' ', '\n', '\r\n', '\t', '  \n  '];
const NAMES = [
  'name',
  'shapeISO',
  'shapeName',
  'na\\u00efve', // escaped: "naïve"
  '\\"q\\"', // escaped quotes: "\"q\""
  'café',
  'Ωmega',
  '😀',
  '\\ud83d\\ude00', // the same emoji, escaped
  'a/b',
  'tab\\there',
  '',
  'ZZ',
  'aa',
];

/** Returns a coordinate as text in one of many JSON spellings. */
function numberText(random: Random, axis: number): string {
  const range = axis === 0 ? 180 : 90;
  const value = (random() * 2 - 1) * range;
  switch (int(random, 0, 11)) {
    case 0:
      return pick(random, ['-0', '0', '-0.0', '0.000', '-0e0', '0E-5']);
    case 1:
      return `${int(random, -range, range)}`; // an integer
    case 2:
      return `${int(random, 1, 9)}e-${int(random, 1, 9)}`; // like 1e-7
    case 3:
      return `${(random() * 9 + 1).toFixed(int(random, 0, 3))}E+${int(random, 0, 1)}`; // like 1.5E+2
    case 4:
      return value.toFixed(int(random, 14, 20)); // more digits than a double holds
    case 5:
      return `${Math.floor(value * 1e6)}e-6`; // mantissa with an exponent
    case 6:
      return value.toExponential(int(random, 0, 16));
    case 7:
      return String(value); // shortest round trip
    case 8:
      return pick(random, [
        '5e-324',
        '2.2250738585072014e-308',
        '1e-400',
        '-1.7976931348623157e308',
        '1e22',
        '1e23',
        '9007199254740993',
        '0.1e1',
        '123456789012345678901234567890e-28',
      ]);
    default:
      return value.toFixed(6).replace(/0+$/, '').replace(/\.$/, ''); // like real boundary files
  }
}

function positionText(random: Random, ws: () => string): string {
  const dims = random() < 0.1 ? 3 : random() < 0.05 ? 4 : 2;
  const parts = Array.from({ length: dims }, (_, axis) => numberText(random, Math.min(axis, 1)));
  return `[${ws()}${parts.join(`${ws()},${ws()}`)}${ws()}]`;
}

function arrayText(items: string[], ws: () => string): string {
  return `[${ws()}${items.join(`${ws()},${ws()}`)}${ws()}]`;
}

function polygonText(random: Random, ws: () => string): string {
  const rings = Array.from({ length: random() < 0.3 ? int(random, 2, 4) : 1 }, () =>
    arrayText(
      Array.from({ length: int(random, 1, 8) }, () => positionText(random, ws)),
      ws,
    ),
  );
  return arrayText(rings, ws);
}

function objectText(members: [string, string][], random: Random, ws: () => string): string {
  const shuffled = random() < 0.5 ? members : [...members].sort(() => random() - 0.5);
  return `{${ws()}${shuffled.map(([k, v]) => `"${k}"${ws()}:${ws()}${v}`).join(`${ws()},${ws()}`)}${ws()}}`;
}

function propertiesText(random: Random, ws: () => string): string {
  if (random() < 0.1) return 'null';
  const values = [
    '1',
    '"x"',
    'true',
    'null',
    '[1,{"k":[]}]',
    '{"nested":{"deep":"\\u00e9\\n"}}',
    '-2.5e-3',
    '"a\\\\b\\/c"',
  ];
  const names = Array.from({ length: int(random, 0, 5) }, () => pick(random, NAMES));
  return objectText(
    names.map((n) => [n, pick(random, values)]),
    random,
    ws,
  );
}

function featureText(random: Random, ws: () => string): string {
  const multi = random() < 0.4;
  const coordinates = multi
    ? arrayText(
        Array.from({ length: int(random, 1, 3) }, () => polygonText(random, ws)),
        ws,
      )
    : polygonText(random, ws);
  const geometry: [string, string][] = [
    ['type', multi ? '"MultiPolygon"' : '"Polygon"'],
    ['coordinates', coordinates],
  ];
  if (random() < 0.1) geometry.push(['bbox', '[0,0,1,1]']);
  const members: [string, string][] = [
    ['type', '"Feature"'],
    ['properties', propertiesText(random, ws)],
    ['geometry', objectText(geometry, random, ws)],
  ];
  if (random() < 0.3) members.push(['id', random() < 0.5 ? String(int(random, 0, 999)) : '"ABW:ADM0:x"']);
  return objectText(members, random, ws);
}

/** Returns the text of a random FeatureCollection (features: 0 to `maxFeatures`). */
export function randomFeatureCollection(seed: number, maxFeatures = 12): string {
  const random = seededRandom(seed);
  const spaced = random() < 0.5;
  const ws = () => (spaced ? pick(random, WHITESPACE) : '');
  const features = Array.from({ length: int(random, 0, maxFeatures) }, () => featureText(random, ws));
  const members: [string, string][] = [
    ['type', '"FeatureCollection"'],
    ['features', arrayText(features, () => (spaced ? ws() : '\n'))],
  ];
  if (random() < 0.3) members.push(['bbox', '[-180,-90,180,90]']);
  if (random() < 0.2) members.push(['name', '"x"'], ['crs', '{"type":"name","properties":{"name":"CRS84"}}']);
  const text = objectText(members, random, ws);
  return `${random() < 0.1 ? '\ufeff' : ''}${ws()}${text}${ws()}`;
}
