// What the checks of one dataset work on (validate-dataset.ts and the checks
// it runs from other modules: geometry, bbox members).
import type { Body, Dataset } from '../core/shared/manifest.ts';
import type { DataFiles } from './data-files.ts';
import type { PreviewChecker } from './preview-cache.ts';

export interface DatasetContext {
  file: string; // the manifest, e.g. "data/earth/ARG/manifest.json"
  folder: string; // its folder, e.g. "data/earth/ARG/"
  body: Body; // the manifest's, on whose sphere metres are measured (earth when the schema refused its body)
  data: DataFiles;
  strict?: boolean; // OGC geometry rules are errors, not warnings (validate --strict)
  previews?: Pick<PreviewChecker, 'check'>; // compares each preview with its data; absent: not compared
  previewsMustMatch?: boolean; // preview-stale is an error, not a warning (release)
  lonLat?: boolean; // the manifest's crs is an accepted one (lon/lat in degrees, build/core/shared/crs.ts): coordinate ranges are checked
  index: number;
  dataset: Dataset;
}
