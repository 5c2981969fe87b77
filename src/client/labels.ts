// Unit names on the map where they fit: a unit whose box on screen is wide
// and tall enough for its name gets a label at the box's centre, or at the
// point inside it the build chose (data-at: the centre of Valparaíso's box
// is in the ocean), at a fixed size on screen, and only while the box is in view. Decorative for
// assistive technology (every unit is already named by its aria-label).

const SVG = 'http://www.w3.org/2000/svg';
/** Label height and the width of an average character, in screen pixels. */
const FONT_PX = 12;
const CHAR_PX = 6.5;
/** At most this many labels at once: beyond it the map is all text. */
const MAX_LABELS = 120;

interface Box {
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  name: string;
  at?: [number, number]; // where the label goes when not the box's centre
}

const boxes = new WeakMap<SVGSVGElement, Box[]>();

/** Returns each unit's box (its picture's path) and name, measured once per SVG. */
function unitBoxes(svg: SVGSVGElement): Box[] {
  let found = boxes.get(svg);
  if (!found) {
    found = [];
    for (const path of svg.querySelectorAll<SVGPathElement>('path.f[data-u]')) {
      const name = path.querySelector('title')?.textContent;
      if (!name) continue;
      // The build's choice (map-svg.ts): data-box, the largest polygon's box; data-at, a point inside it.
      const given = path.dataset.box?.split(' ').map(Number);
      const point = path.dataset.at?.split(' ').map(Number);
      const at =
        point?.length === 2 && point.every(Number.isFinite) ? (point as [number, number]) : undefined;
      if (given?.length === 4 && given.every(Number.isFinite)) {
        found.push({ x0: given[0], y0: given[1], x1: given[2], y1: given[3], name, at });
        continue;
      }
      const b = path.getBBox();
      found.push({ x0: b.x, y0: b.y, x1: b.x + b.width, y1: b.y + b.height, name, at });
    }
    boxes.set(svg, found);
  }
  return found;
}

/** Draws the labels that fit the view (x, y, w, h in SVG units) at `pxPerUnit`. */
export function updateLabels(
  svg: SVGSVGElement,
  view: { x: number; y: number; w: number; h: number },
  pxPerUnit: number,
): void {
  let layer = svg.querySelector<SVGGElement>('g.labels');
  if (!layer) {
    layer = document.createElementNS(SVG, 'g');
    layer.setAttribute('class', 'labels');
    layer.setAttribute('aria-hidden', 'true');
    svg.append(layer);
  }
  const texts: SVGTextElement[] = [];
  const fits = unitBoxes(svg)
    .filter((b) => b.x1 > view.x && b.x0 < view.x + view.w && b.y1 > view.y && b.y0 < view.y + view.h)
    .filter(
      (b) =>
        (b.x1 - b.x0) * pxPerUnit >= b.name.length * CHAR_PX + 8 && (b.y1 - b.y0) * pxPerUnit >= FONT_PX * 2,
    )
    .sort((a, b) => (b.x1 - b.x0) * (b.y1 - b.y0) - (a.x1 - a.x0) * (a.y1 - a.y0))
    .slice(0, MAX_LABELS);
  for (const b of fits) {
    const text = document.createElementNS(SVG, 'text');
    const [x, y] = b.at ?? [(b.x0 + b.x1) / 2, (b.y0 + b.y1) / 2];
    text.setAttribute('x', String(x));
    text.setAttribute('y', String(y));
    text.setAttribute('font-size', String(FONT_PX / pxPerUnit));
    text.textContent = b.name;
    texts.push(text);
  }
  layer.replaceChildren(...texts);
}
