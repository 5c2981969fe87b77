// Full detail for the map, drawn into the page's own <svg>: the tiles of the
// current view (tile-plan.ts) become <path>s in the same user units as the
// build-time picture, each tile placed by a transform and clipped to its
// square (the buffer's clip edges never show), so the viewBox engine of
// map.ts stays the whole interaction. A unit's pieces across tiles share
// data-t, the unit's id, so naming and highlighting work on them as on the
// picture. Loaded on the map's first interaction, never before.
import type { TilesInfo } from '../../build/core/shared/tiles.ts';
import { Archive, rangeFetcher } from './pmtiles-reader.ts';
import { TileSource, type PlannedTile, type View } from './tile-plan.ts';

const SVG = 'http://www.w3.org/2000/svg';

export class TileLayer {
  readonly group: SVGGElement;
  private source: TileSource;
  private drawn = new Map<string, SVGGElement>();
  private latest = 0;
  readonly stats = { bytes: 0 };

  /** `ids[i]` is the id of the level's unit i (the tile features' ids), when the tiles are numbered like the list. */
  constructor(
    private svg: SVGSVGElement,
    info: TilesInfo,
    private ids: string[] | undefined,
  ) {
    this.source = new TileSource(
      new Archive(rangeFetcher(new URL(info.url, location.href).href, this.stats)),
      info,
    );
    this.group = document.createElementNS(SVG, 'g');
    this.group.setAttribute('class', 'tiles');
    const markers = svg.querySelector('g.markers');
    svg.insertBefore(this.group, markers);
  }

  /** Draws `view` at `pxPerUnit`; resolves true once its tiles are in (false when a later view overtook it). */
  async update(view: View, pxPerUnit: number): Promise<boolean> {
    const ticket = ++this.latest;
    const planned = await this.source.plan(view, pxPerUnit);
    if (ticket !== this.latest) return false;
    const groups = planned.map((t) => this.group_(t));
    this.group.replaceChildren(...groups);
    this.svg.classList.add('tiled');
    return true;
  }

  private group_(t: PlannedTile): SVGGElement {
    const key = `${t.z}/${t.x}/${t.y}`;
    const done = this.drawn.get(key);
    if (done) return done;
    const [ox, oy, side] = this.source.info.root;
    const size = side / 2 ** t.z;
    const { extent, pieces } = t.tile;
    const g = document.createElementNS(SVG, 'g');
    g.setAttribute('transform', `translate(${ox + t.x * size} ${oy + t.y * size}) scale(${size / extent})`);
    g.setAttribute('clip-path', `url(#${this.clip(extent)})`);
    for (const piece of pieces) {
      const path = document.createElementNS(SVG, 'path');
      path.setAttribute('class', 't');
      path.setAttribute('fill-rule', 'evenodd');
      path.setAttribute('d', piece.d);
      const id = this.ids?.[piece.unit];
      if (id !== undefined) path.dataset.t = id; // the unit's id; data-u stays the picture's (keyboard order)
      g.append(path);
    }
    this.drawn.set(key, g);
    return g;
  }

  /** Returns the id of the clip path of a tile of `extent` units, adding it once. */
  private clip(extent: number): string {
    const id = `tile-clip-${extent}`;
    if (!this.svg.querySelector(`#${id}`)) {
      const clip = document.createElementNS(SVG, 'clipPath');
      clip.id = id;
      const rect = document.createElementNS(SVG, 'rect');
      rect.setAttribute('width', String(extent));
      rect.setAttribute('height', String(extent));
      clip.append(rect);
      let defs = this.svg.querySelector('defs');
      if (!defs) {
        defs = document.createElementNS(SVG, 'defs');
        this.svg.prepend(defs);
      }
      defs.append(clip);
    }
    return id;
  }

  /** Removes the layer: the picture shows again. */
  remove(): void {
    this.latest++;
    this.group.remove();
    this.svg.classList.remove('tiled');
  }
}
