// The map's level switch: each other level's SVG is fetched when first chosen
// and shown in place of the current one, keeping the view (every level of a
// country shares its plane).
import { switchLevel } from './events.ts';
import type { MapSelection } from './map-selection.ts';
import type { MapView } from './map-view.ts';

export class MapLevels {
  private readonly svgs = new Map<string, Promise<string>>();
  private levelSelect: HTMLSelectElement | undefined;
  // The level being loaded: data-level names it at once, its picture arrives later, so a
  // selection made meanwhile waits for it rather than framing the previous level's shapes.
  private loading: Promise<void> = Promise.resolve();

  constructor(
    private readonly figure: HTMLElement,
    private readonly maps: Record<string, string>,
    private readonly map: MapView,
    private readonly selection: MapSelection,
  ) {
    this.svgs.set(map.level, Promise.resolve(map.svg.outerHTML));
  }

  /** Adds a level chooser to `tools` when there is more than one level. */
  addSelect(tools: HTMLElement): void {
    const levels = Object.keys(this.maps);
    if (levels.length <= 1) return;
    const label = document.createElement('label');
    const select = document.createElement('select');
    label.append('Level ', select);
    for (const level of levels) select.add(new Option(level, level, false, level === this.map.level));
    select.addEventListener('change', () => {
      void this.show(select.value);
      switchLevel({ level: select.value }); // the units list follows
    });
    tools.append(label);
    this.levelSelect = select;
  }

  /** Shows `level`'s map; resolves once it is in place (at once if it is already shown or unknown). */
  show(level: string): Promise<void> {
    if (!(level in this.maps) || level === this.figure.dataset.level) return this.loading;
    if (!this.svgs.has(level))
      this.svgs.set(
        level,
        fetch(this.maps[level]).then((r) => r.text()),
      );
    this.figure.dataset.level = level;
    if (this.levelSelect) this.levelSelect.value = level;
    this.loading = this.load(level);
    return this.loading;
  }

  private async load(level: string): Promise<void> {
    const text = await this.svgs.get(level)!;
    if (this.figure.dataset.level !== level) return;
    const kept = this.map.view;
    const holder = document.createElement('div');
    holder.innerHTML = text; // our own build output, escaped when written
    this.map.wire(holder.querySelector('svg')!, (id) => void this.selection.name(id));
    this.map.show(kept);
    this.selection.clear();
    if (this.map.interactive) await this.map.startTiles();
  }
}
