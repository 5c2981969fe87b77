// Which shard of a sharded build makes what (docs/deployment.md, "A build
// spread over machines"). The tasks are the countries (one per manifest)
// and what spans countries but reads their data: the world files of each
// body's level and the world map with its tiles. Each weighs the bytes its
// manifests state (a world task an eighth of the bytes it reads: it writes
// three formats of them, a country a dozen things and its checks); tasks
// are taken largest first (ties by name), each to the shard with the fewest
// bytes so far (ties: the lowest K). Every shard reads the same manifests,
// so every shard finds the same assignment.

/** A task as the assignment weighs it, e.g. {id: "data/earth/CHL/manifest.json", bytes: 1284003}. */
export interface ShardTask {
  id: string; // a manifest file, WORLD_MAP, or worldLevelTask(body, level)
  bytes: number;
}

/** The task of the front page's world map and its tiles. */
export const WORLD_MAP = 'world-map';

/** A world task's bytes: an eighth of what it reads (docs/deployment.md). */
const WORLD_SHARE = 8;

/** Returns the task of a level's world files, e.g. "world/earth/ADM1". */
export function worldLevelTask(body: string, level: string): string {
  return `world/${body}/${level}`;
}

/** What a manifest states, as far as it can be read: its body and each dataset's level and bytes. */
interface Stated {
  body?: string;
  levels: { level?: string; bytes: number }[]; // a dataset's file or parts, and its preview
}

/** Returns what the manifest `text` states, or no levels when it is not a readable manifest (its shard reports it). */
function stated(text: string): Stated {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { levels: [] };
  }
  const count = (n: unknown) => (typeof n === 'number' && Number.isFinite(n) && n > 0 ? n : 0);
  const { body, datasets } = (typeof value === 'object' && value !== null ? value : {}) as Record<
    string,
    unknown
  >;
  const levels: Stated['levels'] = [];
  for (const d of Array.isArray(datasets) ? datasets : []) {
    if (typeof d !== 'object' || d === null) continue;
    const { bytes, preview_bytes, parts, level } = d as Record<string, unknown>;
    let sum = count(bytes) + count(preview_bytes);
    for (const p of Array.isArray(parts) ? parts : []) sum += count((p as { bytes?: unknown })?.bytes);
    levels.push({ level: typeof level === 'string' ? level : undefined, bytes: sum });
  }
  return { body: typeof body === 'string' ? body : undefined, levels };
}

/** Returns every task of a tree, from its manifests (path and text), in the tree's order. */
export function shardTasks(manifests: { file: string; text: string }[]): ShardTask[] {
  const countries: ShardTask[] = [];
  const world = new Map<string, number>(); // task → bytes read
  let earth = 0;
  for (const { file, text } of manifests) {
    const { body, levels } = stated(text);
    const bytes = levels.reduce((n, l) => n + l.bytes, 0);
    countries.push({ id: file, bytes });
    if (body === 'earth') earth += bytes;
    for (const l of levels) {
      if (body === undefined || l.level === undefined) continue;
      const task = worldLevelTask(body, l.level);
      world.set(task, (world.get(task) ?? 0) + l.bytes);
    }
  }
  const share = (bytes: number) => Math.ceil(bytes / WORLD_SHARE);
  return [
    ...countries,
    { id: WORLD_MAP, bytes: share(earth) },
    ...[...world].map(([id, bytes]) => ({ id, bytes: share(bytes) })),
  ];
}

/**
 * Returns the tasks of each of `n` shards (index 0 is shard 1), in `tasks`'
 * order within a shard: largest first, each to the lightest shard so far. A
 * shard may get none (more shards than tasks).
 */
export function assignShards(tasks: ShardTask[], n: number): string[][] {
  const order = [...tasks].sort((a, b) => b.bytes - a.bytes || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  const load = new Array<number>(n).fill(0);
  const chosen = new Map<string, number>();
  for (const t of order) {
    let k = 0;
    for (let i = 1; i < n; i++) if (load[i]! < load[k]!) k = i;
    load[k]! += t.bytes;
    chosen.set(t.id, k);
  }
  const shards = Array.from({ length: n }, () => [] as string[]);
  for (const t of tasks) shards[chosen.get(t.id)!]!.push(t.id);
  return shards;
}
