// The docs and the code's comments name only paths that exist, and every link
// between the docs' pages resolves, down to the heading it points at (issue 17:
// "comments name no paths that do not exist"). A path here is a token that
// starts with one of the repository's top-level folders (`build/geojson/scanner.ts`,
// `src/client/`, `data/earth/CHL/manifest.json`), a `./` path (from the file that
// names it), or a root Markdown file (`README.md`); a token holding a
// placeholder (`{ISO3}`, `<rule>`, `…`, `*`) is a pattern, not a path. What the
// tools write (lib/, dist/, data/locations.sqlite: .gitignore) is not checked,
// nor are `../` paths in text, which are mostly a user's folders
// (`--root ../boundaries`, `../shared/corpus`); a Markdown link's are.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkManifest } from '../build/manifest/schema.ts';

// Loaded with require: imported as an ES module, Node first scans its 9 MB
// for named exports (~0.8 s of CPU).
const ts = createRequire(import.meta.url)('typescript') as typeof import('typescript');

/** Folders whose code comments are checked. */
const COMMENTED_CODE = ['build', 'src', 'bin', 'scripts', 'bench', 'test'];
const CONFIG_FILES = ['vite.config.ts', 'eslint.config.js'];
const CODE = /\.(ts|js|mjs|cjs)$/;

const ROOT = '.';

/** A path named somewhere: where (e.g. "build/build.ts:12") and what (repository-relative). */
interface Mention {
  where: string;
  path: string;
}

/** Returns the .gitignore patterns as regular expressions over repository-relative paths. */
function ignoredPatterns(): RegExp[] {
  return readFileSync(join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#') && !line.startsWith('!'))
    .map((pattern) => {
      const anchored = pattern.replace(/\/$/, '').includes('/');
      const body = pattern
        .replace(/^\//, '')
        .replace(/\/$/, '')
        .replace(/[.+^$()|[\]\\]/g, '\\$&')
        .replace(/\*/g, '[^/]*');
      return new RegExp(`${anchored ? '^' : '(^|/)'}${body}(/|$)`);
    });
}
const IGNORED = ignoredPatterns();
/** What geoshelf writes into a publisher's data root, which the sample data does not hold: its release ledger. */
const WRITTEN_IN_ROOTS = /^data\/releases(\/|$)/;

/** Whether `path` (repository-relative) is something the tools write, e.g. "lib/src/cli/main.js". */
function isGenerated(path: string): boolean {
  return WRITTEN_IN_ROOTS.test(path) || IGNORED.some((pattern) => pattern.test(path));
}

const TOP_FOLDERS = new Set(
  readdirSync(ROOT, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && !['node_modules', '.git'].includes(entry.name))
    .map((entry) => entry.name)
    .filter((name) => !isGenerated(name)),
);

/** Returns every file under `dir` (repository-relative, "/"-separated) whose name matches `pattern`. */
function filesUnder(dir: string, pattern: RegExp): string[] {
  if (!existsSync(dir)) return [];
  if (statSync(dir).isFile()) return pattern.test(dir) ? [dir] : [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && pattern.test(entry.name))
    .map((entry) => relative(ROOT, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((file) => !file.split('/').includes('node_modules') && !isGenerated(file))
    .sort();
}

/**
 * Returns the repository path `token` names when it is one, from `file`
 * (repository-relative), else undefined: "build/core/files.ts." and "README.md"
 * are paths, and so is a "./" path from `file`; "{ISO3}.zip", "dist/assets/",
 * "/api/v1/" are not.
 */
export function pathOf(token: string, file: string): string | undefined {
  const bare = token.replace(/[.,:;!?]+$/, '');
  if (bare === '' || bare.startsWith('../') || /[{}<>…*$%|]|\.\.\./.test(bare)) return undefined;
  let path: string;
  if (/^\.\/./.test(bare)) {
    path = normalize(join(dirname(file), bare))
      .split(sep)
      .join('/');
    if (bare.endsWith('/')) path += '/';
  } else if (TOP_FOLDERS.has(bare.split('/')[0]!) && bare.includes('/')) {
    path = bare;
  } else if (/^[A-Z][A-Z0-9_-]*\.md$/.test(bare)) {
    path = bare; // e.g. README.md, at the root
  } else {
    return undefined;
  }
  return isGenerated(path) ? undefined : path;
}

/** Returns every path named in `text`, which starts at `line` of `file`. */
function pathsIn(text: string, file: string, line: number): Mention[] {
  const found: Mention[] = [];
  text.split('\n').forEach((row, i) => {
    // Characters of a path; a URL ("https://host/a/b") splits at its ':' and
    // then starts with "//", which no path does.
    for (const [token] of row.matchAll(/(?<![\w/@:.-])[\w.\-/{}<>…*$%|]+/g)) {
      const path = pathOf(token, file);
      if (path !== undefined) found.push({ where: `${file}:${line + i}`, path });
    }
  });
  return found;
}

const K = ts.SyntaxKind;
/** Tokens after which a `/` divides; after any other, it starts a regular expression. */
const EXPRESSION_ENDS = new Set([
  K.Identifier,
  K.PrivateIdentifier,
  K.NumericLiteral,
  K.BigIntLiteral,
  K.StringLiteral,
  K.RegularExpressionLiteral,
  K.NoSubstitutionTemplateLiteral,
  K.TemplateTail,
  K.CloseParenToken,
  K.CloseBracketToken,
  K.CloseBraceToken,
  K.PlusPlusToken,
  K.MinusMinusToken,
  K.ThisKeyword,
  K.SuperKeyword,
  K.TrueKeyword,
  K.FalseKeyword,
  K.NullKeyword,
]);
const TRIVIA = new Set([K.WhitespaceTrivia, K.NewLineTrivia, K.ShebangTrivia, K.ConflictMarkerTrivia]);

/**
 * Returns the comments of a TypeScript or JavaScript file, each with its first
 * line (1-based). TypeScript's scanner finds them, told from strings, templates
 * and regular expressions the way its syntax colouring does: a `/` where an
 * expression cannot have ended starts a regular expression, and a `}` that
 * closes a template's `${` continues the template. (The same comments as a
 * full parse, at a twentieth of the cost.)
 */
export function commentsOf(text: string): { text: string; line: number }[] {
  const scanner = ts.createScanner(ts.ScriptTarget.Latest, false, ts.LanguageVariant.Standard, text);
  const comments: { text: string; line: number }[] = [];
  const braces: boolean[] = []; // open braces, innermost last: true for a template's ${
  let endsExpression = false;
  let line = 1;
  let counted = 0; // text before this offset has been counted into `line`
  for (let kind = scanner.scan(); kind !== K.EndOfFileToken; kind = scanner.scan()) {
    if (kind === K.SingleLineCommentTrivia || kind === K.MultiLineCommentTrivia) {
      const start = scanner.getTokenStart();
      for (let nl = text.indexOf('\n', counted); nl !== -1 && nl < start; nl = text.indexOf('\n', nl + 1)) {
        line++;
        counted = nl + 1;
      }
      comments.push({ text: scanner.getTokenText(), line });
      continue;
    }
    if (TRIVIA.has(kind)) continue;
    if ((kind === K.SlashToken || kind === K.SlashEqualsToken) && !endsExpression) {
      kind = scanner.reScanSlashToken();
    } else if (kind === K.TemplateHead || kind === K.OpenBraceToken) {
      braces.push(kind === K.TemplateHead);
    } else if (kind === K.CloseBraceToken && braces.pop()) {
      kind = scanner.reScanTemplateToken(false);
      if (kind === K.TemplateMiddle) braces.push(true);
    }
    // `!` after an expression is TypeScript's non-null assertion (`x! / 2`); before one, a negation (`!/a/.test(s)`).
    endsExpression = EXPRESSION_ENDS.has(kind) || (kind === K.ExclamationToken && endsExpression);
  }
  return comments;
}

/** Returns the lines of `text` outside fenced code blocks, with their numbers. */
function proseLines(text: string): { row: string; line: number }[] {
  let fenced = false;
  return text.split('\n').flatMap((row, i) => {
    if (/^\s*(```|~~~)/.test(row)) {
      fenced = !fenced;
      return [];
    }
    return fenced ? [] : [{ row, line: i + 1 }];
  });
}

/** Returns a heading's anchor as GitHub makes it, e.g. "Exit codes and output" → "exit-codes-and-output". */
export function slug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1') // a link's text
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M} _-]/gu, '')
    .replace(/ /g, '-');
}

/** Returns the anchors of a Markdown file: its headings' (repeats get -1, -2…) and explicit ids. */
function anchorsOf(file: string): Set<string> {
  const text = readFileSync(file, 'utf8');
  const anchors = new Set<string>();
  const counts = new Map<string, number>();
  for (const { row } of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(row);
    if (heading) {
      const base = slug(heading[1]!);
      const n = counts.get(base) ?? 0;
      counts.set(base, n + 1);
      anchors.add(n === 0 ? base : `${base}-${n}`);
    }
    for (const [, id] of row.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) anchors.add(id!);
  }
  return anchors;
}

/** Every Markdown page of the docs. */
const PAGES = ['README.md', ...filesUnder('docs', /\.md$/), ...filesUnder('scripts', /\.md$/)];

/** Returns the links of a Markdown file that stay in the repository: target (repository-relative) and anchor. */
function linksOf(file: string): (Mention & { anchor?: string })[] {
  const links: (Mention & { anchor?: string })[] = [];
  for (const { row, line } of proseLines(readFileSync(file, 'utf8'))) {
    for (const [, target] of row.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
      if (/^[a-z][a-z+.-]*:/i.test(target!)) continue; // https:, mailto:
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const resolved =
        path === ''
          ? file
          : normalize(join(dirname(file), path))
              .split(sep)
              .join('/');
      links.push({ where: `${file}:${line}`, path: resolved, anchor });
    }
  }
  return links;
}

/** Returns the mentions whose path does not exist. */
function missing(mentions: Mention[]): string[] {
  return mentions
    .filter(({ path }) => !existsSync(join(ROOT, path)))
    .map(({ where, path }) => `${where}: ${path}`);
}

describe('paths named by docs and comments', () => {
  it('every path a code comment names exists', () => {
    const files = [...COMMENTED_CODE.flatMap((dir) => filesUnder(dir, CODE)), ...CONFIG_FILES];
    expect(files.length).toBeGreaterThan(200);
    const mentions = files.flatMap((file) =>
      commentsOf(readFileSync(file, 'utf8')).flatMap((c) => pathsIn(c.text, file, c.line)),
    );
    expect(missing(mentions)).toEqual([]);
  });

  it('every module a code comment names by its file name alone (e.g. "map-svg.ts") is one of ours', () => {
    const files = [...COMMENTED_CODE.flatMap((dir) => filesUnder(dir, CODE)), ...CONFIG_FILES];
    const names = new Set(files.map((file) => file.split('/').at(-1)));
    const unknown = files.flatMap((file) =>
      commentsOf(readFileSync(file, 'utf8')).flatMap((c) =>
        [...c.text.matchAll(/(?<![\w/.{}-])([a-z][\w-]*\.(?:ts|mjs))\b/g)]
          .map((m) => m[1]!)
          .filter((name) => !names.has(name))
          .map((name) => `${file}:${c.line}: ${name}`),
      ),
    );
    expect(unknown).toEqual([]);
  });

  it('every path a docs page names exists', () => {
    const mentions = PAGES.flatMap((page) =>
      // Paths in the text are from the repository's root, as a reader types them
      // in a checkout; links (checked below) are from the page.
      readFileSync(page, 'utf8')
        .split('\n')
        .flatMap((row, i) => pathsIn(row.replace(/\]\([^)]*\)/g, ']'), page, i + 1)),
    );
    expect(missing(mentions)).toEqual([]);
  });

  it("every link of a docs page reaches its file, and the file's heading when it names one", () => {
    const broken: string[] = [];
    for (const page of PAGES) {
      for (const link of linksOf(page)) {
        if (!existsSync(link.path)) broken.push(`${link.where}: ${link.path}`);
        else if (link.anchor !== undefined && !link.path.endsWith('.md'))
          broken.push(`${link.where}: ${link.path}#${link.anchor} (an anchor into a file that has none)`);
        else if (link.anchor !== undefined && !anchorsOf(link.path).has(link.anchor))
          broken.push(`${link.where}: ${link.path}#${link.anchor} (no such heading)`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('the README links every page of docs/', () => {
    const linked = new Set(linksOf('README.md').map((link) => link.path));
    expect(filesUnder('docs', /\.md$/).filter((page) => !linked.has(page))).toEqual([]);
  });
});

describe('what counts as a path', () => {
  it.each([
    ['build/core/files.ts.', 'build/core/files.ts'],
    ['src/client/', 'src/client/'],
    ['./compile.js', 'bin/compile.js'],
    ['README.md', 'README.md'],
  ])('%s names %s (from bin/geoshelf.js)', (token, path) => {
    expect(pathOf(token, 'bin/geoshelf.js')).toBe(path);
  });

  it.each([
    'data/{body}/{ISO3}/manifest.json', // a pattern
    'test/fixtures/manifests/false/<rule>/',
    'test/fixtures/geometry/true/*.geojson',
    'data/locations.sqlite', // written by the tools (.gitignore)
    'lib/build/measure/worker.js',
    '../boundaries/data/earth/CHL/manifest.json', // a user's folder beside the current one
    'dist/assets/', // not a folder of the repository
    'manifest.json', // a file name, not a path
  ])('%s is not checked', (token) => {
    expect(pathOf(token, 'bin/geoshelf.js')).toBeUndefined();
  });

  it('comments are told from strings, templates and regular expressions', () => {
    const text = [
      '#!/usr/bin/env node',
      'const url = `http://${host}/a`; // see build/a.ts',
      "const re = /\\/\\/x/; const s = '// src/not-a-comment.ts';",
      '/** Returns b, e.g. "src/b.ts". */',
      'function f() {',
      '  g();',
      '  // before the brace: bench/c.ts',
      '}',
      "const t = `a${ {k: '//x'}['k'] }b${x}/* not */`; const n = !/\\/\\//.test(t) ? x! / 2 : 1; // d/e.ts",
    ].join('\n');
    expect(commentsOf(text)).toEqual([
      { text: '// see build/a.ts', line: 2 },
      { text: '/** Returns b, e.g. "src/b.ts". */', line: 4 },
      { text: '// before the brace: bench/c.ts', line: 7 },
      { text: '// d/e.ts', line: 9 },
    ]);
  });

  it('anchors are GitHub\'s: "`geoshelf build`: the catalogue" → geoshelf-build-the-catalogue', () => {
    expect(slug('`geoshelf build`: the catalogue')).toBe('geoshelf-build-the-catalogue');
    expect(slug('Downloads: other formats and country archives')).toBe(
      'downloads-other-formats-and-country-archives',
    );
    expect(slug('Measuring [GeoJSON](x.md) files')).toBe('measuring-geojson-files');
  });
});

describe('examples in the docs', () => {
  /** Returns the first fenced block of `lang` after `heading` in a docs page. */
  const block = (page: string, heading: string, lang: string) => {
    const text = readFileSync(join(ROOT, page), 'utf8');
    const from = text.indexOf(heading);
    const match = new RegExp('```' + lang + '\\n([\\s\\S]*?)```').exec(text.slice(from));
    if (from < 0 || !match) throw new Error(`no ${lang} block after "${heading}" in ${page}`);
    return match[1]!;
  };

  it('the manifest example of docs/manifests.md passes the schema, and shows the sample manifest as it is', () => {
    const example = JSON.parse(block('docs/manifests.md', '## The manifest format', 'json')) as {
      datasets: Record<string, unknown>[];
    } & Record<string, unknown>;
    expect(checkManifest(example)).toMatchObject({ ok: true });
    const sample = JSON.parse(
      readFileSync(join(ROOT, 'data/earth/ABW/manifest.json'), 'utf8'),
    ) as typeof example;
    for (const key of Object.keys(example))
      if (key !== 'datasets') expect(example[key], key).toEqual(sample[key]);
    for (const [key, value] of Object.entries(example.datasets[0]!)) {
      expect(value, `datasets/0/${key}`).toEqual(sample.datasets[0]![key]);
    }
  });
});
