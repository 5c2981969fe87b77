// The security boundary of the pipeline: nothing outside a root's data/
// folder is ever read as data or published. Every path a manifest names (and
// every manifest and country folder) is resolved through symbolic links here
// and refused when its real path leaves <root>/data. A link that stays inside
// <root>/data is followed: it is read, and published, as the file it points
// to (a copy at the manifest's path), like any other file of the tree.
import type { Stats } from 'node:fs';
import { realpathSync, statSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { join, relative, resolve, sep } from 'node:path';
import { UserError } from './errors.ts';
import { problem } from './problem.ts';

/** What a path under the root leads to, after following every link in it. */
export type Resolved =
  | { kind: 'missing' }
  | { kind: 'outside'; real: string } // e.g. real "/etc/passwd"
  | { kind: 'file' | 'folder' | 'other'; real: string; size: number; stats: Stats };

const dataRoots = new Map<string, string>(); // root → real path of root/data

/** Returns the real path of `<root>/data` (memoised per root). */
function realDataRoot(root: string): string {
  let real = dataRoots.get(root);
  if (real === undefined) {
    try {
      real = realpathSync.native(join(root, 'data'));
    } catch {
      real = join(root, 'data');
    }
    dataRoots.set(root, real);
  }
  return real;
}

/** Returns whether the real path `real` is `<root>/data` or inside it. */
function isInsideData(root: string, real: string): boolean {
  const data = realDataRoot(root);
  return real === data || real.startsWith(data + sep);
}

/**
 * Returns what `file` (relative to `root`, e.g. "data/earth/CHL/CHL_ADM1.geojson")
 * leads to once every symbolic link in it is followed: missing, outside
 * `<root>/data` (never to be read), or a file, folder or other thing inside it.
 */
export async function resolveInData(root: string, file: string): Promise<Resolved> {
  let real: string;
  try {
    real = await realpath(join(root, file));
  } catch (error) {
    return missing(error);
  }
  if (!isInsideData(root, real)) return { kind: 'outside', real };
  return found(real, await stat(real));
}

/** resolveInData without the thread pool, for callers that resolve thousands of files in a row. */
export function resolveInDataSync(root: string, file: string): Resolved {
  let real: string;
  try {
    real = realpathSync.native(join(root, file));
  } catch (error) {
    return missing(error);
  }
  if (!isInsideData(root, real)) return { kind: 'outside', real };
  return found(real, statSync(real));
}

/** What a path that cannot be resolved (realpath's `error`) leads to: nothing, or an error thrown again. */
function missing(error: unknown): Resolved {
  const code = (error as NodeJS.ErrnoException).code;
  if (code === 'ENOENT' || code === 'ENOTDIR' || code === 'ELOOP') return { kind: 'missing' };
  throw error;
}

function found(real: string, info: Stats): Resolved {
  const kind = info.isFile() ? 'file' : info.isDirectory() ? 'folder' : 'other';
  return { kind, real, size: info.size, stats: info };
}

/**
 * Returns the message for `file`, whose links lead outside the data folder to
 * `real` (named relative to `root` when under it, e.g. "secret.geojson", else
 * absolute, e.g. "/etc/passwd"), and the files it names relative to `root`
 * (Problem.paths).
 */
export function outsideProblem(
  root: string,
  file: string,
  real: string,
): { message: string; paths: string[] } {
  const inside = real.startsWith(resolve(root) + sep);
  const where = inside ? relative(root, real) : real;
  return {
    message: `file ${file} leads outside data/ through a symbolic link (to ${where}); it is never read or published`,
    paths: inside ? [file, where] : [file],
  };
}

/**
 * Returns the real path and stats of the data file `file` about to be
 * published; throws a UserError naming it (rule `link-outside`) when it leads
 * outside the data folder or is not a file. Synchronous: a build publishes
 * every data file, and resolves them several times faster so.
 */
export function publishedDataFile(root: string, file: string): { real: string; stats: Stats } {
  const found = resolveInDataSync(root, file);
  if (found.kind === 'file') return { real: found.real, stats: found.stats };
  const why =
    found.kind === 'outside' ? outsideProblem(root, file, found.real) : { message: 'is not a file' };
  throw new UserError(
    problem(file, why.message, { rule: 'link-outside', ...('paths' in why ? { paths: why.paths } : {}) }),
  );
}
