// The events the country page's parts (map, units list, search, permalink) use to stay in step.
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
