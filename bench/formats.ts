// `npm run bench:formats`: the download formats, against GDAL in the same run.
// 1. A cold `geoshelf build` (new process, empty cache) of a tree holding one
//    ~100 MB level, writing every format and the country zip, against the
//    time ogr2ogr takes to write GeoPackage, FlatGeobuf and Shapefile from the
//    same GeoJSON (one after the other). Three rounds, GDAL and the build
//    interleaved so both see the same load; the best of each. Target ≤ 0.5×.
// 2. The build's peak RSS (GNU time's %M, worker threads included), the
//    largest of the three. Target ≤ 400 MB.
// 3. The no-op rebuild of the sample data (data/, copied to a scratch root),
//    as a ratio of its cold build (with every format). Target ≤ 5 %.
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, linkSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { join } from 'node:path';
import { buildCatalogue, type BuildResult } from '../build/build.ts';
import { measureGeoJSON } from '../build/measure/measure.ts';
import { benchmarkLevel } from './preview-data.ts';

const REPO = new URL('..', import.meta.url).pathname;
const ROUNDS = 3;
const SCRATCH = '/tmp/geoshelf-bench-formats';
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`;

function ok(result: BuildResult): Extract<BuildResult, { ok: true }> {
  if (!result.ok) throw new Error(`build failed: ${result.problems.map((p) => p.message).join('; ')}`);
  return result;
}

/** Returns a root holding data/earth/BEN/ with the benchmark level and its manifest. */
async function benchmarkTree(level: string): Promise<string> {
  const root = join(SCRATCH, 'level');
  rmSync(root, { recursive: true, force: true });
  const folder = join(root, 'data/earth/BEN');
  mkdirSync(folder, { recursive: true });
  linkSync(level, join(folder, 'BEN_ADM2.geojson'));
  const stats = await measureGeoJSON(level);
  const manifest = {
    schema_version: 1,
    body: 'earth',
    iso_a3: 'BEN',
    name: { en: 'Benchmark', es: 'Benchmark' },
    crs: { authority: 'OGC', code: 'CRS84', epsg: 4326 },
    status: 'ok',
    source: {
      name: 'generated',
      url: 'https://example.org/',
      license: 'public-domain',
      retrieved: '2026-11-22',
    },
    datasets: [
      {
        level: 'ADM2',
        path: 'data/earth/BEN/BEN_ADM2.geojson',
        bytes: stats.bytes,
        sha256: stats.sha256,
        features: stats.features,
        bbox: stats.bbox,
        geometry_types: stats.geometry_types,
        properties: stats.properties,
        license: 'public-domain',
      },
    ],
  };
  writeFileSync(join(folder, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return root;
}

/** Runs a command, returning its wall time (ms) and peak RSS (MB) as GNU time reports them. */
function timed(command: string, args: string[]): { ms: number; rssMb: number } {
  const started = performance.now();
  const run = spawnSync('/usr/bin/time', ['-f', '%M', command, ...args], { encoding: 'utf8' });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`${command} failed: ${run.stderr}`);
  const lines = run.stderr.trim().split('\n');
  return { ms, rssMb: Number(lines[lines.length - 1]) / 1024 };
}

async function main() {
  console.log(
    `bench:formats on ${cpus().length} cores, load ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  console.log(execFileSync('ogr2ogr', ['--version'], { encoding: 'utf8' }).trim());
  const level = await benchmarkLevel();
  const root = await benchmarkTree(level);
  const mb = (await measureGeoJSON(level)).bytes / 1e6;

  const gdalDir = join(SCRATCH, 'gdal');
  const rounds: { gdal: Record<string, number>; gdalTotal: number; cold: { ms: number; rssMb: number } }[] =
    [];
  for (let round = 0; round < ROUNDS; round++) {
    // GDAL: GeoPackage, FlatGeobuf, Shapefile, one after the other.
    rmSync(gdalDir, { recursive: true, force: true });
    mkdirSync(gdalDir, { recursive: true });
    const gdal: Record<string, number> = {};
    for (const [driver, file] of [
      ['GPKG', 'a.gpkg'],
      ['FlatGeobuf', 'a.fgb'],
      ['ESRI Shapefile', 'a.shp'],
    ]) {
      gdal[driver] = timed('ogr2ogr', ['-f', driver, join(gdalDir, file), level]).ms;
    }
    const gdalTotal = Object.values(gdal).reduce((a, b) => a + b, 0);
    // geoshelf: a cold build in a new process (as a user runs it), caches and output removed first.
    rmSync(join(root, '.cache'), { recursive: true, force: true });
    rmSync(join(root, 'dist'), { recursive: true, force: true });
    const cold = timed('node', [
      join(REPO, 'bin/geoshelf.js'),
      'build',
      '--root',
      root,
      '--out',
      join(root, 'dist'),
    ]);
    rounds.push({ gdal, gdalTotal, cold });
    console.log(
      `  round ${round + 1}: ogr2ogr GPKG + FGB + SHP ${seconds(gdalTotal)}, geoshelf build ${seconds(cold.ms)} (peak RSS ${cold.rssMb.toFixed(0)} MB)`,
    );
  }
  const best = <T>(items: T[], value: (item: T) => number) =>
    items.reduce((a, b) => (value(b) < value(a) ? b : a));
  const gdalBest = best(rounds, (r) => r.gdalTotal);
  const gdal = gdalBest.gdal;
  const gdalTotal = gdalBest.gdalTotal;
  const cold = {
    ms: best(rounds, (r) => r.cold.ms).cold.ms,
    rssMb: Math.max(...rounds.map((r) => r.cold.rssMb)),
  };

  // No-op rebuild of the sample data, in process.
  const sample = join(SCRATCH, 'sample');
  rmSync(sample, { recursive: true, force: true });
  cpSync(join(REPO, 'data'), join(sample, 'data'), { recursive: true });
  const sampleCold = ok(await buildCatalogue({ root: sample, out: join(sample, 'dist') }));
  const noop: number[] = [];
  for (let i = 0; i < 5; i++) {
    const run = ok(await buildCatalogue({ root: sample, out: join(sample, 'dist') }));
    if (run.write.written !== 0) throw new Error('no-op rebuild wrote files');
    noop.push(run.ms);
  }

  const ratio = cold.ms / gdalTotal;
  const noopRatio = median(noop) / sampleCold.ms;
  console.log(`level: ${mb.toFixed(1)} MB GeoJSON; best of ${ROUNDS} rounds:`);
  for (const [driver, ms] of Object.entries(gdal)) console.log(`  ogr2ogr ${driver}: ${seconds(ms)}`);
  console.log(`  ogr2ogr total (GPKG + FGB + SHP): ${seconds(gdalTotal)}`);
  console.log(`  geoshelf build, cold, all four formats + country zip: ${seconds(cold.ms)}`);
  console.log(`  ratio: ${ratio.toFixed(2)}× (target ≤ 0.5×) ${ratio <= 0.5 ? 'met' : 'MISSED'}`);
  console.log(
    `  peak RSS: ${cold.rssMb.toFixed(0)} MB (target ≤ 400 MB) ${cold.rssMb <= 400 ? 'met' : 'MISSED'}`,
  );
  console.log(`sample data: cold ${seconds(sampleCold.ms)}, no-op median ${seconds(median(noop))}`);
  console.log(
    `  no-op / cold: ${(noopRatio * 100).toFixed(1)} % (target ≤ 5 %) ${noopRatio <= 0.05 ? 'met' : 'MISSED'}`,
  );
  console.log(
    `load after: ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}`,
  );
  rmSync(SCRATCH, { recursive: true, force: true });
}

await main();
