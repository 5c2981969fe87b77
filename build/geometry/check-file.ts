// Checks the geometry of every feature of one GeoJSON file, one feature at a
// time (bounded memory), and returns one issue per invalid feature.
import { readFeatureBytes } from './read-features.ts';
import { checkGeometry } from './validity.ts';

/** One invalid feature: e.g. pointer "/features/8/geometry/coordinates/3/0". */
export interface FeatureIssue {
  feature: number;
  pointer: string;
  structural: boolean; // RFC 7946 structure: an error; else an OGC rule: a warning unless --strict
  kind: string; // e.g. "ring self-intersection"
  message: string; // e.g. "ring self-intersection at or near [-47.3019, -16.0392]"
}

/** The geometry verdict on one file: features checked, and the invalid ones. */
export interface FileGeometry {
  checked: number;
  issues: FeatureIssue[];
}

/** Returns the verdict on every feature of `path`, a GeoJSON FeatureCollection the measurer accepted. */
export async function checkGeometryFile(path: string): Promise<FileGeometry> {
  const issues: FeatureIssue[] = [];
  let checked = 0;
  for await (const { index, bytes } of readFeatureBytes(path)) {
    checked++;
    const feature = JSON.parse(bytes.toString('utf8')) as {
      geometry?: { type?: unknown; coordinates?: unknown } | null;
    };
    const geometry = feature.geometry;
    if (!geometry || typeof geometry.type !== 'string') continue;
    const issue = checkGeometry(geometry.type, geometry.coordinates);
    if (!issue) continue;
    const below = issue.path.map((i) => `/${i}`).join('');
    issues.push({
      feature: index,
      pointer: `/features/${index}/geometry/coordinates${below}`,
      structural: issue.structural,
      kind: issue.kind,
      message: issue.message,
    });
  }
  return { checked, issues };
}
