// Chooses what each country page draws and draws it (build/map-svg.ts),
// reusing the SVG cached for a file whose size and mtime are unchanged.
import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { cacheFiles, loadCache, saveCache, type MapCache } from '../publish/build-cache.ts';
import type { Dataset, Manifest } from '../manifest/types.ts';
import { renderMapSvg } from './map-svg.ts';
import type { CountryMap } from './pages/country-page.ts';
import type { LoadedManifest } from '../manifest/validate.ts';

/** Largest full file drawn when a level has no preview (the spec's preview limit). */
export const MAX_DRAWN_BYTES = 2_097_152;

const LEVEL_ORDER = ['ADM1', 'ADM0', 'ADM2', 'ADM3', 'ADM4', 'ADM5', 'QUAD'];

/**
 * Returns the file a page draws: a preview first (ADM1 before ADM0, showing
 * the subdivisions), else a full file of at most MAX_DRAWN_BYTES.
 */
export function mapSource(m: Manifest): Omit<CountryMap, 'svg'> | undefined {
  const ordered = [...m.datasets].sort((a, b) => LEVEL_ORDER.indexOf(a.level) - LEVEL_ORDER.indexOf(b.level));
  const preview = ordered.find((d) => d.preview);
  if (preview) return { level: preview.level, from: preview.preview!, preview: true };
  const small = ordered.find((d: Dataset) => d.path && d.bytes !== undefined && d.bytes <= MAX_DRAWN_BYTES);
  if (small) return { level: small.level, from: small.path!, preview: false };
  return undefined;
}

/**
 * Returns the map of every manifest that has something to draw, keyed by
 * manifest file, and counts the files (and bytes) it had to read; SVGs are
 * cached in <root>/.cache/geoshelf/maps.json by drawn file, size and mtime.
 */
export async function drawMaps(
  root: string,
  loaded: LoadedManifest[],
): Promise<{ maps: Map<string, CountryMap>; filesRead: number; bytesRead: number }> {
  const cache = await loadCache<MapCache>(
    cacheFiles(root).maps,
    {},
    (c) => typeof c === 'object' && c !== null,
  );
  const maps = new Map<string, CountryMap>();
  const used: MapCache = {};
  let filesRead = 0;
  let bytesRead = 0;
  for (const { file, manifest } of loaded) {
    const source = mapSource(manifest);
    if (!source) continue;
    const title = `Map of ${manifest.name.en}, ${source.level} ${source.preview ? 'preview' : 'boundaries'}`;
    const info = await stat(join(root, source.from));
    let entry = cache.data[source.from];
    if (!entry || entry.size !== info.size || entry.mtimeMs !== info.mtimeMs || entry.title !== title) {
      filesRead++;
      bytesRead += info.size;
      let svg: string | null;
      try {
        svg = renderMapSvg(JSON.parse(await readFile(join(root, source.from), 'utf8')), title)?.svg ?? null;
      } catch {
        svg = null; // not JSON: the validator reports data files; an unreadable preview just has no map
      }
      entry = { size: info.size, mtimeMs: info.mtimeMs, title, svg };
    }
    used[source.from] = entry;
    if (entry.svg) maps.set(file, { ...source, svg: entry.svg });
  }
  cache.data = used;
  await saveCache(cache);
  return { maps, filesRead, bytesRead };
}
