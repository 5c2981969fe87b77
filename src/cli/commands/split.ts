// `geoshelf split`: parses flags, runs the split stage
// (build/split/split-level.ts) and prints how features were assigned.
import type { Level } from '../../../build/core/shared/manifest.ts';
import { splitLevel, type SplitResult } from '../../../build/split/split-level.ts';
import { SMALL_OVERLAP } from '../../../build/split/split.ts';
import { capitals, defineCommand, UsageError, type Output } from '../command.ts';

const usage = `Usage: geoshelf split --level LEVEL [--root DIR] [--verbose] ISO3

Splits a level (e.g. ADM2) of one country into data/{body}/{ISO3}/{LEVEL}/{code}.geojson,
one file per ADM1 parent, and {LEVEL}/unassigned.geojson for features no
parent can be found for. A feature goes to the parent named by its parentISO
(or adm1ISO) property when that is an ADM1 code of the country, else to the
ADM1 polygon it overlaps most; each feature gets its parent's code in adm1ISO.
Records split_by, parts (with their stats) and unassigned in the manifest; the
level's own file stays. Prints how features were assigned and flags those whose
best overlap is under ${SMALL_OVERLAP * 100}% of their area.

Options:
  --level LEVEL   the level to split: ADM2…ADM5 or QUAD (required; ISO3 and
                  LEVEL in any letter case)
  --root DIR      folder holding data/ (default: the current folder)
  --verbose       print every feature's assignment`;

export default defineCommand({
  usage,
  options: {
    root: { type: 'string', default: '.' },
    level: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
  positionals: true,
  async run({ values, positionals }, out) {
    if (values.level === undefined)
      throw new UsageError('--level is required, e.g. --level ADM2 (see --help)');
    const [level] = capitals([values.level]);
    if (!/^(ADM[0-5]|QUAD)$/.test(level!))
      throw new UsageError(`--level: expected ADM2…ADM5 or QUAD, got "${values.level}"`);
    const codes = capitals(positionals);
    if (codes.length !== 1 || !/^[A-Z]{3}$/.test(codes[0]!)) {
      throw new UsageError('expected one ISO3 code, e.g. "geoshelf split --level ADM2 ARG"');
    }
    const result = await splitLevel(values.root, codes[0]!, level as Level);
    printSummary(result, values.verbose, out);
    return 0;
  },
});

function printSummary({ assignments, parts }: SplitResult, verbose: boolean, out: Output) {
  const count = (how: string) => assignments.filter((a) => a.how === how).length;
  console.log(
    `${assignments.length} features: ${count('code')} by code, ${count('overlap')} by overlap, ${count('unassigned')} unassigned`,
  );
  for (const part of parts) console.log(`  ${out.path(part.path)}: ${part.features} features`);
  for (const a of assignments) {
    const share = a.share === undefined ? '' : `, best overlap ${(a.share * 100).toFixed(1)}% of its area`;
    const small = a.share !== undefined && a.share < SMALL_OVERLAP;
    if (verbose || small || a.how === 'unassigned' || a.note) {
      const flag = small ? 'small overlap: ' : a.how === 'unassigned' ? 'unassigned: ' : '';
      console.log(
        `  ${flag}#${a.index} "${a.name}" → ${a.code} (${a.how}${share})${a.note ? `; ${a.note}` : ''}`,
      );
    }
  }
}
