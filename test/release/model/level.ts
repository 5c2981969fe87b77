// A small real-shaped level for the model-based release tests: a grid of
// cells about 60 km across, their corners moved at random and every shared
// border the same wiggly line on both sides (as neighbours share a border
// in real data), named and coded like Chile's regions and communes.
import { levelUnit, type LevelUnit } from '../../../build/identity/level.ts';
import { round6, type MP, type Pos } from './geometry.ts';

/** One unit of a model level: `token` is its identity in the truth (the ID it must keep). */
export interface ModelUnit {
  token: string; // e.g. "u7"
  code: string; // e.g. "CL-AR"
  name: string;
  population: number;
  geometry: MP;
  displaced?: boolean; // moved or scaled whole once already (twice could push it onto a neighbour)
}

/** Names for units: real Chilean place names, with the diacritics and articles real data has. */
export const NAMES = [
  ...['Arica y Parinacota', 'Tarapacá', 'Antofagasta', 'Atacama', 'Coquimbo', 'Valparaíso', 'Biobío'],
  ...['Ñuble', 'La Araucanía', 'Los Ríos', 'Los Lagos', 'Aysén', 'Magallanes', 'Maule', "O'Higgins"],
  ...['Santiago', 'Concepción', 'Temuco', 'Valdivia', 'Osorno', 'Chillán', 'Talca', 'Curicó', 'Rancagua'],
  ...['Copiapó', 'Vallenar', 'Ovalle', 'Illapel', 'Quillota', 'San Felipe', 'Los Andes', 'Melipilla'],
  ...['Talagante', 'Linares', 'Cauquenes', 'Angol', 'Villarrica', 'Pucón', 'Castro', 'Ancud', 'Chaitén'],
  ...['Coyhaique', 'Cochrane', 'Puerto Natales', 'Porvenir', 'Pica', 'Pozo Almonte', 'Calama', 'Tocopilla'],
  ...['Taltal', 'Mejillones', 'Huasco', 'Freirina', 'Andacollo', 'Vicuña', 'Paihuano', 'Combarbalá'],
  ...['Petorca', 'La Ligua', 'Cabildo', 'Zapallar', 'Limache', 'Olmué', 'Casablanca', 'Cartagena'],
];

/** Returns a deterministic random number generator (mulberry32) from a seed. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const CELL = 0.6; // degrees
const ORIGIN: Pos = [-73.2, -39.5];

/**
 * Returns the units of a new level: `columns` × `rows` cells whose corners
 * are moved by up to 15 % of a cell and whose borders have 3–6 wiggly
 * vertices between corners, shared exactly by both neighbours.
 */
export function makeLevel(random: () => number, columns: number, rows: number): ModelUnit[] {
  const corner: Pos[][] = [];
  for (let i = 0; i <= columns; i++) {
    corner.push([]);
    for (let j = 0; j <= rows; j++) {
      corner[i]!.push([
        ORIGIN[0] + (i + (random() * 2 - 1) * 0.15) * CELL,
        ORIGIN[1] + (j + (random() * 2 - 1) * 0.15) * CELL,
      ]);
    }
  }
  const borders = new Map<string, Pos[]>(); // from one corner to the other, both ends included
  const border = (a: [number, number], b: [number, number]): Pos[] => {
    const k = `${a}|${b}`;
    const back = borders.get(`${b}|${a}`);
    if (back) return [...back].reverse();
    let line = borders.get(k);
    if (!line) {
      const [p, q] = [corner[a[0]]![a[1]]!, corner[b[0]]![b[1]]!];
      const inner = 3 + Math.floor(random() * 4);
      line = [p];
      for (let s = 1; s <= inner; s++) {
        const t = s / (inner + 1);
        const off = (random() * 2 - 1) * 0.08;
        line.push([
          p[0] + (q[0] - p[0]) * t - (q[1] - p[1]) * off,
          p[1] + (q[1] - p[1]) * t + (q[0] - p[0]) * off,
        ]);
      }
      line.push(q);
      borders.set(k, line);
    }
    return line;
  };
  const units: ModelUnit[] = [];
  const names = shuffled(NAMES, random);
  for (let j = 0; j < rows; j++) {
    for (let i = 0; i < columns; i++) {
      // Counter-clockwise: along the bottom, up the right, back along the top, down the left.
      const sides = [
        border([i, j], [i + 1, j]),
        border([i + 1, j], [i + 1, j + 1]),
        border([i + 1, j + 1], [i, j + 1]),
        border([i, j + 1], [i, j]),
      ];
      const ring = sides.flatMap((side) => side.slice(0, -1)).map(([x, y]): Pos => [round6(x), round6(y)]);
      const n = units.length;
      units.push({
        token: `u${n}`,
        code: `CL-${String.fromCharCode(65 + (n % 26))}${String.fromCharCode(65 + Math.floor(n / 26))}`,
        name: names[n]!,
        population: 1000 + Math.floor(random() * 500_000),
        geometry: [[[...ring, ring[0]!]]],
      });
    }
  }
  return units;
}

/** Returns a copy of `items` in random order (Fisher–Yates). */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** Returns the unit as matching reads it from a feature (shapeName, shapeISO, properties, shape). */
export function toLevelUnit(u: ModelUnit): LevelUnit {
  return levelUnit(
    {
      properties: {
        shapeName: u.name,
        shapeISO: u.code,
        shapeGroup: 'CHL',
        shapeType: 'ADM1',
        population: u.population,
      },
      geometry: { type: 'MultiPolygon', coordinates: u.geometry },
    },
    'shapeISO',
  );
}

/** The properties release leaves out of `attributes` changes for this model's units. */
export const IGNORED = new Set(['shapeName', 'shapeISO', 'shapeGroup', 'shapeType']);
