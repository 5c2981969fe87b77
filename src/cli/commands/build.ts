// `geoshelf build`: validates the manifests and writes the static catalogue
// and JSON API to dist/ (stage: build/build.ts). Prints every problem and
// exits 1 when a manifest is wrong; the previous dist/ is then untouched.
import { buildCatalogue } from '../../../build/build.ts';
import { formatBytes } from '../../../build/site/pages/html.ts';
import { problemSummary } from '../../../build/core/report.ts';
import { buildShard, parseShard, type ShardResult } from '../../../build/shard/shard.ts';
import { mergeShards } from '../../../build/shard/merge.ts';
import { defineCommand, PER_FILE, UsageError, type Output } from '../command.ts';

const usage = `Usage: geoshelf build [--root DIR] [--out DIR] [--base PATH] [--site-url URL] [--quiet] [--json]
       geoshelf build --shard K/N --out DIR [--root DIR] [--base PATH] [--site-url URL]
       geoshelf build --merge DIR… [--out DIR] [--base PATH] [--site-url URL]

Validates every data/{body}/{ISO3}/manifest.json under the root, then writes
the browsable catalogue, the JSON API (api/v1/) and the data files to the
output folder, replacing it in one swap. Any error: all problems are printed,
exit 1, and the previous output is left exactly as it was. Warnings (features
that break the OGC geometry rules) are counted and the site is built.

Options:
  --root DIR       folder holding data/ (default: .)
  --out DIR        output folder (default: dist)
  --base PATH      URL path the site is served under, e.g. /boundaries/ (default: /)
  --site-url URL   origin for absolute sitemap URLs, e.g. https://example.org
                   (without it sitemap.xml lists paths from the base)
  --shard K/N      build shard K of N into the shard folder --out: its countries'
                   files and what the merge needs (docs/deployment.md)
  --merge          merge the shard folders given as arguments, every shard of one
                   build with the same --base and --site-url, into --out: the same
                   bytes as a single build; refused (nothing written) when one is
                   missing, failed, foreign or of another geoshelf
  --quiet          no progress, no summary
  --json           print problems on stdout as a JSON array`;

export default defineCommand({
  usage,
  options: {
    root: { type: 'string', default: '.' },
    out: { type: 'string', default: 'dist' },
    base: { type: 'string', default: '/' },
    'site-url': { type: 'string' },
    shard: { type: 'string' },
    merge: { type: 'boolean', default: false },
    quiet: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  positionals: true,
  async run({ values, positionals }, output) {
    if (values.merge && values.shard !== undefined) throw new UsageError('--shard and --merge: give one');
    if (!values.merge && positionals.length > 0)
      throw new UsageError(`unexpected argument "${positionals[0]}" (only --merge takes folders)`);
    const tty = process.stderr.isTTY && !values.quiet;
    let shown = 0; // when the progress line was last drawn: at most 10 times a second
    const onProgress = tty
      ? (stage: string, done?: number, total?: number) => {
          if (done !== undefined && done !== total && performance.now() - shown < 100) return;
          shown = performance.now();
          const count = total ? ` ${done}/${total}` : '';
          process.stderr.write(`\r\x1b[2Kbuild: ${stage}${count}`);
        }
      : undefined;
    const common = { out: values.out, base: values.base, siteUrl: values['site-url'], onProgress };
    if (values.shard !== undefined) {
      const result = await buildShard({ root: values.root, ...common, ...parseShard(values.shard) });
      if (tty) process.stderr.write('\r\x1b[2K');
      return reportShard(result, values, output);
    }
    const result = values.merge
      ? await mergeShards({ shards: positionals, ...common })
      : await buildCatalogue({ root: values.root, ...common });
    if (tty) process.stderr.write('\r\x1b[2K');
    if (!result.ok) {
      // Errors come last, apart from the warnings (the reporter's order), then the count.
      output.report(result.problems, { perFile: PER_FILE });
      console.error(`geoshelf build: ${problemSummary(result.problems)}; nothing was written`);
      return 1;
    }
    // Listed one by one (at most one per file): only the build sees them.
    if (result.conversionWarnings.length > 0) output.report(result.conversionWarnings);
    if (result.warnings.length > 0 && !values.quiet) {
      const files = new Set(result.warnings.map((p) => p.file)).size;
      const rules = [...new Set(result.warnings.map((p) => p.rule))].sort().join(', '); // e.g. "geometry, nesting"
      console.error(
        `geoshelf build: ${result.warnings.length} warning(s) in ${files} file(s) (${rules}); published anyway (geoshelf validate lists them)`,
      );
    }
    if (!values.quiet) {
      const w = result.write;
      // With --json, stdout holds the JSON array alone.
      (values.json ? console.error : console.log)(
        `built ${result.out}/: ${result.manifests} manifests, ${result.datasets} datasets, ${w.files} files, ` +
          `${formatBytes(w.bytes)}, in ${(result.ms / 1000).toFixed(2)} s ` +
          `(${w.written} written, ${w.reused} unchanged; ${result.geojsonFilesRead} GeoJSON files read)`,
      );
    }
    return 0;
  },
});

/** Prints what a shard did (or its problems) as `build` prints its own, and returns the exit code. */
function reportShard(result: ShardResult, values: { quiet: boolean; json: boolean }, output: Output): number {
  if (!result.ok) {
    output.report(result.problems, { perFile: PER_FILE });
    console.error(
      `geoshelf build: ${problemSummary(result.problems)}; the shard folder says it failed (the merge will name it)`,
    );
    return 1;
  }
  if (result.conversionWarnings.length > 0) output.report(result.conversionWarnings);
  if (!values.quiet) {
    (values.json ? console.error : console.log)(
      `built shard ${result.out}/: ${result.countries} countries, ${result.files} files, ` +
        `${formatBytes(result.bytes)}, in ${(result.ms / 1000).toFixed(2)} s`,
    );
  }
  return 0;
}
