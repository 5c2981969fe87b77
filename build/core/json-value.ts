// Shape checks for JSON read back from a cache file, which may be damaged or
// hostile: a cache entry is trusted only when every field it holds checks out.

/** Whether `value` is a JSON object (not null, not an array). */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Whether `value` is a count: a safe integer ≥ 0 (a size in bytes, a number of things). */
export function isCount(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}
