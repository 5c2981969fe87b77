// The validator's checks of one dataset against its files: paths inside the
// manifest's folder and existing, recomputed stats, the preview, the parts and
// the unassigned count. A file that is missing or malformed is one problem;
// nothing else is said about it.
import { isInside } from './data-files.ts';
import type { DatasetContext } from './dataset-context.ts';
import type { Problem } from '../core/problem.ts';
import type { ManifestRule } from '../core/rules.ts';
import { MAX_PREVIEW_BYTES, type BBox, type FileStats, type GeometryTypes } from '../core/shared/manifest.ts';
import { byCodepoint } from '../measure/measure.ts';
import { show } from './schema.ts';
import { checkBboxMembers } from './validate-bbox.ts';
import { checkDatasetGeometry } from './validate-geometry.ts';
import { checkPreviewMatches } from './validate-preview.ts';

/** The stats a manifest states for one file (bytes and sha256 are optional on datasets). */
type Declared = Omit<FileStats, 'bytes' | 'sha256'> & { bytes?: number; sha256?: string };

/** Reports a problem of the manifest at `pointer`; `more` names the files its message names, and its fix. */
type Add = (
  pointer: string,
  rule: ManifestRule,
  message: string,
  more?: Pick<Problem, 'paths' | 'fix'>,
) => void;

/** Returns a new `Add` whose problems are reported after those of earlier sections. */
type Section = () => Add;

/** Returns a new list for problems in a GeoJSON file, reported after those of earlier lists. */
type FileSection = () => Problem[];

/** Returns every problem of one dataset that needs its files or more than one field. */
export async function checkDataset(context: DatasetContext): Promise<Problem[]> {
  const { file, dataset, index } = context;
  // Checks run concurrently; each writes to its own section, created in the
  // manifest's order, so the report's order does not depend on timing.
  const sections: Problem[][] = [];
  const section: Section = () => {
    const list: Problem[] = [];
    sections.push(list);
    return (pointer, rule, message, more) =>
      list.push({
        file,
        pointer,
        rule,
        severity: 'error',
        message,
        ...(more?.paths && { paths: more.paths }),
        ...(more?.fix && { fix: more.fix }),
      });
  };
  const at = `/datasets/${index}`;

  if (dataset.path === undefined && dataset.parts === undefined) {
    section()(
      at,
      'no-data',
      'has neither path nor parts: a level is published as one file, as parts, or both',
    );
  }
  // Problems in the GeoJSON files themselves (bbox members, geometry) come after the dataset's own.
  const inFiles: Problem[][] = [];
  const fileSection: FileSection = () => {
    const list: Problem[] = [];
    inFiles.push(list);
    return list;
  };
  const tasks: Promise<void>[] = [];
  if (dataset.path !== undefined)
    tasks.push(checkFile(context, section(), at, dataset.path, dataset, fileSection()));
  const previewAdd = section();
  const stale: Problem[] = []; // after the preview's own problems, and only without them
  sections.push(stale);
  tasks.push(
    checkPreview(context, previewAdd, at).then(async (usable) => {
      if (usable) stale.push(...(await checkPreviewMatches(context)));
    }),
  );
  if (dataset.parts) tasks.push(checkParts(context, section, at, fileSection));
  tasks.push(checkUnassigned(context, section(), at));
  const geometry = fileSection();
  tasks.push(checkDatasetGeometry(context).then((found) => void geometry.push(...found)));
  await Promise.all(tasks);
  return [...sections.flat(), ...inFiles.flat()];
}

/**
 * Checks that `path` (at `${at}/path`) is inside the folder, exists and is
 * valid GeoJSON, then compares each stat the manifest states (at `${at}/…`)
 * with the file's; the file's own bbox members go to `inFile`.
 */
async function checkFile(
  context: DatasetContext,
  add: Add,
  at: string,
  path: string,
  declared: Declared,
  inFile: Problem[],
) {
  const measured = await measureListed(context, add, `${at}/path`, path);
  if (!measured) return;
  const { stats } = measured;
  inFile.push(...checkBboxMembers(context, path, measured.bboxes));
  const fix = recompute(context);
  const differs = (field: string, fileSays: string, manifestSays: string) =>
    add(`${at}/${field}`, 'stats', `file ${path} has ${fileSays}, manifest says ${manifestSays}`, {
      paths: [path],
      fix,
    });
  if (declared.bytes !== undefined && declared.bytes !== stats.bytes) {
    differs('bytes', `${stats.bytes} bytes`, String(declared.bytes));
  }
  if (declared.sha256 !== undefined && declared.sha256 !== stats.sha256) {
    differs('sha256', `sha256 ${stats.sha256}`, declared.sha256);
  }
  if (declared.features !== stats.features) {
    differs('features', count(stats.features, 'feature'), String(declared.features));
  }
  if (!sameBbox(declared.bbox, stats.bbox)) differs('bbox', `bbox ${show(stats.bbox)}`, show(declared.bbox));
  if (!sameGeometryTypes(declared.geometry_types, stats.geometry_types)) {
    differs('geometry_types', `geometry types ${show(stats.geometry_types)}`, show(declared.geometry_types));
  }
  if (!sameProperties(declared.properties, stats.properties)) {
    differs('properties', `properties ${show(stats.properties)}`, show(declared.properties));
  }
}

/**
 * Returns the stats of `path`, a file listed at `pointer`, and its wrong bbox
 * members; or reports why it has none (outside the folder or data/, missing,
 * not GeoJSON) and returns undefined.
 */
async function measureListed(context: DatasetContext, add: Add, pointer: string, path: string) {
  const found = await context.data.stats(context.folder, path);
  if ('stats' in found) return found;
  add(pointer, found.rule, found.message, { paths: found.paths });
  return undefined;
}

/** Returns the command that rewrites the manifest's derived fields from its files, e.g. ["manifest", "CHL"]. */
function recompute({ folder }: DatasetContext): string[] {
  return ['manifest', folder.split('/')[2]!]; // "data/earth/CHL/" → CHL
}

/**
 * Checks the preview's name, size, preview_bytes and that it is GeoJSON (a
 * simplified copy: its own bbox may be off; ./validate-preview.ts compares it
 * with the data). Returns whether it is named right, within the size limit
 * and GeoJSON.
 */
async function checkPreview(context: DatasetContext, add: Add, at: string): Promise<boolean> {
  const { folder, data, dataset } = context;
  const { preview, preview_bytes: previewBytes } = dataset;
  if (preview === undefined) {
    if (previewBytes !== undefined)
      add(`${at}/preview_bytes`, 'preview-bytes', 'is given but there is no preview');
    return false;
  }
  const name = preview.slice(preview.lastIndexOf('/') + 1); // e.g. "ARG_ADM1.preview.geojson"
  // Compared with the folder, not iso_a3: a wrong iso_a3 is reported once, as such.
  const expected = `${folder.split('/')[2]}_${dataset.level}.preview.geojson`;
  if (name !== expected) {
    add(
      `${at}/preview`,
      'preview-name',
      `file name ${name} does not match the dataset: expected ${expected}`,
    );
  }
  const found = await data.find(folder, preview);
  if ('rule' in found) {
    add(`${at}/preview`, found.rule, found.message, { paths: found.paths });
    return false;
  }
  if (found.size > MAX_PREVIEW_BYTES) {
    add(
      `${at}/preview`,
      'preview-size',
      `file ${preview} has ${found.size} bytes, more than 2 MiB (${MAX_PREVIEW_BYTES})`,
      { paths: [preview] },
    );
    return false;
  }
  if (previewBytes !== undefined && previewBytes !== found.size) {
    add(
      `${at}/preview_bytes`,
      'preview-bytes',
      `file ${preview} has ${found.size} bytes, manifest says ${previewBytes}`,
      { paths: [preview], fix: recompute(context) },
    );
  }
  // A map draws it: it must be GeoJSON as much as the data (measured once, cached).
  const measured = await data.stats(folder, preview);
  if ('rule' in measured) {
    add(`${at}/preview`, measured.rule, measured.message, { paths: measured.paths });
    return false;
  }
  return name === expected;
}

/**
 * Returns why a part code cannot name its file ({LEVEL}/{code}.geojson) and
 * the download files made from it on every static host, or undefined when it
 * can. Other characters ("%", "#", "?", spaces, any letter) are fine: links
 * encode them.
 */
function unusableCode(code: string): string | undefined {
  if (code.startsWith('.'))
    return 'starts with "." (its file would be hidden: many hosts, and geoshelf serve, do not serve such files)';
  if (/[/\\]/.test(code)) return 'holds a path separator ("/" or "\\"): a part code names one file';
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(code)) return 'holds a control character';
  return undefined;
}

/** Parts: unique codes, each at `{LEVEL}/{code}.geojson`, stats right, features adding up. */
async function checkParts(context: DatasetContext, section: Section, at: string, fileSection: FileSection) {
  const { dataset, folder } = context;
  const add = section();
  const parts = dataset.parts ?? [];
  const codes = new Map<string, number>();
  parts.forEach((part, j) => {
    const first = codes.get(part.code);
    if (first === undefined) codes.set(part.code, j);
    else
      add(
        `${at}/parts/${j}/code`,
        'part-code-duplicate',
        `code "${part.code}" is already used by ${at}/parts/${first}`,
      );
    const unusable = unusableCode(part.code);
    if (unusable) add(`${at}/parts/${j}/code`, 'part-code', `code "${part.code}" ${unusable}`);
    const expected = `${folder}${dataset.level}/${part.code}.geojson`;
    if (isInside(folder, part.path) && part.path !== expected) {
      add(
        `${at}/parts/${j}/path`,
        'part-path',
        `file ${part.path} should be ${expected} (a part lives at {LEVEL}/{code}.geojson)`,
      );
    }
  });
  const sum = parts.reduce((total, part) => total + part.features, 0);
  if (sum !== dataset.features) {
    add(
      `${at}/features`,
      'part-features-sum',
      `is ${dataset.features} but the parts' features add up to ${sum}`,
    );
  }
  if (dataset.path === undefined) {
    // Published only as parts: the dataset's stats are those of its parts together.
    const union = combineStats(parts);
    const differs = (field: string, partsSay: string, manifestSays: string) =>
      add(
        `${at}/${field}`,
        'parts-stats',
        `the parts together have ${partsSay}, manifest says ${manifestSays}`,
        { fix: recompute(context) },
      );
    if (!sameBbox(dataset.bbox, union.bbox)) differs('bbox', `bbox ${show(union.bbox)}`, show(dataset.bbox));
    if (!sameGeometryTypes(dataset.geometry_types, union.geometry_types)) {
      differs('geometry_types', `geometry types ${show(union.geometry_types)}`, show(dataset.geometry_types));
    }
    if (!sameProperties(dataset.properties, union.properties)) {
      differs('properties', `properties ${show(union.properties)}`, show(dataset.properties));
    }
  }
  await Promise.all(
    parts.map((part, j) => checkFile(context, section(), `${at}/parts/${j}`, part.path, part, fileSection())),
  );
}

/** `unassigned` is the feature count of `{LEVEL}/unassigned.geojson`. */
async function checkUnassigned(context: DatasetContext, add: Add, at: string) {
  const { folder, data, dataset } = context;
  const path = `${folder}${dataset.level}/unassigned.geojson`;
  const listed = dataset.parts?.some((part) => part.path === path) ?? false;
  if (dataset.unassigned === undefined) {
    if (listed) add(`${at}/unassigned`, 'unassigned', `is missing but the parts include ${path}`);
    return;
  }
  const found = await data.stats(folder, path);
  if ('rule' in found) {
    // A listed part's unusable file is already reported at its path.
    if (listed) return;
    if (found.rule === 'file-missing')
      add(`${at}/unassigned`, 'unassigned', `is ${dataset.unassigned} but file ${path} does not exist`, {
        paths: [path],
      });
    else add(`${at}/unassigned`, found.rule, found.message, { paths: found.paths });
  } else if (found.stats.features !== dataset.unassigned) {
    add(
      `${at}/unassigned`,
      'unassigned',
      `file ${path} has ${count(found.stats.features, 'feature')}, manifest says ${dataset.unassigned}`,
      { paths: [path], fix: recompute(context) },
    );
  }
}

/** Returns e.g. "1 feature" or "3 features". */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

/** Returns the stats of several files taken together: bbox union, type counts summed, properties' union. */
export function combineStats(files: Omit<FileStats, 'bytes' | 'sha256'>[]) {
  const bbox: BBox = [Infinity, Infinity, -Infinity, -Infinity];
  const types: Required<GeometryTypes> = { MultiPolygon: 0, Polygon: 0 };
  const properties = new Set<string>();
  let features = 0;
  for (const file of files) {
    features += file.features;
    bbox[0] = Math.min(bbox[0], file.bbox[0]);
    bbox[1] = Math.min(bbox[1], file.bbox[1]);
    bbox[2] = Math.max(bbox[2], file.bbox[2]);
    bbox[3] = Math.max(bbox[3], file.bbox[3]);
    types.MultiPolygon += file.geometry_types.MultiPolygon ?? 0;
    types.Polygon += file.geometry_types.Polygon ?? 0;
    for (const name of file.properties) properties.add(name);
  }
  const geometry_types: GeometryTypes = {};
  if (types.MultiPolygon > 0) geometry_types.MultiPolygon = types.MultiPolygon;
  if (types.Polygon > 0) geometry_types.Polygon = types.Polygon;
  return { features, bbox, geometry_types, properties: [...properties].sort(byCodepoint) };
}

function sameBbox(a: BBox, b: BBox): boolean {
  return a.every((value, i) => value === b[i]);
}

/** Equal counts per type; a type with 0 features may be listed or left out. */
export function sameGeometryTypes(a: GeometryTypes, b: GeometryTypes): boolean {
  return (a.Polygon ?? 0) === (b.Polygon ?? 0) && (a.MultiPolygon ?? 0) === (b.MultiPolygon ?? 0);
}

/** The same property names, in any order. */
export function sameProperties(a: string[], b: string[]): boolean {
  const names = new Set(b);
  return a.length === b.length && a.every((name) => names.has(name));
}
