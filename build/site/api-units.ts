// The units of a country as its JSON document publishes them: per level, each
// unit's id, name, code, parent, bboxes and permalink; and a level's display
// bbox, which stays small across the antimeridian (RFC 7946 §5.2).
import type { ApiUnit, CountryDocument } from '../core/shared/api.ts';
import type { BBox, Level, Manifest } from '../core/shared/manifest.ts';
import { countryPage, fileUrl } from '../core/dist-paths.ts';
import type { CountryAtlas } from './atlas.ts';
import { bboxes } from './units.ts';

/**
 * Returns `{ADM1: [...], ADM2: [...]}`: every unit of every level, in file
 * order. A field a unit lacks (unit_id, other_names, part) is undefined, which
 * the document's JSON leaves out: one object shape for every unit.
 */
export function apiUnits(base: string, m: Manifest, atlas: CountryAtlas): CountryDocument['units'] {
  const out: Partial<Record<Level, ApiUnit[]>> = {};
  const page = `${base}${countryPage(m)}#unit-`;
  for (const level of atlas.levels) {
    out[level.level] = level.units.map((u) => ({
      id: u.id,
      unit_id: u.unit_id || undefined,
      name: u.name,
      other_names: u.names.length ? u.names : undefined,
      code: u.code,
      parent: u.parent,
      bbox: u.bbox,
      display_bbox: u.display_bbox,
      part: u.part || undefined,
      page: page + (u.unit_id ?? u.id),
      area_km2: u.area_km2,
      label_point: u.label,
      geojson_url: u.geojson && fileUrl(base, u.geojson),
    }));
  }
  return out;
}

/** Returns the display bbox of a whole level (from its units' display bboxes), or undefined without units. */
export function levelDisplayBbox(atlas: CountryAtlas, level: string): BBox | undefined {
  const units = atlas.levels.find((l) => l.level === level)?.units ?? [];
  if (units.length === 0) return undefined;
  const lons: number[] = [];
  const lats: number[] = [];
  for (const {
    display_bbox: [w, s, e, n],
  } of units) {
    lons.push(w, e < w ? e + 360 : e); // a crossing unit: its east end past 180°
    lats.push(s, n);
  }
  const { display_bbox } = bboxes(
    lons.map((x) => (x > 180 ? x - 360 : x)),
    lats,
  );
  return display_bbox;
}
