// Helpers shared by `preview` and `split` for changing published files safely:
// dataset fields set in place (key order kept), and a commit step that Ctrl-C
// cannot cut in half.
import type { Dataset } from '../manifest/types.ts';

/**
 * Returns a copy of `dataset` with `fields` set: a key already present keeps
 * its place, a new one goes right after the last present key of `after`
 * (else at the end). A field whose value is `undefined` is removed.
 */
export function withFields(dataset: Dataset, fields: Partial<Dataset>, after: (keyof Dataset)[]): Dataset {
  const entries = Object.entries(dataset);
  const anchor = Math.max(...after.map((key) => entries.findIndex(([k]) => k === key)));
  const fresh = Object.entries(fields).filter(([key]) => !(key in dataset));
  const at = anchor < 0 ? entries.length : anchor + 1;
  const merged = [...entries.slice(0, at), ...fresh, ...entries.slice(at)].map(([key, value]) => [
    key,
    key in fields ? fields[key as keyof Dataset] : value,
  ]);
  return Object.fromEntries(merged.filter(([, value]) => value !== undefined)) as Dataset;
}

/**
 * Runs `commit` (a few renames and an atomic manifest write) with SIGINT and
 * SIGTERM held back, so an interrupt lands before or after it, never inside;
 * the process then exits with 130 (or 143) as it would have.
 */
export async function uninterruptible<T>(commit: () => Promise<T>): Promise<T> {
  let received: NodeJS.Signals | undefined;
  const hold = (signal: NodeJS.Signals) => {
    received ??= signal;
  };
  process.on('SIGINT', hold);
  process.on('SIGTERM', hold);
  try {
    return await commit();
  } finally {
    process.off('SIGINT', hold);
    process.off('SIGTERM', hold);
    if (received) process.kill(process.pid, received);
  }
}
