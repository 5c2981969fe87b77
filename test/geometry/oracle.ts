// Runs the GEOS oracle (test/geometry/geos_oracle.py, shapely on Debian's
// /usr/bin/python3) once over many files: one process per batch, not per feature.
import { execFileSync, spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkGeometryFile, type FileGeometry } from '../../build/geometry/check-file.ts';
import { COORDINATE_OUT_OF_RANGE } from '../../build/geometry/range.ts';
import { GeoJSONError, measureAndCheckGeoJSON } from '../../build/measure/measure.ts';

const PYTHON = '/usr/bin/python3'; // the python3 on PATH may lack shapely
const SCRIPT = new URL('./geos_oracle.py', import.meta.url).pathname;

/** GEOS's verdict on one feature: [is_valid, explain_validity], or null if shapely can't build it. */
export type Verdict = [valid: boolean, reason: string] | null;

/** Whether shapely is importable (`.ci/run` installs python3-shapely). */
export const hasShapely = spawnSync(PYTHON, ['-c', 'import shapely'], { stdio: 'ignore' }).status === 0;

/** Without shapely, the oracle tests are skipped locally (with a message) but fail in CI. */
export const skipOracle = !hasShapely && !process.env.CI;
if (skipOracle) {
  console.warn(
    'GEOS oracle tests skipped: /usr/bin/python3 has no shapely (apt-get install python3-shapely)',
  );
}

/** Returns GEOS's verdicts on every feature of each file, in one Python run. */
export function geosVerdicts(files: string[]): Verdict[][] {
  const out = execFileSync(PYTHON, [SCRIPT], { input: files.join('\n'), maxBuffer: 1 << 30 });
  return out
    .toString()
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Verdict[]);
}

/** One feature where geoshelf and GEOS disagree, e.g. { file, feature: 3, geos: [false, "Self-intersection[1 1]"], ours: undefined }. */
export interface Disagreement {
  file: string;
  feature: number;
  geos: Verdict;
  ours: string | undefined;
}

/**
 * Returns the features of `files` on which our verdict differs from GEOS's,
 * and how many features were compared. Features with an RFC 7946 structural
 * error are ours alone (shapely closes open rings and refuses short ones).
 * Both our ways of checking take part: the geometry reader alone and the
 * measurer's pass (feature -1 when they differ).
 */
export async function compareWithGeos(
  files: string[],
): Promise<{ compared: number; invalid: number; disagreements: Disagreement[] }> {
  const verdicts = geosVerdicts(files);
  const disagreements: Disagreement[] = [];
  let compared = 0;
  let invalid = 0;
  for (const [i, file] of files.entries()) {
    const ours: FileGeometry = await checkGeometryFile(file);
    // validate checks in the measurer's pass: it must give the very same issues.
    const fused = await measureAndCheckGeoJSON(file).catch((error: unknown) => {
      if (error instanceof GeoJSONError) return undefined; // a file the measurer refuses is not checked there
      throw error;
    });
    if (fused && JSON.stringify(fused.geometry) !== JSON.stringify(ours)) {
      disagreements.push({ file, feature: -1, geos: null, ours: 'the measurer pass gives other issues' });
    }
    // GEOS does not check coordinate ranges: only the validity problem compares.
    const issues = new Map(
      ours.issues
        .filter((issue) => issue.kind !== COORDINATE_OUT_OF_RANGE)
        .map((issue) => [issue.feature, issue]),
    );
    for (const [feature, geos] of verdicts[i]!.entries()) {
      const issue = issues.get(feature);
      if (issue?.structural) continue;
      compared++;
      if (geos && !geos[0]) invalid++;
      if (geos === null || geos[0] !== (issue === undefined)) {
        disagreements.push({ file, feature, geos, ours: issue?.message });
      }
    }
  }
  return { compared, invalid, disagreements };
}

/** Writes `features` as a FeatureCollection, one feature per line, and returns its path. */
export function writeCollection(dir: string, name: string, geometries: object[]): string {
  const path = join(dir, name);
  const lines = geometries.map((geometry) => JSON.stringify({ type: 'Feature', properties: {}, geometry }));
  writeFileSync(path, `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}\n`);
  return path;
}
