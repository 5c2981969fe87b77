// The country page's map, explorable: the build-time SVG (the no-script
// picture) gets pan and zoom (wheel, drag, pinch, buttons, keyboard) by
// moving its viewBox, a level switch (each other level's SVG is fetched when
// chosen), and naming: clicking, tapping or focusing a unit shows its name,
// code and parent with a link to its entry in the units list. No library:
// the SVG is already drawn, so this is a few hundred lines, not a map engine.
import { countryDocument, parentName } from './country-data.ts';
import { panBy, zoomAt, type View } from './view.ts';

const MAX_ZOOM = 64;

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
  const apply = () => svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.w} ${view.h}`);
  const zoom = (factor: number, cx = view.x + view.w / 2, cy = view.y + view.h / 2) => {
    view = zoomAt(view, factor, cx, cy, home.w / MAX_ZOOM, Math.max(all.w, home.w) * 1.5);
    apply();
  };
  const pan = (dx: number, dy: number) => {
    view = panBy(view, dx, dy);
    apply();
  };

  let selected: SVGPathElement | undefined;
  const name = async (path: SVGPathElement) => {
    selected?.classList.remove('selected');
    selected = path;
    path.classList.add('selected');
    const id = path.dataset.u ?? '';
    const title = path.querySelector('title')?.textContent ?? id;
    info.replaceChildren(document.createElement('strong'));
    info.firstElementChild!.textContent = title;
    const doc = await countryDocument();
    if (selected !== path) return;
    const unit = doc && Object.values(doc.units).flatMap((us) => us.filter((u) => u.id === id))[0];
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
  };

  const wire = () => {
    svg.setAttribute('role', 'group'); // was "img": its units are now focusable
    const paths = [...svg.querySelectorAll<SVGPathElement>('path[data-u]')];
    paths.forEach((path, i) => {
      path.tabIndex = i === 0 ? 0 : -1; // one tab stop; arrow keys move between units
      path.setAttribute('role', 'button');
      path.setAttribute('aria-label', path.querySelector('title')?.textContent ?? path.dataset.u ?? '');
      path.addEventListener('focus', () => void name(path));
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
  };
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
  const levels = Object.keys(maps);
  if (levels.length > 1) {
    const label = document.createElement('label');
    const select = document.createElement('select');
    label.append('Level ', select);
    for (const level of levels) select.add(new Option(level, level, false, level === figure.dataset.level));
    select.addEventListener('change', async () => {
      const level = select.value;
      if (!svgs.has(level))
        svgs.set(
          level,
          fetch(maps[level]).then((r) => r.text()),
        );
      const holder = document.createElement('div');
      holder.innerHTML = await svgs.get(level)!; // our own build output, escaped when written
      svg = holder.querySelector('svg')!;
      wire();
      figure.dataset.level = level;
    });
    tools.append(label);
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
    const path = (e.target as Element).closest?.('path[data-u]') as SVGPathElement | null;
    if (path && moved <= 3) void name(path);
  });
  viewport.addEventListener(
    'wheel',
    (e) => {
      e.preventDefault();
      const at = toSvg(e.clientX, e.clientY);
      zoom(Math.exp(Math.max(-1, Math.min(1, e.deltaY / 300))), at.x, at.y);
    },
    { passive: false },
  );
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

  /** A permalink (#unit-US-TX) names its unit on the map too, when drawn at this level. */
  const follow = () => {
    const id = decodeURIComponent(location.hash.replace(/^#unit-/, ''));
    const path = location.hash.startsWith('#unit-')
      ? [...svg.querySelectorAll<SVGPathElement>('path[data-u]')].find((p) => p.dataset.u === id)
      : undefined;
    if (path) void name(path);
  };
  window.addEventListener('hashchange', follow);
  follow();
}
