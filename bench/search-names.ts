// `npm run bench:search-names`: the share of the sample's ISO 3166-2
// subdivisions whose English name differs from their local name
// (bench/search-names.tsv, one per line: code, English name) that the place
// search finds by the English name, ranked as the browser ranks them (the
// shards of the query's words). Reads data/earth's ADM1 files; writes nothing.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CountryAtlas } from '../build/site/atlas.ts';
import { renderSearchIndex } from '../build/site/search-index.ts';
import { levelUnits } from '../build/site/units.ts';
import type { LoadedManifest } from '../build/manifest/validate.ts';
import type { SearchRecord } from '../build/core/shared/api.ts';
import type { Manifest } from '../build/core/shared/manifest.ts';
import { queryShardKeys, rank } from '../src/client/place-ranking.ts';

const ROOT = join(import.meta.dirname, '..');
const loaded: LoadedManifest[] = [];
const atlas = new Map<string, CountryAtlas>();
for (const iso of readdirSync(join(ROOT, 'data/earth')).sort()) {
  const file = `data/earth/${iso}/manifest.json`;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(join(ROOT, file), 'utf8')) as Manifest;
  } catch {
    continue; // not a country folder
  }
  loaded.push({ file, manifest, text: '' });
  const adm1 = manifest.datasets.find((d) => d.level === 'ADM1');
  if (!adm1?.path) continue;
  const { features } = JSON.parse(readFileSync(join(ROOT, adm1.path), 'utf8')) as {
    features: Parameters<typeof levelUnits>[0];
  };
  atlas.set(file, { levels: [{ level: 'ADM1', units: levelUnits(features, adm1) }] } as CountryAtlas);
}
const started = performance.now();
const shards = renderSearchIndex(loaded, atlas);
const indexMs = performance.now() - started;

const reference = readFileSync(join(import.meta.dirname, 'search-names.tsv'), 'utf8')
  .split('\n')
  .filter((line) => line && !line.startsWith('#'))
  .map((line) => line.split('\t') as [string, string]);
let found = 0;
let first = 0;
const misses: string[] = [];
for (const [code, english] of reference) {
  const records = queryShardKeys(english).map((key) => {
    const text = shards.get(`search/${key}.json`);
    return text ? (JSON.parse(text) as SearchRecord[]) : [];
  });
  const place = rank(records, english).findIndex((hit) => hit.record[6].endsWith(`#unit-${code}`));
  if (place >= 0) found++;
  if (place === 0) first++;
  if (place !== 0) misses.push(`${code} "${english}": ${place < 0 ? 'not found' : `#${place + 1}`}`);
}
const pct = (n: number) => `${((100 * n) / reference.length).toFixed(1)} %`;
console.log(
  `countries: ${loaded.length}, with ADM1: ${atlas.size}; search index: ${shards.size} shards in ${indexMs.toFixed(0)} ms`,
);
console.log(
  `found by English name: ${found}/${reference.length} (${pct(found)}), first: ${first}/${reference.length} (${pct(first)})`,
);
for (const miss of misses) console.log(`  ${miss}`);
console.log(`load: ${readFileSync('/proc/loadavg', 'utf8').trim()}`);
