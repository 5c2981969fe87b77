// `geoshelf release VERSION`: records the validated data as a release in
// the ledger under data/releases/ (stage: build/release/release.ts) and
// prints what changed since the previous release.
import { resolve } from 'node:path';
import type { ReleaseChange } from '../../../build/core/shared/api.ts';
import { makeRelease } from '../../../build/release/release.ts';
import { versionProblem } from '../../../build/release/versions.ts';
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../../build/identity/thresholds.ts';
import { problemSummary } from '../../../build/core/report.ts';
import { defineCommand, PER_FILE, UsageError } from '../command.ts';

const t = DEFAULT_THRESHOLDS;
const usage = `Usage: geoshelf release VERSION [--root DIR] [--allow-empty] [--json] [--code-key PROPERTY]
                        [--redigitise-area SHARE] [--redigitise-distance METRES]
                        [--redigitise-k-distance K] [--redigitise-k-area K]

Freezes the data under DIR as release VERSION, recorded in DIR/data/releases/VERSION/
(commit it beside the manifests): every file with its sha256, the unit registry
(an opaque ID per unit that stays the same while the unit is the same place),
the changes since the previous release, and the catalogue as built now, which
every later build publishes unchanged under releases/VERSION/ (whatever --base
build is given). Refuses (exit 1) when validate finds errors (a preview that no
longer matches its data counts as one: run geoshelf preview first), when the
ledger is damaged, when VERSION is recorded with other files or does not come
after the latest release, or when nothing changed since it; recording the same
files again as the same VERSION does nothing.

VERSION: 1 to 32 lower-case letters, digits, "." and "-", starting with a digit
and ending with a letter or digit, e.g. 2026.11, 1.2.0 or 1.0.0-rc.1. Versions
must increase, in calendar or semantic-version order (docs/releases.md#versions).

Options:
  --root DIR                  folder that holds data/ (default: the current folder)
  --allow-empty               record the release even when nothing changed since the latest
  --json                      print problems on stdout as a JSON array
  --code-key PROPERTY         the property holding each unit's code (default: the
                              first of shapeISO, iso_3166_2, code, ISO, iso)
A geometry change is a re-digitisation (the same line drawn again), not a
boundary change, when its largest distance H and area change |ΔA| stay within
H ≤ max(D, Kd·ν) and |ΔA| ≤ max(A·area, Ka·ν·perimeter), ν being the pair's
median vertex offset (0 for the same lineage: the fixed limits alone):
  --redigitise-area SHARE      A (default ${t.redigitiseArea})
  --redigitise-distance METRES D (default ${t.redigitiseDistance})
  --redigitise-k-distance K    Kd (default ${t.redigitiseKDistance}; 0: fixed limits)
  --redigitise-k-area K        Ka (default ${t.redigitiseKArea})`;

/** Returns `text` as a number ≥ 0, or throws a UsageError naming `flag`. */
function nonNegative(flag: string, text: string | undefined, fallback: number): number {
  if (text === undefined) return fallback;
  const value = Number(text);
  if (text.trim() === '' || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`--${flag}: expected a number ≥ 0, got "${text}"`);
  }
  return value;
}

export default defineCommand({
  usage,
  // A release links relatively; build publishes it under its own --base.
  removed: {
    base: 'not an option of release: a release is published under BASE/releases/VERSION/ for whatever base build is given (geoshelf build --base BASE)',
  },
  positionals: true,
  options: {
    root: { type: 'string', default: '.' },
    'allow-empty': { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'code-key': { type: 'string' },
    'redigitise-area': { type: 'string' },
    'redigitise-distance': { type: 'string' },
    'redigitise-k-distance': { type: 'string' },
    'redigitise-k-area': { type: 'string' },
  },
  async run({ values, positionals }, out) {
    if (positionals.length !== 1) throw new UsageError('expected one VERSION, e.g. geoshelf release 2026.11');
    const version = positionals[0]!;
    const bad = versionProblem(version);
    if (bad) throw new UsageError(bad);
    const thresholds: Thresholds = {
      ...t,
      redigitiseArea: nonNegative('redigitise-area', values['redigitise-area'], t.redigitiseArea),
      redigitiseDistance: nonNegative(
        'redigitise-distance',
        values['redigitise-distance'],
        t.redigitiseDistance,
      ),
      redigitiseKDistance: nonNegative(
        'redigitise-k-distance',
        values['redigitise-k-distance'],
        t.redigitiseKDistance,
      ),
      redigitiseKArea: nonNegative('redigitise-k-area', values['redigitise-k-area'], t.redigitiseKArea),
    };
    const root = resolve(values.root);
    const outcome = await makeRelease(root, version, {
      thresholds,
      codeKey: values['code-key'],
      allowEmpty: values['allow-empty'],
    });
    const code = out.report(outcome.problems, { perFile: PER_FILE });
    const say = values.json ? console.error : console.log;
    if (outcome.status === 'refused') {
      console.error(`geoshelf release: ${problemSummary(outcome.problems)}; release ${version} not made`);
    }
    if (outcome.status === 'unchanged')
      say(`release ${version} is already recorded with these files: nothing to do`);
    if (outcome.status === 'recorded') {
      const r = outcome.record;
      say(
        `recorded release ${version} in ${out.path(`data/releases/${version}/`)}: ${r.files.length} files, ` +
          `${r.counts.units} units; ${summary(r.counts.changes, r.previous)}`,
      );
    }
    return outcome.status === 'refused' ? 1 : code;
  },
});

/** e.g. "since 2026.10: 2 renamed, 1 merged, 3,139 geometry" or "the first release". */
function summary(counts: Partial<Record<ReleaseChange['type'], number>>, previous: string | null): string {
  if (previous === null) return 'the first release';
  const parts = Object.entries(counts).map(([type, n]) => `${n.toLocaleString('en')} ${type}`);
  return `since ${previous}: ${parts.length ? parts.join(', ') : 'no changes'}`;
}
