// The simplified copies of a country's levels: every level file (or the parts
// of a level given in parts) read whole, the shared edges of all levels cut
// into arcs once (arcs.ts), simplified at each tolerance in turn (tpvw.ts),
// and each level written as GeoJSON (write.ts) into one folder, which appears
// whole or not at all. The formats stage caches and publishes the folder.
import { createHash } from 'node:crypto';
import { mkdir, rename, rm, writeFile } from 'node:fs/promises';
import { eachLevelFeature } from '../geojson/level-features.ts';
import { CoverageArcsBuilder } from './arcs.ts';
import { CoverageSimplifier } from './tpvw.ts';
import { ArcTexts, levelText, VertexTexts } from './write.ts';

/** The tolerances every level is published at, in metres, as Natural Earth's 10m, 50m and 110m scales roughly. */
export const TOLERANCES_M = [100, 1_000, 10_000] as const;

/** One level of a country to simplify. */
export interface LevelSource {
  level: string; // e.g. "ADM1"
  stem: string; // the file names' start, e.g. "CHL_ADM1"
  sources: string[]; // root-relative GeoJSON files, their features in order: the level's path, or its parts
  unitIds?: string[]; // each feature's release ID, across the sources in order
}

/** One simplified copy, as written. */
export interface SimplifiedFile {
  level: string;
  tolerance_m: number;
  file: string; // e.g. "CHL_ADM1.1km.geojson"
  bytes: number;
  sha256: string;
}

/** Returns a copy's file name: the stem, the tolerance (e.g. "100m", "1km") and ".geojson". */
export function simplifiedName(stem: string, toleranceM: number): string {
  const label = toleranceM >= 1000 && toleranceM % 1000 === 0 ? `${toleranceM / 1000}km` : `${toleranceM}m`;
  return `${stem}.${label}.geojson`;
}

/**
 * Writes the simplified copies of `levels` (files under `root`) at every
 * tolerance into the folder `dir` (replaced when it exists), on a body of
 * radius `radiusM` (BODY_RADIUS_M), and returns them level by level, finest first.
 * A bad source is a UserError naming it (eachLevelFeature).
 */
export async function writeSimplifiedCopies(
  root: string,
  levels: LevelSource[],
  dir: string,
  radiusM: number,
): Promise<SimplifiedFile[]> {
  // One feature at a time, its rings into the builder and only its properties kept.
  const builder = new CoverageArcsBuilder(16, false);
  for (const level of levels) {
    builder.level();
    for (const source of level.sources) await eachLevelFeature(root, source, (f) => builder.add(f));
  }
  const arcs = builder.finish();
  const simplifier = new CoverageSimplifier(arcs, radiusM);
  const vertexTexts = new VertexTexts(arcs);
  const staging = `${dir}.${process.pid}.tmp`;
  await rm(staging, { recursive: true, force: true });
  await mkdir(staging, { recursive: true });
  const made: SimplifiedFile[] = [];
  try {
    for (const toleranceM of TOLERANCES_M) {
      simplifier.simplify(toleranceM); // each tolerance goes on from the one before
      const texts = new ArcTexts(arcs, simplifier, vertexTexts);
      for (let i = 0; i < levels.length; i++) {
        const data = Buffer.from(levelText(arcs, texts, i, levels[i].unitIds));
        const file = simplifiedName(levels[i].stem, toleranceM);
        await writeFile(`${staging}/${file}`, data);
        const sha256 = createHash('sha256').update(data).digest('hex');
        made.push({ level: levels[i].level, tolerance_m: toleranceM, file, bytes: data.length, sha256 });
      }
    }
    await rm(dir, { recursive: true, force: true });
    await rename(staging, dir);
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
  const order = new Map(levels.map((l, i) => [l.level, i]));
  return made.sort((a, b) => order.get(a.level)! - order.get(b.level)! || a.tolerance_m - b.tolerance_m);
}
