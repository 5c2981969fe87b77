// Writes a release's records into its staged folder: each list (files,
// levels, registry, published files, feed) cut into chunks
// (record-chunks.ts), each chunk stored once across the ledger as
// records/SHA256.json.br (the sha256 of its text, brotli-compressed), so a
// release that changes one country writes only the chunks holding that
// country's items, and release.json names the others.
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import type { RegistryUnit } from '../core/shared/api.ts';
import type { Made } from './identify.ts';
import { brotliParams } from './object-store.ts';
import type { LedgerRelease, ReleaseChunks, SiteFile } from './ledger.ts';
import {
  chunkText,
  cutChunks,
  cutChunksKnowing,
  noMadeChunks,
  sha256Text,
  type MadeChunks,
  type RecordChunk,
  type RecordList,
} from './record-chunks.ts';

/**
 * Writes record chunks into a staged records/ folder, each content the
 * ledger lacks once. A chunk of the previous release that this code cut and
 * wrote (`known`, the made-chunks cache) is found again without its keys
 * hashed or its text made when this release's list holds the same items
 * there; every chunk this release names is from then on known (`made`).
 */
export class RecordWriter {
  readonly made: MadeChunks = noMadeChunks();

  constructor(
    private dir: string,
    private stored: Set<string>,
    private known: MadeChunks,
  ) {}

  /** Returns the sha256s of the chunks of `items`, the list `list`, in order, writing the new ones; `previous` is the previous release's chunks of it. */
  async write<T>(
    list: RecordList,
    items: readonly T[],
    key: (item: T) => string,
    every: number,
    previous: readonly RecordChunk[] = [],
  ): Promise<string[]> {
    const known = previous.filter((chunk) => this.known[list].has(chunk.sha256));
    const shas: string[] = [];
    for (const chunk of cutChunksKnowing(items, key, every, known)) {
      const sha = chunk.known?.sha256 ?? (await this.store(chunk.items));
      this.made[list].add(sha);
      shas.push(sha);
    }
    return shas;
  }

  /**
   * Returns the sha256s of the index chunks naming `shas` (a list's chunks,
   * in order), writing the new ones: runs cut where a sha256 ends one, as
   * the lists' own chunks are, so that a release that changes a few chunks
   * writes only the index chunks naming them (ledger_version 4).
   */
  async index(shas: readonly string[]): Promise<string[]> {
    const index: string[] = [];
    for (const run of cutChunks(shas, (sha) => sha, INDEX_EVERY)) index.push(await this.store(run));
    return index;
  }

  /** Returns the sha256 of a chunk of `items`, written brotli-compressed unless the ledger holds it. */
  private async store(items: readonly unknown[]): Promise<string> {
    const text = chunkText(items);
    const sha = sha256Text(text);
    if (!this.stored.has(sha)) {
      this.stored.add(sha);
      await mkdir(this.dir, { recursive: true });
      const packed = brotliCompressSync(text, { params: brotliParams(9, Buffer.byteLength(text)) });
      await writeFile(join(this.dir, `${sha}.json.br`), packed);
    }
    return sha;
  }
}

/**
 * An index chunk ends after a sha256 that is 0 modulo this: about 32 names
 * a chunk (some 2 kB), so the sample's ~870 chunks take ~30 names in
 * release.json instead of 58 kB, and a one-country release writes a few
 * index chunks.
 */
const INDEX_EVERY = 32;

/** Writes every list of a release's record, and returns the index chunks release.json names. */
export async function writeRecords(
  writer: RecordWriter,
  made: Made,
  site: SiteFile[],
  previous: LedgerRelease | undefined,
): Promise<ReleaseChunks> {
  const chunks = await writeLists(writer, made, site, previous);
  const names = Object.entries(chunks) as [keyof ReleaseChunks, string[]][];
  const index: Partial<ReleaseChunks> = {};
  for (const [list, shas] of names) index[list] = await writer.index(shas);
  return index as ReleaseChunks;
}

/** Writes the chunks of every list of a release's record; returns their sha256s by list. */
async function writeLists(
  writer: RecordWriter,
  made: Made,
  site: SiteFile[],
  previous: LedgerRelease | undefined,
): Promise<ReleaseChunks> {
  const before = previous?.chunks;
  return {
    files: await writer.write('files', made.record.files, (f) => f.path, 12, before?.files),
    levels: await writer.write(
      'levels',
      made.record.levels,
      (l) => `${l.body}/${l.country}/${l.level}`,
      8,
      before?.levels,
    ),
    registry: await writer.write(
      'registry',
      storedRegistry(made),
      (u) => `${u.country}/${u.level}/${u.id}`,
      32,
      before?.registry,
    ),
    site: await writer.write('site', site, (f) => f.path, 12, before?.site),
    // A feed is new with each release: cut only so that no chunk grows without bound.
    changes: await writer.write('changes', made.changes, (c) => JSON.stringify(c), 64),
  };
}

/**
 * The registry as the chunks keep it: by country, level and ID, so that a
 * country's units share chunks; without last_seen for the units of this
 * release, which would otherwise change every chunk every release (a copy
 * whose last_seen is undefined, which JSON leaves out where it stood).
 */
function storedRegistry(made: Made): Omit<RegistryUnit, 'last_seen'>[] {
  const live = new Set(made.record.levels.flatMap((l) => l.ids));
  return byCountryLevelId(made.registry).map((u) => (live.has(u.id) ? { ...u, last_seen: undefined } : u));
}

/**
 * Returns `units` sorted by `${country}/${level}/${id}`. When they come in
 * ID order (as identify gives them), by country and level, each group in ID
 * order: without a "/" in a country or level no group's key begins
 * another's, so that is the same order, found without comparing every pair.
 */
function byCountryLevelId(units: RegistryUnit[]): RegistryUnit[] {
  const grouped = units.every(
    (u, i) => !u.country.includes('/') && !u.level.includes('/') && (i === 0 || units[i - 1]!.id < u.id),
  );
  if (!grouped) {
    const keyed = units.map((u) => ({ key: `${u.country}/${u.level}/${u.id}`, u }));
    return keyed.sort((a, b) => (a.key < b.key ? -1 : 1)).map(({ u }) => u);
  }
  const groups = new Map<string, RegistryUnit[]>();
  for (const u of units) {
    const key = `${u.country}/${u.level}/`;
    const group = groups.get(key);
    if (group) group.push(u);
    else groups.set(key, [u]);
  }
  return [...groups.keys()].sort().flatMap((key) => groups.get(key)!);
}
