// Sets fields of a manifest object the way people keep manifests: a key
// already present keeps its place, a new key goes after its neighbours.

/**
 * Returns a copy of `object` with `fields` set: a key already present keeps
 * its place, new ones go (in the order given) right after the last present
 * key of `after`, else at the end. A field whose value is `undefined` is removed.
 */
export function withFields<T extends object>(object: T, fields: Partial<T>, after: string[]): T {
  const entries = Object.entries(object);
  const anchor = Math.max(-1, ...after.map((key) => entries.findIndex(([k]) => k === key)));
  const fresh = Object.entries(fields).filter(([key]) => !(key in object));
  const at = anchor < 0 ? entries.length : anchor + 1;
  const merged = [...entries.slice(0, at), ...fresh, ...entries.slice(at)].map(([key, value]) => [
    key,
    key in fields ? (fields as Record<string, unknown>)[key] : value,
  ]);
  return Object.fromEntries(merged.filter(([, value]) => value !== undefined)) as T;
}

/** Sets `fields` on `object` in place, with the key order of withFields(). */
export function setFields<T extends object>(object: T, fields: Partial<T>, after: string[]): void {
  const next = withFields(object, fields, after);
  for (const key of Object.keys(object)) delete (object as Record<string, unknown>)[key];
  Object.assign(object, next);
}
