// Reads a level's features for identity matching and nesting: each
// feature's code, name, parent code, properties and shape, one feature
// parsed at a time (a level may be larger than V8's string limit).
import { fold, words } from '../core/shared/fold.ts';
import { readFeatureCollection } from '../geojson/features.ts';
import type { FeatureListener } from '../geojson/feature-listener.ts';
import { GeometrySink } from '../geometry/feature-sink.ts';
import { CODE_KEYS, NAME_KEYS, PARENT_KEYS, textValues } from './keys.ts';
import type { MatchUnit } from './matcher.ts';
import { shapeOf, shapeOfFlat, type Shape } from './shape.ts';

/** One feature of a level: what matching needs, and its parent's code. */
export interface LevelUnit extends MatchUnit {
  parent: string; // parentISO (or adm1ISO), "" when none
}

/**
 * Returns the folded name matching compares, and whose equality makes a
 * rename a respelling: case, diacritics, spaces, hyphens and punctuation
 * do not count, so "Bío-Bío", "Biobío" and "BIO BIO" are all "biobio".
 */
function nameKey(name: string): string {
  return words(fold(name)).join('');
}

/**
 * Returns the unit of one parsed feature. `codeKey`: the property the level
 * declares as its code (e.g. "src_shape_id"), else the first of CODE_KEYS.
 */
export function levelUnit(feature: unknown, codeKey?: string): LevelUnit {
  const f = (feature ?? {}) as { properties?: unknown; geometry?: unknown };
  return unitOf(f.properties, shapeOf(f.geometry), codeKey);
}

function unitOf(props: unknown, shape: Shape | undefined, codeKey?: string): LevelUnit {
  const properties = props && typeof props === 'object' ? (props as Record<string, unknown>) : {};
  const name = textValues(properties, NAME_KEYS)[0] ?? '';
  const code = textValues(properties, codeKey ? [codeKey] : CODE_KEYS)[0] ?? '';
  return {
    code,
    name,
    key: nameKey(name),
    parent: textValues(properties, PARENT_KEYS)[0] ?? '',
    properties,
    shape,
  };
}

/**
 * Hands each unit of `file` to `visit`, with its index, in order, one at a
 * time. Positions come flat from the one GeoJSON reader (no nested arrays:
 * parsing whole features cost several times the measurer's pass); only each
 * feature's "properties" text is parsed.
 */
export async function eachLevelUnit(
  file: string,
  visit: (unit: LevelUnit, feature: number) => void,
  codeKey?: string,
): Promise<void> {
  let shape: Shape | undefined;
  let properties: unknown = {};
  let feature = 0;
  const sink = new GeometrySink((_, g) => (shape = shapeOfFlat(g)));
  const listener: FeatureListener = {
    keep: 'properties',
    properties: (bytes) => (properties = JSON.parse(bytes.toString('utf8'))),
    feature() {
      visit(unitOf(properties, shape, codeKey), feature++);
      shape = undefined;
      properties = {};
    },
  };
  await readFeatureCollection(file, listener, { sink });
}

/** Returns the units of the files of one level, in order (the files one after the other). */
export async function readLevelUnits(files: string[], codeKey?: string): Promise<LevelUnit[]> {
  const units: LevelUnit[] = [];
  for (const file of files) await eachLevelUnit(file, (unit) => units.push(unit), codeKey);
  return units;
}

/**
 * Reads each level file once for several checks of one run (validate's
 * nesting and coverage checks read the same levels): the units of a file,
 * keyed by its path, sha256 and code property, kept until more than
 * `maxPoints` positions are held, the least recently used dropped first.
 */
export class LevelReader {
  private readonly memo = new Map<string, Promise<LevelUnit[]>>();
  private readonly points = new Map<string, number>();
  private held = 0;

  constructor(private readonly maxPoints = 20_000_000) {}

  /** Returns the units of the file at `real`, whose bytes have `sha256`, in order. */
  units(real: string, sha256: string, codeKey?: string): Promise<LevelUnit[]> {
    const key = `${real}\0${sha256}\0${codeKey ?? ''}`;
    let found = this.memo.get(key);
    if (found) {
      this.memo.delete(key); // most recently used last
      this.memo.set(key, found);
      return found;
    }
    found = readLevelUnits([real], codeKey).then((units) => {
      const n = units.reduce((sum, u) => sum + (u.shape?.points ?? 0), 0);
      this.points.set(key, n);
      this.held += n;
      for (const old of this.memo.keys()) {
        if (this.held <= this.maxPoints) break;
        if (old === key || !this.points.has(old)) continue;
        this.held -= this.points.get(old)!;
        this.points.delete(old);
        this.memo.delete(old);
      }
      return units;
    });
    this.memo.set(key, found);
    found.catch(() => this.memo.delete(key));
    return found;
  }
}
