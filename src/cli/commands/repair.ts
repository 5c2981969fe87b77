// `geoshelf repair`: parses flags, runs the repair stage
// (build/repair/repair-level.ts) and prints each unit's area change.
import { relative } from 'node:path';
import { GAP_WIDTH_M } from '../../../build/coverage/coverage.ts';
import { repairLevel } from '../../../build/repair/repair-level.ts';
import { capitals, defineCommand, parseIntegerFlag, UsageError } from '../command.ts';

const usage = `Usage: geoshelf repair [--root DIR] [--gap-width METRES] [--out FILE] ISO3/LEVEL

Writes a repaired copy of a level (e.g. CHL/ADM1), by default beside it as
data/{body}/{ISO3}/{ISO3}_{LEVEL}.repaired.geojson; the level itself is never
written. Vertices of neighbours less than 1 m apart are made one, and a vertex
one neighbour lacks is added to it; each overlap goes to the unit that shares
the longer border with it; each gap (a hole of the level's union at most
--gap-width wide) goes to the unit that borders it longest. Prints each unit's
area change, then checks the copy with validate's coverage rule.

Options:
  --root DIR          folder holding data/ (default: the current folder)
  --gap-width METRES  fill holes at most this wide (default: ${GAP_WIDTH_M}, as validate)
  --out FILE          where to write the copy (default: beside the level)`;

/** Returns e.g. "+1,234 m² (+0.0021 %)", "-4,289.009 km² (-20.80 %)" or "unchanged". */
function change(beforeM2: number, afterM2: number): string {
  const d = afterM2 - beforeM2;
  if (d === 0) return 'unchanged';
  const a = Math.abs(d);
  const size =
    a >= 1e6
      ? `${(a / 1e6).toLocaleString('en-US', { maximumFractionDigits: 3 })} km²`
      : `${a.toLocaleString('en-US', { maximumFractionDigits: a >= 10 ? 0 : 2 })} m²`;
  const pct = beforeM2 > 0 ? Math.abs(d / beforeM2) * 100 : undefined;
  const share =
    pct === undefined ? '' : pct < 1e-4 ? ' (< 0.0001 %)' : ` (${d > 0 ? '+' : '-'}${pct.toPrecision(2)} %)`;
  return `${d > 0 ? '+' : '-'}${size}${share}`;
}

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export default defineCommand({
  usage,
  options: {
    root: { type: 'string', default: '.' },
    'gap-width': { type: 'string', default: String(GAP_WIDTH_M) },
    out: { type: 'string' },
  },
  positionals: true,
  async run({ values, positionals }, out) {
    if (positionals.length !== 1) throw new UsageError('expected one level, ISO3/LEVEL, e.g. CHL/ADM1');
    const gapWidthM = parseIntegerFlag('gap-width', values['gap-width'], 0, 1_000_000);
    const done = await repairLevel(values.root, capitals(positionals)[0]!, { gapWidthM, out: values.out });
    const shown = relative(process.cwd(), done.out) || done.out;
    const did = [
      plural(done.snapped, 'vertex snapped', 'vertices snapped'),
      `${plural(done.noded, 'vertex', 'vertices')} added to a neighbour`,
      `${plural(done.overlaps, 'overlap', 'overlaps')} given to one unit`,
      `${plural(done.gaps, 'gap', 'gaps')} filled`,
    ];
    console.log(`${shown}: ${did.join(', ')}`);
    for (const u of done.units) console.log(`  ${u.label}: ${change(u.beforeM2, u.afterM2)}`);
    return out.report(done.problems);
  },
});
