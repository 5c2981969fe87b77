// Naming the selected unit: its name, code and parent below the map (with a
// link to its entry in the units list), and in the caption with the level shown.
import type { TilesInfo } from '../../build/core/shared/tiles.ts';
import { countryDocument, documentLink, parentName, type CountryDocument } from './country-data.ts';
import { areaText } from '../../build/core/shared/area-text.ts';
import type { MapView } from './map-view.ts';

const PROMPT = 'Click, tap or focus a unit to name it.';
const WORLD_PROMPT =
  'Point at, tap or focus a country to name it; click it, tap it again or press Enter to open its page.';

export class MapSelection {
  /** The caption written at build time, for the level the page opened at. */
  private readonly captionText: string;
  private readonly initialLevel: string;

  constructor(
    private readonly map: MapView,
    private readonly info: HTMLElement,
    private readonly caption: Element | null,
    private readonly tilesOf: Record<string, TilesInfo>,
    private readonly world = false, // the index's world map: a unit's id is its country page's URL
  ) {
    this.captionText = caption?.textContent ?? '';
    this.initialLevel = map.level;
    info.textContent = this.prompt;
  }

  private get prompt(): string {
    return this.world ? WORLD_PROMPT : PROMPT;
  }

  /** Counts calls of name(): only the latest one finishes the naming line. */
  private naming = 0;

  /** Names unit `id` of the level shown below the map and in the caption, and highlights it. */
  async name(id: string): Promise<void> {
    const { map, info } = this;
    const ticket = ++this.naming;
    map.selectedId = id;
    map.highlight();
    const path = [...map.svg.querySelectorAll<SVGPathElement>('path[data-u]')].find(
      (p) => p.dataset.u === id,
    );
    const title = path?.querySelector('title')?.textContent ?? id;
    info.replaceChildren(document.createElement('strong'));
    info.firstElementChild!.textContent = title;
    if (this.world) {
      const link = document.createElement('a');
      link.href = id;
      link.textContent = 'open its page';
      info.append(' · ', link);
      return;
    }
    const doc = await countryDocument();
    // A later naming (another unit, or the same one again: a permalink is followed by both map and list) owns the line.
    if (ticket !== this.naming) return;
    const unit =
      doc && (doc.units[map.level as keyof CountryDocument['units']] ?? []).find((u) => u.id === id);
    if (unit) info.firstElementChild!.textContent = unit.name || title;
    const details = unit
      ? [
          unit.code && `code ${unit.code}`,
          unit.unit_id && `ID ${unit.unit_id}`,
          unit.parent && `in ${parentName(doc!, unit.parent)}`,
          unit.area_km2 !== undefined && areaText(unit.area_km2),
        ].filter(Boolean)
      : [];
    if (details.length) info.append(` (${details.join(', ')})`);
    if (unit?.geojson_url) {
      const link = document.createElement('a');
      link.href = documentLink(unit.geojson_url); // a release's document links relatively to itself
      link.textContent = 'its GeoJSON';
      info.append(' · ', link);
    }
    if (unit && document.getElementById(`units`)) {
      const link = document.createElement('a');
      link.href = `#unit-${unit.unit_id ?? id}`;
      link.textContent = 'entry in the units list';
      info.append(' · ', link);
    }
    this.setCaption(unit?.name ?? title);
  }

  /** Forgets the selection (another level is shown): back to the prompt and the level's caption. */
  clear(): void {
    this.map.selectedId = undefined;
    this.info.textContent = this.prompt;
    this.setCaption();
  }

  /** The caption names the level shown and the unit selected, and says where the detail comes from. */
  private setCaption(unitName?: string): void {
    if (!this.caption) return;
    const level = this.map.level;
    const detail = this.tilesOf[level] ? ' Zooming in loads the full-detail boundaries of this level.' : '';
    const base = level === this.initialLevel ? this.captionText : `${level} boundaries, drawn at build time.`;
    this.caption.textContent = `${unitName ? `${unitName} (${level}). ` : ''}${base}${detail}`;
  }
}
