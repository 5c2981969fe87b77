// `geoshelf repair ISO3/LEVEL`: finds the level's file through its manifest,
// repairs its units into a coverage (repair.ts), writes the repaired copy
// (never the original: by default next to it, as
// data/earth/CHL/CHL_ADM1.repaired.geojson) and checks the copy with the
// coverage rule validate uses. The publisher decides what to do with it.
import { resolve } from 'node:path';
import type { MultiPolygon } from 'polygon-clipping';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { UsageError, UserError } from '../core/errors.ts';
import { problem, type Problem } from '../core/problem.ts';
import type { Body } from '../core/shared/manifest.ts';
import { checkLevel } from '../coverage/cache.ts';
import { GAP_WIDTH_M } from '../coverage/coverage.ts';
import { BODY_RADIUS_M } from '../coverage/measure.ts';
import { readLevelFeatures, type GeoFeature } from '../geojson/level-features.ts';
import { CODE_KEYS, NAME_KEYS } from '../identity/keys.ts';
import { findManifests, loadManifests } from '../manifest/load.ts';
import { coverageProblem } from '../manifest/validate-coverage.ts';
import { areaM2, repairUnits, SNAP_M, type Repaired } from './repair.ts';

/** One unit's area before and after, in m². */
export interface UnitAreaChange {
  feature: number;
  label: string; // e.g. `"Maipo" (CL-RM-MA)` or "/features/3"
  beforeM2: number;
  afterM2: number;
}

/** What `repairLevel` did. */
export interface LevelRepair extends Omit<Repaired, 'units'> {
  source: string; // e.g. "data/earth/CHL/CHL_ADM1.geojson"
  out: string; // the copy written, absolute
  units: UnitAreaChange[];
  problems: Problem[]; // what the coverage rule still finds in the copy (none expected)
}

/** Returns the default path of a level's repaired copy: beside it, e.g. "….CHL_ADM1.repaired.geojson". */
export function repairedPath(source: string): string {
  return source.replace(/\.geojson$/i, '') + '.repaired.geojson';
}

/** Returns the manifest's body and the whole file of `selector`'s level ("CHL/ADM1"); a UserError when there is none. */
async function findLevel(root: string, selector: string): Promise<{ body: Body; path: string }> {
  const match = /^([A-Z]{3})\/(ADM[0-5])$/.exec(selector);
  if (!match) throw new UsageError(`"${selector}": expected ISO3/LEVEL, e.g. CHL/ADM1`);
  const [, iso, level] = match;
  const { manifests, problems } = loadManifests(root, await findManifests(root));
  const broken = problems.filter((p) => p.file.includes(`/${iso}/`));
  if (broken.length > 0) throw new UserError(broken);
  const found = manifests.find((m) => m.manifest.iso_a3 === iso);
  const dataset = found?.manifest.datasets.find((d) => d.level === level);
  if (!found || !dataset) throw new UserError(problem('', `${selector}: no such dataset under ${root}/data`));
  if (dataset.path === undefined) {
    const message = `${selector} is published only as parts: repair reads a level's whole file`;
    throw new UserError(problem(found.file, message));
  }
  return { body: found.manifest.body, path: dataset.path };
}

/** Returns a feature's geometry as a multipolygon, or undefined when it has no area. */
function multiPolygon(f: GeoFeature): MultiPolygon | undefined {
  const g = f.geometry;
  if (g?.type === 'Polygon') return [g.coordinates as MultiPolygon[number]];
  if (g?.type === 'MultiPolygon') return g.coordinates as MultiPolygon;
  return undefined;
}

/** Returns e.g. `"Maipo" (CL-RM-MA)`, from the properties validate reads names and codes from. */
function label(f: GeoFeature, index: number): string {
  const p = f.properties ?? {};
  const pick = (keys: string[]) => keys.map((k) => p[k]).find((v) => typeof v === 'string' && v !== '');
  const [name, code] = [pick(NAME_KEYS), pick(CODE_KEYS)];
  if (name && code) return `"${name}" (${code})`;
  return name ? `"${name}"` : ((code as string | undefined) ?? `/features/${index}`);
}

/**
 * Repairs the level `selector` ("CHL/ADM1") of the tree at `root` into a
 * copy at `options.out` (default: beside the level, repairedPath) and returns
 * each unit's area change and what the coverage rule finds in the copy.
 * The original is never written: an `out` that names it is a UsageError.
 */
export async function repairLevel(
  root: string,
  selector: string,
  options: { gapWidthM?: number; out?: string } = {},
): Promise<LevelRepair> {
  const { body, path } = await findLevel(root, selector);
  const out = resolve(options.out ?? resolve(root, repairedPath(path)));
  if (out === resolve(root, path))
    throw new UsageError(`--out: ${options.out} is the level itself; repair never overwrites it`);
  const features = await readLevelFeatures(root, path);
  const radiusM = BODY_RADIUS_M[body];
  const gapWidthM = options.gapWidthM ?? GAP_WIDTH_M;
  const before = features.map(multiPolygon);
  const { units: after, ...counts } = repairUnits(before, { radiusM, gapWidthM, snapM: SNAP_M });
  const repaired = features.map((f, i) => {
    const mp = after[i];
    if (!mp) return f;
    const geometry =
      mp.length === 1 ? { type: 'Polygon', coordinates: mp[0] } : { type: 'MultiPolygon', coordinates: mp };
    return { ...f, geometry };
  });
  await writeFileAtomic(
    out,
    `{"type":"FeatureCollection","features":[\n${repaired.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`,
  );
  const checked = await checkLevel([{ path: out, real: out, sha256: '' }], [], { body, gapWidthM });
  return {
    ...counts,
    source: path,
    out,
    units: features.map((f, i) => ({
      feature: i,
      label: label(f, i),
      beforeM2: areaM2(before[i], radiusM),
      afterM2: areaM2(after[i] ?? before[i], radiusM),
    })),
    problems: checked.findings.map((f) => coverageProblem(f, false)),
  };
}
