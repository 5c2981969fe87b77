// `geoshelf release-copies [VERSION…]`: prints which files of each release a
// bucket can make by a server-side copy of a file an earlier release
// published with the same bytes (stage: build/release/copies.ts), for a
// deploy that uploads only new bytes (scripts/publish-cdn.sh).
import { resolve } from 'node:path';
import { problemSummary } from '../../../build/core/report.ts';
import { releaseTransfers } from '../../../build/release/copies.ts';
import { readLedger } from '../../../build/release/ledger.ts';
import { releaseBaseProblems } from '../../../build/release/publish.ts';
import { formatBytes, normaliseBase } from '../../../build/site/pages/html.ts';
import { defineCommand, UsageError, UserError } from '../command.ts';

const usage = `Usage: geoshelf release-copies [VERSION…] [--root DIR] [--base PATH] [--json]

For each release VERSION (default: every release in the ledger under
DIR/data/releases/), prints one line per file of releases/VERSION/ that holds
the same bytes as a file an earlier release published, as the two paths in
dist/ (the earlier one first) separated by a tab, e.g.
  releases/1.0.0/data/earth/CHL/CHL_ADM1.geojson<TAB>releases/1.1.0/data/earth/CHL/CHL_ADM1.geojson
A bucket holding the earlier releases makes those files by server-side copies,
and needs only the others uploaded. The source is in the earliest release that
has those bytes. A summary per release goes to stderr.

Options:
  --root DIR    folder that holds data/ (default: the current folder)
  --base PATH   the --base given to build (default: /); the files that name
                their own URL are compared as build publishes them
  --json        print, on stdout, a JSON array with one object per release:
                {"version", "copies": [{"source", "destination", "bytes"}],
                 "uploads": [{"path", "bytes"}]}`;

export default defineCommand({
  usage,
  positionals: true,
  options: {
    root: { type: 'string', default: '.' },
    base: { type: 'string', default: '/' },
    json: { type: 'boolean', default: false },
  },
  async run({ values, positionals }, out) {
    let base: string;
    try {
      base = normaliseBase(values.base);
    } catch (error) {
      throw new UsageError(`--base: ${(error as Error).message}`);
    }
    const root = resolve(values.root);
    const ledger = readLedger(root);
    const problems = ledger.problems.length ? ledger.problems : releaseBaseProblems(ledger, base);
    if (problems.length) {
      out.report(problems);
      console.error(`geoshelf release-copies: ${problemSummary(problems)}`);
      return 1;
    }
    const known = ledger.releases.map((r) => r.record.version);
    for (const version of positionals) {
      if (!known.includes(version)) {
        const listed = known.length ? `: ${known.join(', ')}` : ', which holds no release';
        throw new UserError(`release ${version} is not in ${out.path('data/releases/')}${listed}`);
      }
    }
    const asked = new Set(positionals.length ? positionals : known);
    const transfers = (await releaseTransfers(root, base, ledger)).filter((t) => asked.has(t.version));
    if (values.json) {
      console.log(JSON.stringify(transfers, null, 1));
      return 0;
    }
    for (const { copies } of transfers) {
      for (const c of copies) process.stdout.write(`${c.source}\t${c.destination}\n`);
    }
    for (const { version, copies, uploads } of transfers) {
      console.error(`release ${version}: ${count(copies)} by server-side copy, ${count(uploads)} to upload`);
    }
    if (!transfers.length) console.error(`no release in ${out.path('data/releases/')}: nothing to copy`);
    return 0;
  },
});

/** e.g. "1,204 files (84.7 MB)". */
function count(files: { bytes: number }[]): string {
  const bytes = files.reduce((sum, f) => sum + f.bytes, 0);
  return `${files.length.toLocaleString('en')} file${files.length === 1 ? '' : 's'} (${formatBytes(bytes)})`;
}
