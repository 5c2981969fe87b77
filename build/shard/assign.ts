// Which shard of a sharded build makes which country (docs/deployment.md,
// "A build spread over machines"): countries by their stated bytes, largest
// first (ties by body, then ISO3 folder), each to the shard with the fewest
// bytes so far (ties: the lowest K). Every shard reads the same manifests,
// so every shard, and the merge, finds the same assignment.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** A country as the assignment weighs it, e.g. {file: "data/earth/CHL/manifest.json", bytes: 1284003}. */
export interface ShardCountry {
  file: string;
  bytes: number; // what its manifest states: datasets, parts and previews (0 when it cannot be read)
}

/** Returns the bytes the manifest `text` states for its data files, or 0 when it is not a readable manifest. */
export function statedBytes(text: string): number {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 0; // the shard that makes this country reports it
  }
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
  const datasets = (value as { datasets?: unknown })?.datasets;
  let bytes = 0;
  for (const d of Array.isArray(datasets) ? datasets : []) {
    if (typeof d !== 'object' || d === null) continue;
    const { bytes: own, preview_bytes, parts } = d as Record<string, unknown>;
    bytes += count(own) + count(preview_bytes);
    for (const p of Array.isArray(parts) ? parts : []) bytes += count((p as { bytes?: unknown })?.bytes);
  }
  return bytes;
}

/** Returns each manifest of `files` (relative to `root`) with the bytes it states. */
export function shardCountries(root: string, files: string[]): ShardCountry[] {
  return files.map((file) => {
    let text = '';
    try {
      text = readFileSync(join(root, file), 'utf8');
    } catch {
      // unreadable: weighs nothing here; the shard that makes it reports it
    }
    return { file, bytes: statedBytes(text) };
  });
}

/**
 * Returns the manifest files of each of `n` shards (index 0 is shard 1), in
 * `countries`' order within a shard: largest first, each to the lightest
 * shard so far. A shard may get none (more shards than countries).
 */
export function assignShards(countries: ShardCountry[], n: number): string[][] {
  const order = [...countries].sort(
    (a, b) => b.bytes - a.bytes || (a.file < b.file ? -1 : a.file > b.file ? 1 : 0),
  );
  const load = new Array<number>(n).fill(0);
  const chosen = new Map<string, number>();
  for (const c of order) {
    let k = 0;
    for (let i = 1; i < n; i++) if (load[i]! < load[k]!) k = i;
    load[k]! += c.bytes;
    chosen.set(c.file, k);
  }
  const shards = Array.from({ length: n }, () => [] as string[]);
  for (const c of countries) shards[chosen.get(c.file)!]!.push(c.file);
  return shards;
}
