// `geoshelf repair`: parses flags, runs the repair stage
// (build/repair/repair-level.ts) and prints each unit's area change and what
// is left, as text or, with --json, as one JSON object.
import { GAP_WIDTH_M } from '../../../build/coverage/coverage.ts';
import { exitCodeFor } from '../../../build/core/report.ts';
import { shownProblem, type Problem } from '../../../build/core/problem.ts';
import { repairLevel, type LevelRepair } from '../../../build/repair/repair-level.ts';
import { capitals, defineCommand, parseIntegerFlag, UsageError, type Output } from '../command.ts';

const usage = `Usage: geoshelf repair [--root DIR] [--gap-width METRES] [--out PATH] [--json] ISO3/LEVEL

Writes a repaired copy of a level (e.g. CHL/ADM1), by default beside it as
data/{body}/{ISO3}/{ISO3}_{LEVEL}.repaired.geojson; a level published only as
parts is repaired as one level and each part copied under its own name into
data/{body}/{ISO3}/{LEVEL}.repaired/. The level itself is never written.
Invalid units are made valid first (as GEOS's MakeValid); vertices of
neighbours less than 1 m apart are made one, and a vertex one neighbour lacks
is added to it; each overlap goes to the unit that shares the longer border
with it; each gap (a hole of the level's union at most --gap-width wide) goes
to the unit that borders it longest. Prints each unit's area change, then
checks the copy with validate's geometry and coverage rules.

Options:
  --root DIR          folder holding data/ (default: the current folder)
  --gap-width METRES  fill holes at most this wide (default: ${GAP_WIDTH_M}, as validate)
  --out PATH          where to write the copy (default: beside the level); for a
                      level published only as parts, the folder for the parts' copies
  --json              print, on stdout, one JSON object: the copies, the counts,
                      each unit's area before and after, and the problems left
                      (as validate --json prints them)`;

/** Returns e.g. "+1,234 m² (+0.0021 %)", "-4,289.009 km² (-21 %)", "+0.00 m² (< 0.0001 %)" (rounding) or "unchanged". */
function change(beforeM2: number, afterM2: number): string {
  const d = afterM2 - beforeM2;
  if (d === 0) return 'unchanged';
  const a = Math.abs(d);
  // Below 10 m², two decimals: a change of rounding alone shows as "+0.00 m²".
  const digits =
    a >= 10 ? { maximumFractionDigits: 0 } : { minimumFractionDigits: 2, maximumFractionDigits: 2 };
  const size =
    a >= 1e6
      ? `${(a / 1e6).toLocaleString('en-US', { maximumFractionDigits: 3 })} km²`
      : `${a.toLocaleString('en-US', digits)} m²`;
  const pct = beforeM2 > 0 ? Math.abs(d / beforeM2) * 100 : undefined;
  const share =
    pct === undefined ? '' : pct < 1e-4 ? ' (< 0.0001 %)' : ` (${d > 0 ? '+' : '-'}${pct.toPrecision(2)} %)`;
  return `${d > 0 ? '+' : '-'}${size}${share}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** Returns the one line that says what was done, e.g. "data/earth/CHL/CHL_ADM1.repaired.geojson: 0 units made valid, …". */
function summary(done: LevelRepair, out: Output): string {
  const first = done.files[0]!;
  const shown = done.parts
    ? `${plural(done.files.length, 'part', 'parts')} of ${done.level} in ${out.path(first.copy).replace(/[^/]*$/, '')}`
    : out.path(first.copy);
  const did = [
    plural(done.madeValid, 'invalid unit made valid', 'invalid units made valid'),
    plural(done.snapped, 'vertex snapped', 'vertices snapped'),
    `${plural(done.noded, 'vertex', 'vertices')} added to a neighbour`,
    `${plural(done.overlaps, 'overlap', 'overlaps')} given to one unit`,
    `${plural(done.gaps, 'gap', 'gaps')} filled`,
  ];
  return `${shown}: ${did.join(', ')}`;
}

const round = (m2: number) => Math.round(m2 * 10) / 10;

/** The object `repair --json` prints: files named from the current folder, areas in m² to 0.1, problems as validate --json's. */
export interface RepairJson {
  level: string; // e.g. "CHL/ADM1"
  gap_width_m: number;
  files: { source: string; copy: string }[];
  made_valid: number;
  snapped: number;
  noded: number;
  overlaps: number;
  gaps: number;
  units: {
    file: string; // the copy
    pointer: string; // e.g. "/features/3"
    name?: string;
    code?: string;
    area_before_m2: number;
    area_after_m2: number;
    area_change_m2: number;
  }[];
  problems: Problem[];
}

/** Returns what `repair --json` prints for `done`. */
function asJson(done: LevelRepair, gapWidthM: number, out: Output): RepairJson {
  return {
    level: done.level,
    gap_width_m: gapWidthM,
    files: done.files.map((f) => ({ source: out.path(f.source), copy: out.path(f.copy) })),
    made_valid: done.madeValid,
    snapped: done.snapped,
    noded: done.noded,
    overlaps: done.overlaps,
    gaps: done.gaps,
    units: done.units.map((u) => ({
      file: out.path(u.file),
      pointer: `/features/${u.feature}`,
      ...(u.name !== undefined && { name: u.name }),
      ...(u.code !== undefined && { code: u.code }),
      area_before_m2: round(u.beforeM2),
      area_after_m2: round(u.afterM2),
      area_change_m2: round(u.afterM2 - u.beforeM2),
    })),
    problems: done.problems.map((p) => shownProblem(p, out.root)),
  };
}

export default defineCommand({
  usage,
  options: {
    root: { type: 'string', default: '.' },
    'gap-width': { type: 'string', default: String(GAP_WIDTH_M) },
    out: { type: 'string' },
    json: { type: 'boolean', default: false },
  },
  positionals: true,
  async run({ values, positionals }, out) {
    if (positionals.length !== 1) throw new UsageError('expected one level, ISO3/LEVEL, e.g. CHL/ADM1');
    const gapWidthM = parseIntegerFlag('gap-width', values['gap-width'], 0, 1_000_000);
    const done = await repairLevel(values.root, capitals(positionals)[0]!, { gapWidthM, out: values.out });
    if (values.json) {
      console.log(JSON.stringify(asJson(done, gapWidthM, out), null, 2));
      return exitCodeFor(done.problems);
    }
    console.log(summary(done, out));
    for (const u of done.units) console.log(`  ${u.label}: ${change(u.beforeM2, u.afterM2)}`);
    return out.report(done.problems);
  },
});
