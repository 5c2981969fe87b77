// Release versions: what a version may be (a folder name and a URL segment
// on every host) and the order releases must follow. Checked wherever a
// version comes in: the CLI's argument, and every folder and record of a
// ledger, which arrives through pull requests like any manifest.

/**
 * A version names a folder and a URL path segment on every host: 1 to 32
 * characters, lower-case letters, digits, "." and "-", starting with a digit
 * and ending with a letter or digit, e.g. "2026.11", "1.2.0", "1.0.0-rc.1".
 */
const VERSION_RULE = /^[0-9](?:[0-9a-z.-]{0,30}[0-9a-z])?$/;

/** Returns whether `value` is a version: a string VERSION_RULE accepts, without "..". */
export function isVersion(value: unknown): value is string {
  return typeof value === 'string' && VERSION_RULE.test(value) && !value.includes('..');
}

/** Returns why `version` is not a valid release version, or undefined when it is. */
export function versionProblem(version: string): string | undefined {
  if (!isVersion(version)) {
    return `"${version}" is not a release version: 1 to 32 lower-case letters, digits, "." and "-", starting with a digit and ending with a letter or digit, e.g. 2026.11 or 1.2.0`;
  }
  return undefined;
}

/**
 * Compares two versions in release order: calendar versions ("2026.11",
 * "2027.01.15") and semantic versions ("1.2.0", "1.2.0-rc.1") alike, as
 * semver orders them. The part before the first "-" is split at "." into
 * numbers, compared as numbers ("2027.1" and "2027.01" are the same
 * release; a missing part counts as 0, so "1.2" equals "1.2.0"); a version
 * with a pre-release part (after "-") comes before the same version without
 * one ("1.0.0-rc.1" < "1.0.0"); pre-release identifiers compare one by one,
 * numbers as numbers and below words, words in ASCII order, a shorter list
 * first. A non-numeric part of the main version ("1.x") compares as a word,
 * after every number. Returns < 0, 0 or > 0.
 */
export function compareVersions(a: string, b: string): number {
  const [mainA, preA] = split(a);
  const [mainB, preB] = split(b);
  const n = Math.max(mainA.length, mainB.length);
  for (let i = 0; i < n; i++) {
    const c = compareIdentifier(mainA[i] ?? '0', mainB[i] ?? '0');
    if (c !== 0) return c;
  }
  if (preA === undefined || preB === undefined) return preA === preB ? 0 : preA === undefined ? 1 : -1;
  for (let i = 0; i < Math.max(preA.length, preB.length); i++) {
    if (preA[i] === undefined) return -1;
    if (preB[i] === undefined) return 1;
    const c = compareIdentifier(preA[i]!, preB[i]!);
    if (c !== 0) return c;
  }
  return 0;
}

/** Returns a version's main parts and its pre-release parts (undefined without a "-"). */
function split(version: string): [string[], string[] | undefined] {
  const dash = version.indexOf('-');
  const main = (dash < 0 ? version : version.slice(0, dash)).split('.');
  return [main, dash < 0 ? undefined : version.slice(dash + 1).split(/[.-]/)];
}

/** Numbers compare as numbers (at any length) and come before words; words in ASCII order. */
function compareIdentifier(a: string, b: string): number {
  const numA = /^[0-9]+$/.test(a);
  const numB = /^[0-9]+$/.test(b);
  if (numA && numB) {
    const x = a.replace(/^0+(?=.)/, '');
    const y = b.replace(/^0+(?=.)/, '');
    return x.length !== y.length ? x.length - y.length : x < y ? -1 : x > y ? 1 : 0;
  }
  if (numA !== numB) return numA ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}
