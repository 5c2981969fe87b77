// `geoshelf preview`: parses flags, runs the preview stage
// (build/preview/write-previews.ts) and prints what it did.
import { MAX_PREVIEW_BYTES } from '../../../build/core/shared/manifest.ts';
import { writePreviews } from '../../../build/preview/write-previews.ts';
import { capitals, defineCommand, parseIntegerFlag, UsageError } from '../command.ts';

const usage = `Usage: geoshelf preview [--root DIR] [--max-bytes N] [--method visvalingam|douglas-peucker] [--force] [--json] [ISO3[/LEVEL]…]

Writes data/{body}/{ISO3}/preview/{ISO3}_{LEVEL}.preview.geojson for each
dataset (all of them, or those named, e.g. "CHL" or "chl/adm1"): every feature
kept with its identifying properties, shared borders simplified once, as little
simplification as fits the byte budget, coordinates rounded to match the
tolerance. Records preview, preview_bytes and simplification in the manifest.
Datasets whose input and options are unchanged since their last preview are
skipped (a cache in <root>/.cache/geoshelf/previews.json).

Options:
  --root DIR        folder holding data/ (default: the current folder)
  --max-bytes N     byte budget of each preview, at most ${MAX_PREVIEW_BYTES} (default)
  --method NAME     visvalingam (default) or douglas-peucker
  --force           remake previews even when nothing changed
  --json            print problems as a JSON array`;

export default defineCommand({
  usage,
  options: {
    root: { type: 'string', default: '.' },
    'max-bytes': { type: 'string', default: String(MAX_PREVIEW_BYTES) },
    method: { type: 'string', default: 'visvalingam' },
    force: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
  },
  positionals: true,
  async run({ values, positionals }, out) {
    const method = values.method;
    if (method !== 'visvalingam' && method !== 'douglas-peucker') {
      throw new UsageError(`--method: expected visvalingam or douglas-peucker, got "${method}"`);
    }
    const maxBytes = parseIntegerFlag('max-bytes', values['max-bytes'], 1, MAX_PREVIEW_BYTES);
    const { events, problems } = await writePreviews(values.root, capitals(positionals), {
      maxBytes,
      method,
      force: values.force,
    });
    for (const e of events) {
      if (e.skipped) console.log(`${out.path(e.preview)}: unchanged, skipped`);
      else {
        const { method: m, tolerance_m } = e.simplification;
        console.log(
          `${out.path(e.preview)}: ${e.bytes} bytes, ${m} ${tolerance_m} m, ${e.decimals} decimals, ` +
            `${e.vertices} of ${e.inputVertices} border vertices kept, ${e.passes} ${e.passes === 1 ? 'pass' : 'passes'}`,
        );
      }
    }
    return out.report(problems);
  },
});
