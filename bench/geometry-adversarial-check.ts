// The timed side of bench:geometry's adversarial shapes, run as a child
// process from a bundle of this file (as the CLI runs the checks: no
// TypeScript loader wrapping every function): reads the positions of the
// one feature of a FeatureCollection file, then checks it, first cold, then
// warm (as in a file of many features) until the code is optimised, then
// `repeats` times more. The check is timed apart from the reading, as GEOS's
// is_valid is from shapely's loading. Prints one JSON line: {"first",
// "best", "bestCpu", "read" (seconds), "positions", "issue"}.
import { readFileSync } from 'node:fs';
import { GeometryReader } from '../build/geometry/parse-geometry.ts';
import { checkFlat } from '../build/geometry/validity.ts';

const WARM_RUNS = 200;
const WARM_SECONDS = 3;

const [path, repeats] = process.argv.slice(2);
const text = readFileSync(path!);
// The file is {"type":"FeatureCollection","features":[FEATURE]}: the feature is what lies between.
const bytes = text.subarray(text.indexOf('[') + 1, text.lastIndexOf(']'));
let started = performance.now();
const geometry = new GeometryReader().read(bytes)!;
const read = (performance.now() - started) / 1000;

function once(): { seconds: number; cpu: number; issue: string } {
  const cpu = process.cpuUsage();
  const started = performance.now();
  const issue = checkFlat(geometry);
  const seconds = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  return { seconds, cpu: (used.user + used.system) / 1e6, issue: issue?.message ?? 'valid' };
}

const first = once();
started = performance.now();
for (let k = 0; k < WARM_RUNS && performance.now() - started < WARM_SECONDS * 1000; k++) once();
let best = Infinity;
let bestCpu = Infinity;
for (let k = 0; k < Number(repeats ?? 3); k++) {
  const run = once();
  best = Math.min(best, run.seconds);
  bestCpu = Math.min(bestCpu, run.cpu);
}
console.log(
  JSON.stringify({
    first: first.seconds,
    best,
    bestCpu,
    read,
    positions: geometry.positions,
    issue: first.issue,
  }),
);
