// `geoshelf measure FILE…`: prints the stats of each GeoJSON file as one JSON line.
import { measureGeoJSON } from '../../../build/measure/measure.ts';
import type { Problem } from '../../../build/core/problem.ts';
import { defineCommand, UsageError, UserError } from '../command.ts';

const usage = `Usage: geoshelf measure FILE…

Reads each GeoJSON FeatureCollection once and prints one JSON line per file:
  {"path","bytes","sha256","features","bbox":[w,s,e,n],"geometry_types":{…},"properties":[…]}
properties is the sorted union of the features' property names; bbox is the
plain min/max of every position, with the numbers exactly as in the file
(null for a collection without features). A malformed file is reported on
stderr as "FILE: byte OFFSET: reason"; the other files are still measured and
the exit code is 1.`;

export default defineCommand({
  usage,
  options: {},
  positionals: true,
  async run({ positionals }, out) {
    if (positionals.length === 0) throw new UsageError('give at least one GeoJSON file (see --help)');
    const problems: Problem[] = [];
    for (const path of positionals) {
      try {
        const stats = await measureGeoJSON(path);
        const bbox = stats.bbox.every(Number.isFinite) ? stats.bbox : null;
        console.log(JSON.stringify({ path, ...stats, bbox }));
      } catch (error) {
        if (!(error instanceof UserError)) throw error;
        problems.push(...error.problems);
      }
    }
    return out.report(problems);
  },
});
