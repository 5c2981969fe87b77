// `geoshelf repair ISO3/LEVEL`: finds the level's files through its manifest
// (its whole file, or all its parts when it is published only as parts),
// repairs its units into a coverage as one level (repair.ts), writes the
// repaired copy (never the original: by default next to it, as
// data/earth/CHL/CHL_ADM1.repaired.geojson, or data/earth/USA/ADM2.repaired/
// for the parts) and checks the copy with the geometry and coverage rules
// validate uses. The publisher decides what to do with it.
import { mkdir } from 'node:fs/promises';
import { basename, dirname, isAbsolute, join, relative, resolve } from 'node:path';
import type { MultiPolygon } from 'polygon-clipping';
import { writeFileAtomic } from '../core/atomic-write.ts';
import { UsageError, UserError } from '../core/errors.ts';
import { problem, type Problem } from '../core/problem.ts';
import type { Body } from '../core/shared/manifest.ts';
import { checkLevel } from '../coverage/cache.ts';
import { GAP_WIDTH_M } from '../coverage/coverage.ts';
import { BODY_RADIUS_M } from '../core/shared/crs.ts';
import { readLevelFeatures, type GeoFeature } from '../geojson/level-features.ts';
import { checkGeometry } from '../geometry/validity.ts';
import { featureIssue } from '../geometry/verdict.ts';
import { CODE_KEYS, NAME_KEYS } from '../identity/keys.ts';
import { findManifests, loadManifests } from '../manifest/load.ts';
import { coverageProblem } from '../manifest/validate-coverage.ts';
import { areaM2, repairUnits, SNAP_M, type Repaired } from './repair.ts';

/** One unit's area before and after, in m², and where it is in the copy. */
interface UnitAreaChange {
  file: string; // the copy holding it, as problems name files, e.g. "data/earth/CHL/CHL_ADM1.repaired.geojson"
  feature: number; // its index in that file (and in the level's file it was repaired from)
  name?: string;
  code?: string;
  label: string; // e.g. `"Maipo" (CL-RM-MA)` or "/features/3"
  beforeM2: number;
  afterM2: number;
}

/** One file of the level and its repaired copy. */
interface RepairedFile {
  source: string; // e.g. "data/earth/USA/ADM2/US-CA.geojson"
  copy: string; // as problems name files: relative to the root when inside it, else absolute
  out: string; // the copy, absolute
}

/** What `repairLevel` did. */
export interface LevelRepair extends Omit<Repaired, 'units'> {
  level: string; // e.g. "CHL/ADM1"
  parts: boolean; // published only as parts: one copy per part, repaired as one level
  files: RepairedFile[];
  units: UnitAreaChange[]; // in the level's order: file by file, feature by feature
  problems: Problem[]; // what validate's geometry and coverage rules still find in the copy (none expected)
}

/** Returns the default path of a level's repaired copy: beside it, e.g. "….CHL_ADM1.repaired.geojson". */
export function repairedPath(source: string): string {
  return source.replace(/\.geojson$/i, '') + '.repaired.geojson';
}

/**
 * Returns the default path of a part's repaired copy: under the same name in
 * a folder beside the parts' own (which `split` replaces whole), e.g.
 * "data/earth/USA/ADM2/US-CA.geojson" → "data/earth/USA/ADM2.repaired/US-CA.geojson".
 */
export function repairedPartPath(source: string): string {
  return join(`${dirname(source)}.repaired`, basename(source));
}

/** Returns the manifest's body and the files of `selector`'s level ("CHL/ADM1"); a UserError when there is none. */
async function findLevel(
  root: string,
  selector: string,
): Promise<{ body: Body; paths: string[]; parts: boolean }> {
  const match = /^([A-Z]{3})\/(ADM[0-5])$/.exec(selector);
  if (!match) throw new UsageError(`"${selector}": expected ISO3/LEVEL, e.g. CHL/ADM1`);
  const [, iso, level] = match;
  const { manifests, problems } = loadManifests(root, await findManifests(root));
  const broken = problems.filter((p) => p.file.includes(`/${iso}/`));
  if (broken.length > 0) throw new UserError(broken);
  const found = manifests.find((m) => m.manifest.iso_a3 === iso);
  const dataset = found?.manifest.datasets.find((d) => d.level === level);
  if (!found || !dataset) throw new UserError(problem('', `${selector}: no such dataset under ${root}/data`));
  const body = found.manifest.body;
  // A level with a whole file is repaired from it (`split` makes its parts again from the copy).
  if (dataset.path !== undefined) return { body, paths: [dataset.path], parts: false };
  return { body, paths: (dataset.parts ?? []).map((p) => p.path), parts: true };
}

/**
 * Returns where each file's copy goes, absolute: a mistake when a copy would
 * be a file of the level (a UsageError when `--out` names it) or two copies
 * one file.
 */
function copyPaths(root: string, paths: string[], parts: boolean, out?: string): string[] {
  const outs = paths.map((path) => {
    if (!parts) return resolve(out ?? resolve(root, repairedPath(path)));
    return out === undefined ? resolve(root, repairedPartPath(path)) : resolve(out, basename(path));
  });
  const sources = new Set(paths.map((path) => resolve(root, path)));
  const clash = outs.find((o) => sources.has(o));
  const Mistake = out === undefined ? UserError : UsageError;
  const flag = out === undefined ? '' : '--out: ';
  if (clash) throw new Mistake(`${flag}${clash} is a file of the level: repair never writes over one`);
  const twice = outs.find((o, i) => outs.indexOf(o) !== i);
  if (twice) throw new Mistake(`${flag}two parts of the level would both be copied to ${twice}`);
  return outs;
}

/** Returns a feature's geometry as a multipolygon, or undefined when it has no area. */
function multiPolygon(f: GeoFeature): MultiPolygon | undefined {
  const g = f.geometry;
  if (g?.type === 'Polygon') return [g.coordinates as MultiPolygon[number]];
  if (g?.type === 'MultiPolygon') return g.coordinates as MultiPolygon;
  return undefined;
}

/** Returns a unit's name and code, from the properties validate reads them from. */
function nameAndCode(f: GeoFeature): { name?: string; code?: string } {
  const p = f.properties ?? {};
  const pick = (keys: string[]) =>
    keys.map((k) => p[k]).find((v): v is string => typeof v === 'string' && v !== '');
  const [name, code] = [pick(NAME_KEYS), pick(CODE_KEYS)];
  return { ...(name !== undefined && { name }), ...(code !== undefined && { code }) };
}

/** Returns e.g. `"Maipo" (CL-RM-MA)`, `"Maipo"`, `CL-RM-MA` or `/features/3`. */
function label({ name, code }: { name?: string; code?: string }, index: number): string {
  if (name && code) return `"${name}" (${code})`;
  return name ? `"${name}"` : (code ?? `/features/${index}`);
}

/** Returns `abs` as problems name files: relative to `root` when inside it (e.g. "data/earth/…"), else absolute. */
function named(root: string, abs: string): string {
  const rel = relative(root, abs);
  return rel === '' || rel.startsWith('..') || isAbsolute(rel) ? abs : rel;
}

/** Writes one copy atomically; a folder that cannot be written is the user's to fix: one line, no stack. */
async function writeCopy(file: RepairedFile, features: GeoFeature[], makeFolder: boolean): Promise<void> {
  const text = `{"type":"FeatureCollection","features":[\n${features.map((f) => JSON.stringify(f)).join(',\n')}\n]}\n`;
  try {
    if (makeFolder) await mkdir(dirname(file.out), { recursive: true });
    await writeFileAtomic(file.out, text);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (!code) throw error;
    throw new UserError(
      problem(file.copy, `cannot write the repaired copy (${code}): nothing of the level was changed`),
    );
  }
}

/** Returns the geometry rule's problems of a copy's features (validate's, as warnings; RFC 7946 structure as errors). */
function geometryProblems(file: string, features: GeoFeature[]): Problem[] {
  return features.flatMap((f, i) => {
    const issue = f.geometry ? checkGeometry(f.geometry.type, f.geometry.coordinates) : undefined;
    if (!issue) return [];
    const { pointer, message } = featureIssue(i, issue);
    const found: Problem = {
      file,
      pointer,
      rule: 'geometry',
      severity: issue.structural ? 'error' : 'warning',
      message,
    };
    return [found];
  });
}

/**
 * Repairs the level `selector` ("CHL/ADM1") of the tree at `root` into a
 * copy and returns each unit's area change and what validate's geometry and
 * coverage rules find in the copy. A level with a whole file is copied to
 * `options.out` (default: beside it, repairedPath); a level published only
 * as parts is repaired as one level (neighbours across parts share their
 * borders too) and each part copied under its own name into the folder
 * `options.out` (default: repairedPartPath). The level's own files are never
 * written: an `out` that names one is a UsageError.
 */
export async function repairLevel(
  root: string,
  selector: string,
  options: { gapWidthM?: number; out?: string } = {},
): Promise<LevelRepair> {
  const top = resolve(root);
  const { body, paths, parts } = await findLevel(root, selector);
  const outs = copyPaths(top, paths, parts, options.out);
  const files = paths.map((source, i) => ({ source, out: outs[i]!, copy: named(top, outs[i]!) }));
  const read = await Promise.all(paths.map((path) => readLevelFeatures(root, path)));
  const features = read.flat();
  const radiusM = BODY_RADIUS_M[body];
  const gapWidthM = options.gapWidthM ?? GAP_WIDTH_M;
  const before = features.map(multiPolygon);
  const { units: after, ...counts } = repairUnits(before, { radiusM, gapWidthM, snapM: SNAP_M });
  const repaired = features.map((f, i): GeoFeature => {
    const mp = after[i];
    if (!mp) return f;
    const geometry =
      mp.length === 1 ? { type: 'Polygon', coordinates: mp[0] } : { type: 'MultiPolygon', coordinates: mp };
    return { ...f, geometry };
  });
  const units: UnitAreaChange[] = [];
  const problems: Problem[] = [];
  let first = 0;
  for (const [k, file] of files.entries()) {
    const own = repaired.slice(first, first + read[k]!.length);
    await writeCopy(file, own, parts);
    problems.push(...geometryProblems(file.copy, own));
    own.forEach((f, i) => {
      const which = nameAndCode(f);
      const [was, is] = [before[first + i], after[first + i] ?? before[first + i]];
      units.push({
        file: file.copy,
        feature: i,
        ...which,
        label: label(which, i),
        beforeM2: areaM2(was, radiusM),
        afterM2: areaM2(is, radiusM),
      });
    });
    first += own.length;
  }
  const copies = files.map((f) => ({ path: f.copy, real: f.out, sha256: '' }));
  const checked = await checkLevel(copies, [], { body, gapWidthM });
  problems.push(...checked.findings.map((f) => coverageProblem(f, false)));
  return { ...counts, level: selector, parts, files, units, problems };
}
