// `npm run bench:parquet`: GeoParquet writing (build/formats/geoparquet.ts)
// on the sample's largest level (USA ADM2) against GeoPandas's to_parquet
// in the same run (GDAL here has no Parquet driver, so `ogr2ogr -f Parquet`
// cannot be the reference). Both go from the GeoJSON file to a GeoParquet
// file with a bbox covering column: ours scans and parses the source and
// writes; GeoPandas reads it (read_file) and writes (to_parquet); its
// to_parquet alone is shown too. CPU time (user + sys, every thread) is the
// measure, as the machine is shared; wall time beside it. The writer alone
// (ours minus a scan and parse without it, which a build shares with the
// other formats) is set against to_parquet alone. Best of ROUNDS
// rounds each (default 5) after a warm-up, the two sides interleaved.
// Target: ours ≤ 0.5× GeoPandas. GeoPandas runs from PYTHON (default
// .venv-oracle/bin/python, which needs `pip install geopandas pyarrow`).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openGeoParquet } from '../build/formats/geoparquet.ts';
import { pump, scanSource } from '../build/formats/source-scan.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const PYTHON = process.env.PYTHON ?? join(ROOT, '.venv-oracle/bin/python');
const SOURCE = join(ROOT, 'data/earth/USA/USA_ADM2.geojson');
const ROUNDS = Number(process.env.ROUNDS ?? 5);
const TIMEOUT_MS = 300_000;

interface Run {
  cpu: number; // seconds
  wall: number;
}

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
const best = (runs: Run[], key: keyof Run) => Math.min(...runs.map((r) => r[key]));

/** Writes SOURCE as GeoParquet to `out` in this process; returns its CPU and wall seconds. */
async function ours(out: string): Promise<Run> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const scan = await scanSource(SOURCE);
  await pump(SOURCE, scan, [await openGeoParquet(out, scan, { authority: 'OGC', code: 'CRS84' })]);
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1e6, wall: (performance.now() - wall) / 1000 };
}

/** Scans and parses SOURCE without writing (what the build shares among the formats); returns its CPU and wall seconds. */
async function parseOnly(): Promise<Run> {
  const cpu = process.cpuUsage();
  const wall = performance.now();
  const scan = await scanSource(SOURCE);
  await pump(SOURCE, scan, []);
  const used = process.cpuUsage(cpu);
  return { cpu: (used.user + used.system) / 1e6, wall: (performance.now() - wall) / 1000 };
}

/** Runs one round of GeoPandas (after its own warm-up); returns file-to-file and to_parquet-alone runs. */
function geopandas(out: string): { whole: Run; write: Run } {
  const text = execFileSync(PYTHON, [join(ROOT, 'bench/parquet_geopandas.py'), SOURCE, out, '1'], {
    encoding: 'utf8',
    timeout: TIMEOUT_MS,
  });
  const [r] = JSON.parse(text) as { cpu: number; wall: number; write_cpu: number; write_wall: number }[];
  return { whole: { cpu: r.cpu, wall: r.wall }, write: { cpu: r.write_cpu, wall: r.write_wall } };
}

if (!existsSync(PYTHON)) {
  console.error(`bench:parquet needs GeoPandas in ${PYTHON} (or PYTHON=…):`);
  console.error('  python3 -m venv .venv-oracle && .venv-oracle/bin/pip install geopandas pyarrow shapely');
  process.exit(1);
}
const dir = mkdtempSync(join(tmpdir(), 'geoshelf-bench-parquet-'));
try {
  console.log(`source: ${SOURCE.slice(ROOT.length)} (${statSync(SOURCE).size.toLocaleString('en')} bytes)`);
  console.log(`load before: ${load()}`);
  await ours(join(dir, 'warm.parquet'));
  const mine: Run[] = [];
  const parsed: Run[] = [];
  const theirs: Run[] = [];
  const theirWrites: Run[] = [];
  for (let i = 0; i < ROUNDS; i++) {
    mine.push(await ours(join(dir, 'ours.parquet')));
    parsed.push(await parseOnly());
    const { whole, write } = geopandas(join(dir, 'geopandas.parquet'));
    theirs.push(whole);
    theirWrites.push(write);
  }
  const size = (name: string) => statSync(join(dir, name)).size.toLocaleString('en');
  const line = (label: string, runs: Run[]) =>
    `${label}: CPU ${best(runs, 'cpu').toFixed(3)} s, wall ${best(runs, 'wall').toFixed(3)} s (best of ${runs.length})`;
  console.log(line('geoshelf   GeoJSON → GeoParquet', mine) + `, ${size('ours.parquet')} bytes`);
  const writer = best(mine, 'cpu') - best(parsed, 'cpu');
  console.log(line('geoshelf   scan + parse alone', parsed));
  console.log(`geoshelf   the writer alone (the two above): CPU ${writer.toFixed(3)} s`);
  console.log(line('GeoPandas  read_file + to_parquet', theirs) + `, ${size('geopandas.parquet')} bytes`);
  console.log(line('GeoPandas  to_parquet alone', theirWrites));
  const ratio = best(mine, 'cpu') / best(theirs, 'cpu');
  const writeRatio = best(mine, 'cpu') / best(theirWrites, 'cpu');
  console.log(`ratio (CPU): ${ratio.toFixed(2)}× GeoPandas file to file (target ≤ 0.5×)`);
  console.log(
    `            the writer alone ${(writer / best(theirWrites, 'cpu')).toFixed(2)}× its to_parquet alone (${writeRatio.toFixed(2)}× with our parse)`,
  );
  console.log(`load after: ${load()}`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
