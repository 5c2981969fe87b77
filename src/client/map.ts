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
// and named here; a unit clicked here is announced to them.
import type { TilesInfo } from '../shared/tiles.ts';
import { countryDocument, parentName, type CountryDocument } from './country-data.ts';
import { onLevel, onSelect, select as announce, switchLevel, type SelectDetail } from './events.ts';
import { updateLabels } from './labels.ts';
import { updateMarkers } from './markers.ts';
import type { TileLayer } from './tile-layer.ts';
import { panBy, zoomAt, type View } from './view.ts';

const MAX_ZOOM = 64;
/** Margin around a unit framed on selection, as a share of its size. */
const FRAME_MARGIN = 0.15;

function viewOf(svg: SVGSVGElement): View {
  const [x, y, w, h] = (svg.getAttribute('viewBox') ?? '0 0 600 400').split(/\s+/).map(Number);
  return { x, y, w, h };
}

function button(label: string, text: string, onClick: () => void): HTMLButtonElement {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.setAttribute('aria-label', label);
  b.title = label;
  b.addEventListener('click', onClick);
  return b;
}

/** Turns `figure` (with data-maps and an inline SVG) into the explorable map. */
export function enhanceMap(figure: HTMLElement): void {
  const maps = JSON.parse(figure.dataset.maps ?? '{}') as Record<string, string>;
  const tilesOf = JSON.parse(figure.dataset.tiles ?? '{}') as Record<string, TilesInfo>;
  const caption = figure.querySelector('figcaption');
  const captionText = caption?.textContent ?? '';
  const svgs = new Map<string, Promise<string>>();
  let svg = figure.querySelector('svg')!;
  if (!svg) return;
  svgs.set(figure.dataset.level ?? '', Promise.resolve(svg.outerHTML));

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
  info.textContent = 'Click, tap or focus a unit to name it.';
  const tools = document.createElement('div');
  tools.className = 'map-tools';
  figure.prepend(tools);
  viewport.after(info);

  let home: View = viewOf(svg);
  let all: View = home;
  let view: View = home;
  let layer: TileLayer | undefined;
  let active = false; // whether the reader has interacted: tiles load from then on
  let frame = 0;
  /** Returns screen pixels per SVG unit at the current view. */
  const pxPerUnit = () => {
    const r = viewport.getBoundingClientRect();
    return Math.min(r.width / view.w, r.height / view.h) || 600 / view.w;
  };
  const refresh = () => {
    frame = 0;
    const k = pxPerUnit();
    updateMarkers(svg, k);
    updateLabels(svg, view, k);
    if (layer) void layer.update(view, k).then((drawn) => drawn && highlight());
  };
  const apply = () => {
    svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
    if (!frame) frame = requestAnimationFrame(refresh);
  };
  /** Starts the full-detail tiles of the current level (once the reader interacts). */
  const startTiles = async () => {
    active = true;
    const level = figure.dataset.level ?? '';
    const info = tilesOf[level];
    if (!info || layer) return;
    const [{ TileLayer }, doc] = await Promise.all([import('./tile-layer.ts'), countryDocument()]);
    if ((figure.dataset.level ?? '') !== level || layer) return;
    const units = doc?.units[level as keyof CountryDocument['units']];
    layer = new TileLayer(svg, info, info.named && units ? units.map((u) => u.id) : undefined);
    apply();
  };
  const interacted = () => {
    if (!active) void startTiles();
  };
  const zoom = (factor: number, cx = view.x + view.w / 2, cy = view.y + view.h / 2) => {
    view = zoomAt(view, factor, cx, cy, home.w / MAX_ZOOM, Math.max(all.w, home.w) * 1.5);
    apply();
  };
  const pan = (dx: number, dy: number) => {
    view = panBy(view, dx, dy);
    apply();
  };

  let selectedId: string | undefined;
  /** Marks every shape of the selected unit (picture, tiles, markers). */
  const highlight = () => {
    for (const el of svg.querySelectorAll('.selected')) el.classList.remove('selected');
    if (selectedId === undefined) return;
    for (const el of svg.querySelectorAll<SVGElement>('[data-u], [data-t]')) {
      if ((el.dataset.u ?? el.dataset.t) === selectedId) el.classList.add('selected');
    }
  };
  /** Names unit `id` of the level shown below the map and in the caption, and highlights it. */
  const name = async (id: string) => {
    selectedId = id;
    highlight();
    const path = [...svg.querySelectorAll<SVGPathElement>('path[data-u]')].find((p) => p.dataset.u === id);
    const title = path?.querySelector('title')?.textContent ?? id;
    info.replaceChildren(document.createElement('strong'));
    info.firstElementChild!.textContent = title;
    const doc = await countryDocument();
    if (selectedId !== id) return;
    const level = figure.dataset.level ?? '';
    const unit = doc && (doc.units[level as keyof CountryDocument['units']] ?? []).find((u) => u.id === id);
    if (unit) info.firstElementChild!.textContent = unit.name || title;
    const details = unit
      ? [unit.code && `code ${unit.code}`, unit.parent && `in ${parentName(doc!, unit.parent)}`].filter(
          Boolean,
        )
      : [];
    if (details.length) info.append(` (${details.join(', ')})`);
    if (unit && document.getElementById(`units`)) {
      const link = document.createElement('a');
      link.href = `#unit-${id}`;
      link.textContent = 'entry in the units list';
      info.append(' · ', link);
    }
    setCaption(unit?.name ?? title);
  };
  /** The caption names the level shown and the unit selected, and says where the detail comes from. */
  const setCaption = (unitName?: string) => {
    if (!caption) return;
    const level = figure.dataset.level ?? '';
    const detail = tilesOf[level] ? ' Zooming in loads the full-detail boundaries of this level.' : '';
    const base = level === initialLevel ? captionText : `${level} boundaries, drawn at build time.`;
    caption.textContent = `${unitName ? `${unitName} (${level}). ` : ''}${base}${detail}`;
  };
  /** Frames the unit's shape (its picture's box) with a margin, keeping the viewport's shape. */
  const frameUnit = (id: string) => {
    const shapes = [...svg.querySelectorAll<SVGGraphicsElement>('path.f[data-u], circle.m[data-u]')].filter(
      (p) => p.dataset.u === id,
    );
    if (shapes.length === 0) return;
    let [x0, y0, x1, y1] = [Infinity, Infinity, -Infinity, -Infinity];
    for (const s of shapes) {
      const b = s.getBBox();
      [x0, y0, x1, y1] = [
        Math.min(x0, b.x),
        Math.min(y0, b.y),
        Math.max(x1, b.x + b.width),
        Math.max(y1, b.y + b.height),
      ];
    }
    const aspect = home.h / home.w;
    const minW = home.w / MAX_ZOOM;
    let w = Math.max((x1 - x0) * (1 + 2 * FRAME_MARGIN), minW);
    let h = Math.max((y1 - y0) * (1 + 2 * FRAME_MARGIN), w * aspect);
    w = Math.max(w, h / aspect);
    h = w * aspect;
    view = { x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - h / 2, w, h };
    apply();
  };

  const wire = () => {
    svg.setAttribute('role', 'group'); // was "img": its units are now focusable
    const paths = [...svg.querySelectorAll<SVGPathElement>('path[data-u]')];
    paths.forEach((path, i) => {
      path.tabIndex = i === 0 ? 0 : -1; // one tab stop; arrow keys move between units
      path.setAttribute('role', 'button');
      path.setAttribute('aria-label', path.querySelector('title')?.textContent ?? path.dataset.u ?? '');
      path.addEventListener('focus', () => void name(path.dataset.u ?? ''));
      path.addEventListener('keydown', (event) => {
        const step = { ArrowRight: 1, ArrowDown: 1, ArrowLeft: -1, ArrowUp: -1 }[event.key];
        const to = step ? paths[(i + step + paths.length) % paths.length] : undefined;
        const end = event.key === 'Home' ? paths[0] : event.key === 'End' ? paths.at(-1) : undefined;
        const next = to ?? end;
        if (!next) return;
        event.preventDefault();
        event.stopPropagation(); // arrows move between units here, not the view
        path.tabIndex = -1;
        next.tabIndex = 0;
        next.focus();
      });
    });
    home = viewOf(svg);
    const [x0, y0, x1, y1] = (svg.dataset.extent ?? '').split(' ').map(Number);
    all = Number.isFinite(x1) ? { x: x0, y: y0, w: x1 - x0, h: y1 - y0 } : home;
    view = { ...home };
    viewport.replaceChildren(svg);
    refresh();
  };
  const initialLevel = figure.dataset.level ?? '';
  wire();

  tools.append(
    button('Zoom in', '+', () => zoom(1 / 1.5)),
    button('Zoom out', '−', () => zoom(1.5)),
    button('Reset the view to the main territory', 'Reset', () => {
      view = { ...home };
      apply();
    }),
  );
  if (all.w > home.w * 1.05 || all.h > home.h * 1.05) {
    tools.append(
      button('Show every shape, outlying islands too', 'Show all', () => {
        view = { ...all };
        apply();
      }),
    );
  }
  let levelSelect: HTMLSelectElement | undefined;
  /** Shows `level`'s map, keeping the view (every level of a country shares its plane). */
  // The level being loaded: data-level names it at once, its picture arrives later, so a
  // selection made meanwhile waits for it rather than framing the previous level's shapes.
  let loading: Promise<void> = Promise.resolve();
  const showLevel = (level: string): Promise<void> => {
    if (!(level in maps) || level === figure.dataset.level) return loading;
    if (!svgs.has(level))
      svgs.set(
        level,
        fetch(maps[level]).then((r) => r.text()),
      );
    figure.dataset.level = level;
    if (levelSelect) levelSelect.value = level;
    loading = loadLevel(level);
    return loading;
  };
  const loadLevel = async (level: string) => {
    const text = await svgs.get(level)!;
    if (figure.dataset.level !== level) return;
    const kept = view;
    const holder = document.createElement('div');
    holder.innerHTML = text; // our own build output, escaped when written
    layer = undefined;
    svg = holder.querySelector('svg')!;
    wire();
    view = kept;
    apply();
    selectedId = undefined;
    info.textContent = 'Click, tap or focus a unit to name it.';
    setCaption();
    if (active) await startTiles();
  };
  const levels = Object.keys(maps);
  if (levels.length > 1) {
    const label = document.createElement('label');
    const select = document.createElement('select');
    label.append('Level ', select);
    for (const level of levels) select.add(new Option(level, level, false, level === figure.dataset.level));
    select.addEventListener('change', () => {
      void showLevel(select.value);
      switchLevel({ level: select.value }); // the units list follows
    });
    tools.append(label);
    levelSelect = select;
  }

  // Pointer: drag pans, two pointers pinch-zoom, a click (no drag) names a unit.
  const pointers = new Map<number, { x: number; y: number }>();
  let moved = 0;
  const toSvg = (x: number, y: number) => {
    const r = viewport.getBoundingClientRect();
    const scale = Math.max(view.w / r.width, view.h / r.height);
    return { scale, x: view.x + (x - r.left) * scale, y: view.y + (y - r.top) * scale };
  };
  viewport.addEventListener('pointerdown', (e) => {
    interacted();
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
    moved = 0;
  });
  viewport.addEventListener('pointermove', (e) => {
    const last = pointers.get(e.pointerId);
    if (!last) return;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      const before = Math.hypot(a.x - b.x, a.y - b.y);
      pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
      const [c, d] = [...pointers.values()];
      const after = Math.hypot(c.x - d.x, c.y - d.y);
      const mid = toSvg((c.x + d.x) / 2, (c.y + d.y) / 2);
      if (before > 0 && after > 0) zoom(before / after, mid.x, mid.y);
      moved += 10;
      return;
    }
    const { scale } = toSvg(e.clientX, e.clientY);
    moved += Math.abs(e.clientX - last.x) + Math.abs(e.clientY - last.y);
    if (moved > 3) {
      if (!viewport.hasPointerCapture(e.pointerId)) viewport.setPointerCapture(e.pointerId);
      pan(-(e.clientX - last.x) * scale, -(e.clientY - last.y) * scale);
    }
    pointers.set(e.pointerId, { x: e.clientX, y: e.clientY });
  });
  const end = (e: PointerEvent) => {
    pointers.delete(e.pointerId);
  };
  viewport.addEventListener('pointerup', end);
  viewport.addEventListener('pointercancel', end);
  viewport.addEventListener('click', (e) => {
    const shape = (e.target as Element).closest?.('[data-u], [data-t]') as SVGElement | null;
    const id = shape?.dataset.u ?? shape?.dataset.t;
    if (id === undefined || moved > 3) return;
    void name(id);
    announce({ level: figure.dataset.level ?? '', id, source: 'map' });
  });
  viewport.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      interacted();
      const at = toSvg(e.clientX, e.clientY);
      zoom(Math.exp(Math.max(-1, Math.min(1, e.deltaY / 300))), at.x, at.y);
    },
    { passive: false },
  );
  viewport.addEventListener('focusin', interacted);
  tools.addEventListener('click', interacted);
  viewport.addEventListener('keydown', (e) => {
    const step = 0.1;
    const moves: Record<string, [number, number]> = {
      ArrowLeft: [-view.w * step, 0],
      ArrowRight: [view.w * step, 0],
      ArrowUp: [0, -view.h * step],
      ArrowDown: [0, view.h * step],
    };
    if (moves[e.key]) pan(...moves[e.key]);
    else if (e.key === '+' || e.key === '=') zoom(1 / 1.5);
    else if (e.key === '-' || e.key === '_') zoom(1.5);
    else if (e.key === '0') {
      view = { ...home };
      apply();
    } else return;
    e.preventDefault();
  });

  /** A unit selected elsewhere on the page (list, search, permalink): shown at its level, framed, named. */
  const onSelected = async (detail: SelectDetail) => {
    if (detail.source === 'map') return; // named already, by the click that announced it
    await showLevel(detail.level ?? figure.dataset.level ?? '');
    frameUnit(detail.id);
    interacted();
    await name(detail.id);
  };
  onSelect((detail) => void onSelected(detail));
  onLevel(({ level }) => void showLevel(level));

  /** A permalink (#unit-US-TX) selects its unit: at the level that has it. */
  const follow = async () => {
    if (!location.hash.startsWith('#unit-')) return;
    const id = decodeURIComponent(location.hash.slice('#unit-'.length));
    const doc = await countryDocument();
    const current = figure.dataset.level ?? '';
    const levels = Object.entries(doc?.units ?? {}).filter(([, us]) => us?.some((u) => u.id === id));
    const level = levels.find(([l]) => l === current)?.[0] ?? levels.find(([l]) => l in maps)?.[0];
    if (level) await onSelected({ level, id, source: 'hash' });
  };
  window.addEventListener('hashchange', () => void follow());
  void follow();
}
