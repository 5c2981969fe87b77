// Where the tool keeps code it derives from its own sources (worker bundles,
// the compiled manifest schema): node_modules/.cache/geoshelf, the folder
// build tools conventionally use. A run's data cache is elsewhere
// (files.ts cacheDir: <root>/.cache/geoshelf).
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Returns node_modules/.cache/geoshelf of this checkout. Found when called,
 * never at import: this module is part of the worker bundles, where
 * import.meta.url does not exist.
 */
export function toolCacheDir(): string {
  return join(fileURLToPath(new URL('../..', import.meta.url)), 'node_modules', '.cache', 'geoshelf');
}
