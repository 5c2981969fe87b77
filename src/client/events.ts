// The events the pages' parts use to stay in step: on a country page the map, units list, search
// and permalink; on the index the table's filter and the world map.
export interface SelectDetail {
  level: string;
  id: string;
  source: 'map' | 'list' | 'search' | 'hash';
}
export interface LevelDetail {
  level: string;
}
export function select(detail: SelectDetail): void {
  document.dispatchEvent(new CustomEvent<SelectDetail>('geoshelf:select', { detail }));
}
export function switchLevel(detail: LevelDetail): void {
  document.dispatchEvent(new CustomEvent<LevelDetail>('geoshelf:level', { detail }));
}
export function onSelect(listener: (detail: SelectDetail) => void): void {
  document.addEventListener('geoshelf:select', (e) => listener((e as CustomEvent<SelectDetail>).detail));
}
export function onLevel(listener: (detail: LevelDetail) => void): void {
  document.addEventListener('geoshelf:level', (e) => listener((e as CustomEvent<LevelDetail>).detail));
}

/** The places the index's table shows (their page URLs, the world map's unit ids), or null for all. */
let places: string[] | null = null;
export function showPlaces(ids: string[] | null): void {
  places = ids;
  document.dispatchEvent(new CustomEvent<string[] | null>('geoshelf:places', { detail: ids }));
}
/** Calls `listener` with the places shown now (the table may have filtered before the map loaded), then on each change. */
export function onPlaces(listener: (ids: string[] | null) => void): void {
  listener(places);
  document.addEventListener('geoshelf:places', (e) => listener((e as CustomEvent<string[] | null>).detail));
}
