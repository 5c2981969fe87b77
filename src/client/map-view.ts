// The explorable map's view: the SVG shown in the viewport, the box in sight
// (moved by zoom and pan through its viewBox), the selected unit's highlight,
// and the full-detail tile layer, which starts on the reader's first interaction.
import type { TilesInfo } from '../../build/core/shared/tiles.ts';
import { countryDocument, type CountryDocument } from './country-data.ts';
import { updateLabels } from './labels.ts';
import { updateMarkers } from './markers.ts';
import type { TileLayer } from './tile-layer.ts';
import { panBy, zoomAt, type View } from './view.ts';

const MAX_ZOOM = 64;
/** Margin around every shape when "Show all" frames them, as a share of their extent: rings at the edge stay whole. */
const ALL_MARGIN = 0.04;
/** The extent shows more than the main territory when it is this much larger. */
const MORE = 1.05;
/** Margin around a unit framed on selection, as a share of its size. */
const FRAME_MARGIN = 0.15;

function viewOf(svg: SVGSVGElement): View {
  const [x, y, w, h] = (svg.getAttribute('viewBox') ?? '0 0 600 400').split(/\s+/).map(Number);
  return { x, y, w, h };
}

/** Makes the units of `svg` focusable (one tab stop, arrow keys between them); focusing one calls `onFocus`. */
function wireUnits(svg: SVGSVGElement, onFocus: (id: string) => void): void {
  svg.setAttribute('role', 'group'); // was "img": its units are now focusable
  const paths = [...svg.querySelectorAll<SVGPathElement>('path[data-u]')];
  paths.forEach((path, i) => {
    path.tabIndex = i === 0 ? 0 : -1; // one tab stop; arrow keys move between units
    path.setAttribute('role', 'button');
    path.setAttribute('aria-label', path.querySelector('title')?.textContent ?? path.dataset.u ?? '');
    path.addEventListener('focus', () => onFocus(path.dataset.u ?? ''));
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
}

export class MapView {
  svg: SVGSVGElement;
  /** The main territory's box (the picture's viewBox), and the box of every shape with a margin (home when no larger). */
  home: View;
  all: View;
  view: View;
  selectedId: string | undefined;
  /** The units the page's filter shows (the index's table), or null when it shows all. */
  matches: Set<string> | null = null;
  /** Whether the reader has interacted: tiles load from then on. */
  private active = false;
  private layer: TileLayer | undefined;
  private frame = 0;

  constructor(
    private readonly figure: HTMLElement,
    readonly viewport: HTMLElement,
    svg: SVGSVGElement,
    private readonly tilesOf: Record<string, TilesInfo>,
  ) {
    this.svg = svg;
    this.home = viewOf(svg);
    this.all = this.home;
    this.view = this.home;
  }

  /** The level shown (data-level names it as soon as it is chosen). */
  get level(): string {
    return this.figure.dataset.level ?? '';
  }

  get interactive(): boolean {
    return this.active;
  }

  /** Shows `svg` in the viewport at its home view, its units focusable. */
  wire(svg: SVGSVGElement, onFocusUnit: (id: string) => void): void {
    this.layer = undefined;
    this.svg = svg;
    wireUnits(svg, onFocusUnit);
    this.home = viewOf(svg);
    const [x0, y0, x1, y1] = (svg.dataset.extent ?? '').split(' ').map(Number);
    const [w, h] = [x1 - x0, y1 - y0];
    const more =
      Number.isFinite(w) && Number.isFinite(h) && (w > this.home.w * MORE || h > this.home.h * MORE);
    const [mx, my] = [w * ALL_MARGIN, h * ALL_MARGIN];
    this.all = more ? { x: x0 - mx, y: y0 - my, w: w + 2 * mx, h: h + 2 * my } : this.home;
    this.view = { ...this.home };
    this.viewport.replaceChildren(svg);
    this.refresh();
  }

  /** Returns screen pixels per SVG unit at the current view. */
  private pxPerUnit(): number {
    return 1 / this.toSvg(0, 0).scale;
  }

  /**
   * Returns the box in sight: the view, plus the strips beside or below it
   * that the SVG's box shows when its shape differs from the view's (a wide
   * screen: the box is 2.8:1, the world 2:1; preserveAspectRatio "meet").
   */
  private inSight(): View {
    const r = this.svg.getBoundingClientRect();
    if (!(r.width > 0 && r.height > 0)) return this.view;
    const [a, b] = [this.toSvg(r.left, r.top), this.toSvg(r.right, r.bottom)];
    return { x: a.x, y: a.y, w: b.x - a.x, h: b.y - a.y };
  }

  private refresh(): void {
    this.frame = 0;
    const k = this.pxPerUnit();
    const seen = this.inSight();
    updateMarkers(this.svg, k);
    updateLabels(this.svg, seen, k);
    if (this.layer) void this.layer.update(seen, k).then((drawn) => drawn && this.highlight());
  }

  /** Moves the picture to the current view; markers, labels and tiles follow on the next frame. */
  apply(): void {
    this.svg.setAttribute('viewBox', `${this.view.x} ${this.view.y} ${this.view.w} ${this.view.h}`);
    if (!this.frame) this.frame = requestAnimationFrame(() => this.refresh());
  }

  show(view: View): void {
    this.view = { ...view };
    this.apply();
  }

  zoom(factor: number, cx = this.view.x + this.view.w / 2, cy = this.view.y + this.view.h / 2): void {
    const maxW = Math.max(this.all.w, this.home.w) * 1.5;
    this.view = zoomAt(this.view, factor, cx, cy, this.home.w / MAX_ZOOM, maxW);
    this.apply();
  }

  pan(dx: number, dy: number): void {
    this.view = panBy(this.view, dx, dy);
    this.apply();
  }

  /**
   * Returns the SVG point under screen point (x, y), and SVG units per screen
   * pixel. The browser's own screen matrix of the SVG accounts for its border
   * and for the centring of the view in a box of another shape.
   */
  toSvg(x: number, y: number): { scale: number; x: number; y: number } {
    const m = this.svg.getScreenCTM();
    if (!m || !(m.a > 0)) return { scale: this.view.w / 600, x: this.view.x, y: this.view.y }; // not laid out
    const p = new DOMPoint(x, y).matrixTransform(m.inverse());
    return { scale: 1 / m.a, x: p.x, y: p.y };
  }

  /** Starts the full-detail tiles of the current level (once the reader interacts). */
  async startTiles(): Promise<void> {
    this.active = true;
    const level = this.level;
    const info = this.tilesOf[level];
    if (!info || this.layer) return;
    const [{ TileLayer }, doc] = await Promise.all([import('./tile-layer.ts'), countryDocument()]);
    if (this.level !== level || this.layer) return;
    const units = doc?.units[level as keyof CountryDocument['units']];
    const ids = info.ids ?? (info.named && units ? units.map((u) => u.id) : undefined);
    this.layer = new TileLayer(this.svg, info, ids);
    this.apply();
  }

  interacted(): void {
    if (!this.active) void this.startTiles();
  }

  /** Marks every shape of the selected unit, and of the units matching the page's filter (picture, tiles, markers). */
  highlight(): void {
    const matches = this.matches;
    this.svg.classList.toggle('filtered', matches !== null);
    for (const el of this.svg.querySelectorAll<SVGElement>('[data-u], [data-t]')) {
      const id = el.dataset.u ?? el.dataset.t;
      el.classList.toggle('selected', id === this.selectedId && id !== undefined);
      // A body map's unit ("/mars/MCQ/#unit-MC-01") matches when its page's row is shown.
      const page = id?.split('#')[0];
      el.classList.toggle('match', matches !== null && page !== undefined && matches.has(page));
    }
  }

  /** Frames the unit's shape (its picture's box) with a margin, keeping the viewport's shape. */
  frameUnit(id: string): void {
    const shapes = [
      ...this.svg.querySelectorAll<SVGGraphicsElement>('path.f[data-u], circle.m[data-u]'),
    ].filter((p) => p.dataset.u === id);
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
    const aspect = this.home.h / this.home.w;
    const minW = this.home.w / MAX_ZOOM;
    let w = Math.max((x1 - x0) * (1 + 2 * FRAME_MARGIN), minW);
    let h = Math.max((y1 - y0) * (1 + 2 * FRAME_MARGIN), w * aspect);
    w = Math.max(w, h / aspect);
    h = w * aspect;
    this.view = { x: (x0 + x1) / 2 - w / 2, y: (y0 + y1) / 2 - h / 2, w, h };
    this.apply();
  }
}
