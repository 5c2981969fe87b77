// Reads a level's features for identity matching and nesting: each
// feature's code, name, parent code, properties and shape, one feature
// parsed at a time (a level may be larger than V8's string limit).
import { fold, words } from '../../src/shared/fold.ts';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import { readFeatureBytes } from '../geojson/features.ts';
import { CODE_KEYS, NAME_KEYS, PARENT_KEYS, textValues } from './keys.ts';
import type { MatchUnit } from './match.ts';
import { shapeOf } from './shape.ts';

/** One feature of a level: what matching needs, and its parent's code. */
export interface LevelUnit extends MatchUnit {
  parent: string; // parentISO (or adm1ISO), "" when none
}

/** Returns the folded name matching compares: "Doña Ana" → "dona ana". */
export function nameKey(name: string): string {
  return words(fold(name)).join(' ');
}

/**
 * Returns the unit of one parsed feature. `codeKey`: the property the level
 * declares as its code (e.g. "src_shape_id"), else the first of CODE_KEYS.
 */
export function levelUnit(feature: unknown, codeKey?: string): LevelUnit {
  const f = (feature ?? {}) as { properties?: Record<string, unknown> | null; geometry?: unknown };
  const properties = f.properties && typeof f.properties === 'object' ? f.properties : {};
  const name = textValues(properties, NAME_KEYS)[0] ?? '';
  const code = textValues(properties, codeKey ? [codeKey] : CODE_KEYS)[0] ?? '';
  return {
    code,
    name,
    key: nameKey(name),
    parent: textValues(properties, PARENT_KEYS)[0] ?? '',
    properties,
    shape: shapeOf(f.geometry),
  };
}

/** Returns the units of the files of one level, in order (the files one after the other). */
export async function readLevelUnits(files: string[], codeKey?: string): Promise<LevelUnit[]> {
  const units: LevelUnit[] = [];
  for (const file of files) {
    for await (const { bytes } of readFeatureBytes(file)) {
      units.push(levelUnit(JSON.parse(bytes.toString('utf8')), codeKey));
    }
  }
  return units;
}

/**
 * Returns the units of a gzipped GeoJSON file (a level kept in the release ledger): unpacked
 * to a scratch file first, so that it is read and checked by the one reader (build/geojson/).
 */
export async function readGzippedLevelUnits(file: string, codeKey?: string): Promise<LevelUnit[]> {
  const scratch = await mkdtemp(join(tmpdir(), 'geoshelf-level-'));
  try {
    const plain = join(scratch, 'level.geojson');
    await pipeline(createReadStream(file), createGunzip(), createWriteStream(plain));
    return await readLevelUnits([plain], codeKey);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
