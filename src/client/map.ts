// The country page's map, explorable: the build-time SVG (the no-script
// picture) gets pan and zoom (wheel, drag, pinch, buttons, keyboard) by
// moving its viewBox, a level switch (each other level's SVG is fetched when
// chosen), and naming: clicking, tapping or focusing a unit shows its name,
// code and parent with a link to its entry in the units list. No library:
// the SVG is already drawn, so this is a few hundred lines, not a map engine.
// On the first interaction it loads tile-layer.ts, which draws the level's
// full-detail tiles (data-tiles) over the picture for the view in sight.
// It listens to the page's selection and level events (events.ts): a unit
// chosen in the list, a search result or a permalink is highlighted, framed
// and named here; a unit clicked here is announced to them. The index's world
// map (data-world) is the same map whose units are countries: choosing one
// opens its page, and the table's filter highlights its matches.
// The parts: map-view.ts (view box, highlight, tiles), map-selection.ts
// (naming), map-levels.ts (level switch), map-input.ts (pointer, wheel, keys).
import type { TilesInfo } from '../../build/core/shared/tiles.ts';
import { countryDocument, unitAnchor } from './country-data.ts';
import { onLevel, onPlaces, onSelect, select as announce, type SelectDetail } from './events.ts';
import { listenToKeys, listenToPointer, listenToWheel } from './map-input.ts';
import { MapLevels } from './map-levels.ts';
import { MapSelection } from './map-selection.ts';
import { MapView } from './map-view.ts';
import { permalinkId } from './permalink.ts';

function button(label: string, text: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.title = label;
  b.addEventListener('click', onClick);
  return b;
}

/** Puts the viewport (a focusable group) in place of `svg`, and the naming line below it. */
function buildViewport(svg: SVGSVGElement): { viewport: HTMLDivElement; info: HTMLParagraphElement } {
  const viewport = document.createElement('div');
  viewport.className = 'map-view';
  viewport.tabIndex = 0;
  viewport.setAttribute('role', 'group');
  viewport.setAttribute(
    'aria-label',
    'Map: drag or use the arrow keys to pan, the wheel or + and − to zoom, Tab to reach the units',
  );
  svg.replaceWith(viewport);
  const info = document.createElement('p');
  info.className = 'map-info';
  info.setAttribute('role', 'status');
  return { viewport, info };
}

/** Zoom and reset buttons, and "Show all" when some shapes lie outside the main territory. */
function addViewButtons(tools: HTMLElement, map: MapView): void {
  tools.append(
    button('Zoom in', '+', () => map.zoom(1 / 1.5)),
    button('Zoom out', '−', () => map.zoom(1.5)),
    button('Reset the view to the main territory', 'Reset', () => map.show(map.home)),
  );
  if (map.all !== map.home) {
    // The accessible name starts with the visible text (WCAG 2.5.3, label in name), so "show all" by voice works.
    tools.append(button('Show all shapes, outlying islands too', 'Show all', () => map.show(map.all)));
  }
}

/** Follows the page's selection and level events, and permalinks (#unit-US-TX). */
function followPage(
  map: MapView,
  levels: MapLevels,
  selection: MapSelection,
  maps: Record<string, string>,
): void {
  /** A unit selected elsewhere on the page (list, search, permalink): shown at its level, framed, named. */
  const onSelected = async (detail: SelectDetail) => {
    if (detail.source === 'map') return; // named already, by the click that announced it
    await levels.show(detail.level ?? map.level);
    map.frameUnit(detail.id);
    map.interacted();
    await selection.name(detail.id);
  };
  onSelect((detail) => void onSelected(detail));
  onLevel(({ level }) => void levels.show(level));

  /** A permalink (#unit-US-TX) selects its unit: at the level that has it. */
  const follow = async () => {
    const named = permalinkId(location.hash);
    if (named === undefined) return;
    const doc = await countryDocument();
    const id = unitAnchor(doc, named);
    const current = map.level;
    const having = Object.entries(doc?.units ?? {}).filter(([, us]) => us?.some((u) => u.id === id));
    const level = having.find(([l]) => l === current)?.[0] ?? having.find(([l]) => l in maps)?.[0];
    if (level) await onSelected({ level, id, source: 'hash' });
  };
  window.addEventListener('hashchange', () => void follow());
  void follow();
}

/**
 * Turns `figure` (with data-maps, and an inline SVG or an image of one) into
 * the explorable map.
 */
export async function enhanceMap(figure: HTMLElement): Promise<void> {
  const maps = JSON.parse(figure.dataset.maps ?? '{}') as Record<string, string>;
  const tilesOf = JSON.parse(figure.dataset.tiles ?? '{}') as Record<string, TilesInfo>;
  const svg = figure.querySelector('svg') ?? (await pictureInPlace(figure));
  if (!svg) return;
  const { viewport, info } = buildViewport(svg);
  const tools = document.createElement('div');
  tools.className = 'map-tools';
  figure.prepend(tools);
  viewport.after(info);

  const world = figure.dataset.world !== undefined;
  const map = new MapView(figure, viewport, svg, tilesOf);
  const selection = new MapSelection(map, info, figure.querySelector('figcaption'), tilesOf, world);
  const levels = new MapLevels(figure, maps, map, selection); // keeps the picture as built, before wiring
  map.wire(svg, (id) => void selection.name(id));

  addViewButtons(tools, map);
  levels.addSelect(tools);
  listenToWheel(map);
  viewport.addEventListener('focusin', () => map.interacted());
  tools.addEventListener('click', () => map.interacted());
  listenToKeys(map);
  if (world) {
    followIndex(map, selection);
    return;
  }
  listenToPointer(map, (id) => {
    void selection.name(id);
    announce({ level: map.level, id, source: 'map' });
  });
  followPage(map, levels, selection, maps);
}

/**
 * A release's front page shows its world map as an image of its own file
 * (build/site/site.ts): fetches the SVG and puts it in the image's place,
 * without the style that drew it as an image. Returns null (the image stays)
 * when there is none or it cannot be fetched.
 */
async function pictureInPlace(figure: HTMLElement): Promise<SVGSVGElement | null> {
  const image = figure.querySelector<HTMLImageElement>('img.map-picture');
  if (!image) return null;
  const text = await fetch(image.src)
    .then((response) => (response.ok ? response.text() : undefined))
    .catch(() => undefined);
  if (text === undefined) return null;
  const holder = document.createElement('div');
  holder.innerHTML = text; // our own build output, escaped when written
  const svg = holder.querySelector('svg');
  if (!svg) return null;
  svg.querySelector(':scope > style')?.remove();
  image.replaceWith(svg);
  return svg;
}

/**
 * The index's world map: pointing at or focusing a country names it; a
 * click, Enter, or a second tap on the country a first tap named (a touch
 * reader sees the name before leaving) opens its page; the countries the
 * table's filter shows are highlighted.
 */
function followIndex(map: MapView, selection: MapSelection): void {
  let touch = false;
  let tapped: string | undefined; // the country the last tap named (a tap also focuses, which names it too)
  map.viewport.addEventListener('pointerdown', (e) => (touch = e.pointerType === 'touch'));
  listenToPointer(map, (id) => {
    if (!touch || tapped === id) return location.assign(id);
    tapped = id;
    void selection.name(id);
  });
  map.viewport.addEventListener('pointerover', (e) => {
    const shape = (e.target as Element).closest?.('[data-u], [data-t]') as SVGElement | null;
    const id = shape?.dataset.u ?? shape?.dataset.t;
    if (id !== undefined && e.pointerType === 'mouse') void selection.name(id);
  });
  map.viewport.addEventListener('keydown', (e) => {
    const id = (e.target as SVGElement).dataset?.u;
    if (e.key === 'Enter' && id !== undefined) location.assign(id);
  });
  onPlaces((ids) => {
    map.matches = ids && new Set(ids);
    map.highlight();
  });
}
