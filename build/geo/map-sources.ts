// Chooses the level each country page draws first (the other levels are a
// switch away); build/site/atlas.ts draws every drawable level and keeps
// this one's map as its main map.
import type { Dataset, Level, Manifest } from '../core/shared/manifest.ts';

/** The map a country page shows first. */
export interface CountryMap {
  svg: string; // from renderMapSvg()
  level: Level; // e.g. "ADM1"
  from: string; // the file drawn, e.g. "data/earth/CHL/preview/CHL_ADM1.preview.geojson"
  preview: boolean; // whether `from` is the preview (else the full file)
}

/** Largest full file drawn when a level has no preview (the spec's preview limit). */
const MAX_DRAWN_BYTES = 2_097_152;

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

/** Returns the file a level's map is drawn from: its preview, else the full file when at most MAX_DRAWN_BYTES. */
export function drawnSource(d: Dataset): string | undefined {
  if (d.preview) return d.preview;
  if (d.path && d.bytes !== undefined && d.bytes <= MAX_DRAWN_BYTES) return d.path;
  return undefined;
}
