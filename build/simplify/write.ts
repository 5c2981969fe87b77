// Writes one level of a simplified coverage as GeoJSON text: each feature as
// its source had it (id, properties, the release's unit ID first when given),
// its rings rebuilt from the live vertices of their arcs. A shared arc is
// printed once and pasted into every ring that uses it, so both sides of a
// border, and every level that has it, carry the very same positions.
import { UNIT_ID_PROPERTY } from '../core/shared/api.ts';
import type { CoverageArcs, FeatureRings } from './arcs.ts';
import { arcOf, type CoverageSimplifier } from './tpvw.ts';

/**
 * The text of a coverage's arcs as a simplification left them: each
 * vertex's "x,y" printed once for every tolerance (`vertexTexts`), each arc
 * joined once per tolerance and direction.
 */
export class ArcTexts {
  private readonly forward: (string | undefined)[];
  private readonly backward: (string | undefined)[];

  constructor(
    private readonly arcs: CoverageArcs,
    private readonly live: Pick<CoverageSimplifier, 'next'>,
    private readonly vertexTexts: VertexTexts,
  ) {
    this.forward = new Array<string | undefined>(arcs.arcStart.length - 1);
    this.backward = new Array<string | undefined>(arcs.arcStart.length - 1);
  }

  /** Returns arc ref's live positions but its last, in its direction, joined by "],[" (e.g. "1,2],[3,4"). */
  private text(ref: number): string {
    const a = arcOf(ref);
    const cached = ref >= 0 ? this.forward[a] : this.backward[a];
    if (cached !== undefined) return cached;
    const parts: string[] = [];
    const next = this.live.next;
    for (let i = this.arcs.arcStart[a]; i !== -1; i = next[i]) parts.push(this.vertexTexts.get(i));
    if (ref >= 0) parts.pop();
    else {
      parts.reverse();
      parts.pop();
    }
    const text = parts.join('],[');
    if (ref >= 0) this.forward[a] = text;
    else this.backward[a] = text;
    return text;
  }

  /** Returns ring r's positions, closed, as the text of a GeoJSON linear ring. */
  ring(r: number): string {
    const { ringArcs, ringArcStart } = this.arcs;
    const parts: string[] = [];
    for (let j = ringArcStart[r]; j < ringArcStart[r + 1]; j++) parts.push(this.text(ringArcs[j]));
    const first = this.vertexTexts.get(ringStartVertex(this.arcs, ringArcs[ringArcStart[r]]));
    return `[[${parts.join('],[')}],[${first}]]`;
  }
}

/** Returns the first vertex of arc reference ref in its direction (its last one when backwards). */
function ringStartVertex(arcs: CoverageArcs, ref: number): number {
  return ref >= 0 ? arcs.arcStart[ref] : arcs.arcStart[~ref + 1] - 1;
}

/** Each vertex's "x,y", printed on first use: the same text at every tolerance. */
export class VertexTexts {
  private readonly texts: (string | undefined)[];

  constructor(private readonly arcs: CoverageArcs) {
    this.texts = new Array<string | undefined>(arcs.x.length);
  }

  get(i: number): string {
    let t = this.texts[i];
    if (t === undefined) t = this.texts[i] = `${this.arcs.x[i]},${this.arcs.y[i]}`;
    return t;
  }
}

/** Returns the GeoJSON text of one feature, its polygons taken from `texts`. */
function featureText(f: FeatureRings, texts: ArcTexts, unitId: string | undefined): string {
  const { feature } = f;
  const source = feature.properties;
  const clash = source !== null && Object.hasOwn(source, UNIT_ID_PROPERTY);
  const properties = unitId === undefined || clash ? source : { [UNIT_ID_PROPERTY]: unitId, ...source };
  const id = feature.id === undefined ? '' : `"id":${JSON.stringify(feature.id)},`;
  let geometry: string;
  if (f.kind === null) geometry = JSON.stringify(feature.geometry ?? null);
  else {
    let r = f.firstRing;
    const polygons = f.polygons.map((rings) => {
      const out: string[] = [];
      for (let k = 0; k < rings; k++) out.push(texts.ring(r++));
      return `[${out.join(',')}]`;
    });
    const coordinates = f.kind === 'Polygon' ? polygons[0] : `[${polygons.join(',')}]`;
    geometry = `{"type":"${f.kind}","coordinates":${coordinates}}`;
  }
  return `{"type":"Feature",${id}"properties":${JSON.stringify(properties ?? null)},"geometry":${geometry}}`;
}

/**
 * Returns the GeoJSON FeatureCollection text of level `level` of `arcs` as
 * simplified (`texts`), feature i carrying `unitIds[i]` as its first
 * property when given (unless it has a property of that name already).
 */
export function levelText(arcs: CoverageArcs, texts: ArcTexts, level: number, unitIds?: string[]): string {
  const lines = arcs.levels[level].map((f, i) => featureText(f, texts, unitIds?.[i]));
  return `{"type":"FeatureCollection","features":[\n${lines.join(',\n')}\n]}\n`;
}
