// The mutations of the ledger fuzz tests (test/support/ledger-fuzz.ts runs
// them): each damages a ledger as a pull request could, its details drawn
// from a seeded generator, keeping the hashes right where the damage is to
// the records' shapes (then only the shape checks can see it).
import { createHash } from 'node:crypto';
import {
  cpSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync } from 'node:zlib';
import { seededRandom } from './random.ts';

const LEDGER = 'data/releases';
/** The level file the fixture's releases change. */
export const ADM1 = 'data/earth/CHL/CHL_ADM1.geojson';

/** The releases of the ledger every case starts from, in order; the next one `release` records. */
export const VERSIONS = ['1.0.0', '1.1.0'];
export const NEXT = '1.2.0';

/** The version that is a script where HTML shows it (issue 27, item 2). */
export const XSS_VERSION = '9"><img src=x onerror=window.__pwned=1>';

/** Text that runs script wherever a page shows it unescaped, or follows it as a link. */
const XSS = [
  '<img src=x onerror=window.__pwned=1>',
  '"><svg onload=window.__pwned=1>',
  "'><script>window.__pwned=1</script>",
  'javascript:window.__pwned=1',
  '</script><script>window.__pwned=1</script>',
];

/** Paths that leave the folder they are joined to, or mean something else on some system. */
const BAD_PATHS = [
  '../../../../victim.txt',
  '../../../../../../victim.txt',
  '/etc/passwd',
  '/tmp/victim.txt',
  'a\\b',
  '..\\..\\victim.txt',
  '',
  'a//b',
  './a',
  'earth/../../../victim.txt',
  'a/\u0001b',
  'a\nb',
  'earth/CHL/\u0000.html',
];

/** Values of a wrong type, or none. */
const WRONG = [null, {}, [], 42, -1, 1.5, '', 'x', true, '2', [null]];

/** A ledger being mutated: its files, and ways to rewrite its records keeping them well hashed. */
export class LedgerEdit {
  constructor(
    readonly root: string,
    readonly random: () => number,
  ) {}

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('nothing to pick from');
    return items[Math.floor(this.random() * items.length)]!;
  }

  path(...parts: string[]): string {
    return join(this.root, LEDGER, ...parts);
  }

  releaseJson(version: string): Record<string, unknown> {
    return JSON.parse(readFileSync(this.path(version, 'release.json'), 'utf8')) as Record<string, unknown>;
  }

  writeReleaseJson(version: string, record: unknown): void {
    writeFileSync(this.path(version, 'release.json'), `${JSON.stringify(record, null, 1)}\n`);
  }

  /** The record lists a release names chunks of (ledger_version 2, 3 and 4). */
  lists(version: string): string[] {
    const chunks = this.releaseJson(version).chunks as Record<string, string[]> | undefined;
    return Object.keys(chunks ?? {}).filter((list) => (chunks![list] ?? []).length > 0);
  }

  /** The sha256s of the chunks of list `list` of release `version`: in ledger_version 4 those its index chunks name. */
  leafShas(version: string, list: string): string[] {
    const record = this.releaseJson(version);
    const named = (record.chunks as Record<string, string[]>)[list]!;
    return record.ledger_version === 4 ? named.flatMap((sha) => this.chunkItems(sha) as string[]) : named;
  }

  /** Writes a chunk of `text` into release `version`'s records/ as `like` is stored (compressed or not); returns its sha256. */
  private writeChunk(version: string, text: string, like: { br: boolean }): string {
    const sha = createHash('sha256').update(text).digest('hex');
    const dir = this.path(version, 'records');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, `${sha}.json${like.br ? '.br' : ''}`), like.br ? brotliCompressSync(text) : text);
    return sha;
  }

  /** The file of record chunk `sha` in any release folder, and whether it is compressed. */
  chunkFile(sha: string): { file: string; br: boolean } {
    for (const version of readdirSync(this.path())) {
      for (const name of [`${sha}.json.br`, `${sha}.json`]) {
        const file = this.path(version, 'records', name);
        if (existsSync(file)) return { file, br: name.endsWith('.br') };
      }
    }
    throw new Error(`no record chunk ${sha}`);
  }

  chunkItems(sha: string): unknown[] {
    const { file, br } = this.chunkFile(sha);
    const bytes = readFileSync(file);
    return JSON.parse((br ? brotliDecompressSync(bytes) : bytes).toString('utf8')) as unknown[];
  }

  /**
   * Replaces chunk `index` of list `list` of release `version` by a chunk
   * holding `text` (stored as the ledger stores chunks, named by its
   * sha256): damage the hashes cannot see.
   */
  replaceChunk(version: string, list: string, index: number, text: string): void {
    const record = this.releaseJson(version);
    const chunks = record.chunks as Record<string, string[]>;
    const named = chunks[list]!;
    if (record.ledger_version !== 4) {
      named[index] = this.writeChunk(version, text, this.chunkFile(named[index]!));
      this.writeReleaseJson(version, record);
      return;
    }
    // ledger_version 4: the index chunk naming it is written again too.
    let first = 0;
    for (const [i, indexSha] of named.entries()) {
      const leaves = this.chunkItems(indexSha) as string[];
      if (index < first + leaves.length) {
        leaves[index - first] = this.writeChunk(version, text, this.chunkFile(leaves[index - first]!));
        named[i] = this.writeChunk(version, JSON.stringify(leaves), this.chunkFile(indexSha));
        this.writeReleaseJson(version, record);
        return;
      }
      first += leaves.length;
    }
    throw new Error(`${version} ${list} has no chunk ${index}`);
  }

  /** Files of a kind in every release folder's `sub` (e.g. "objects"), by path from the ledger. */
  files(sub: string, pattern: RegExp): string[] {
    if (!existsSync(this.path())) return [];
    return readdirSync(this.path()).flatMap((version) => {
      const dir = this.path(version, sub);
      if (!existsSync(dir)) return [];
      return readdirSync(dir)
        .filter((name) => pattern.test(name))
        .map((name) => join(version, sub, name));
    });
  }
}

/** One way to damage a ledger; returns what it did (the case's name in a failure). */
export type Mutation = (edit: LedgerEdit) => string;

/** Cuts a file at a random byte, or empties it. */
function truncate(edit: LedgerEdit, file: string): string {
  const bytes = readFileSync(edit.path(file));
  const at = edit.random() < 0.25 ? 0 : Math.floor(edit.random() * bytes.length);
  writeFileSync(edit.path(file), bytes.subarray(0, at));
  return `${file} cut at byte ${at} of ${bytes.length}`;
}

/** Values for a field of a record item: wrong types, bad paths, script, nothing. */
function fieldValues(field: string): unknown[] {
  if (field === 'path' || field === 'file') return [...BAD_PATHS, undefined, null];
  return [...WRONG, ...XSS, undefined];
}

/** The mutations, by name: each applies one kind of damage, its details drawn from `edit.random`. */
export const MUTATIONS: Record<string, Mutation> = {
  'release.json field of a wrong type or missing': (edit) => {
    const version = edit.pick(VERSIONS);
    const record = edit.releaseJson(version);
    const field = edit.pick([
      'sequence',
      'previous',
      'version',
      'counts',
      'thresholds',
      'code_key',
      'date',
      'ledger_version',
      'chunks',
    ]);
    const value = edit.pick([...WRONG, ...XSS, undefined]);
    if (value === undefined) delete record[field];
    else record[field] = value;
    edit.writeReleaseJson(version, record);
    return `${version}/release.json ${field} = ${JSON.stringify(value) ?? '(none)'}`;
  },
  'sequence as a string': (edit) => {
    const record = edit.releaseJson('1.1.0');
    record.sequence = '2';
    edit.writeReleaseJson('1.1.0', record);
    return '1.1.0/release.json sequence "2"';
  },
  'counts null': (edit) => {
    const version = edit.pick(VERSIONS);
    const record = edit.releaseJson(version);
    record.counts = edit.pick([null, { units: null, changes: {} }, { units: 3, changes: { added: -1 } }]);
    edit.writeReleaseJson(version, record);
    return `${version}/release.json counts ${JSON.stringify(record.counts)}`;
  },
  'previous pointing elsewhere': (edit) => {
    const record = edit.releaseJson('1.1.0');
    record.previous = edit.pick(['1.1.0', '0.9.0', '2.0.0', XSS_VERSION, '../1.0.0']);
    edit.writeReleaseJson('1.1.0', record);
    return `1.1.0/release.json previous ${JSON.stringify(record.previous)}`;
  },
  'a chunk list naming what is not a chunk': (edit) => {
    const version = edit.pick(VERSIONS);
    const record = edit.releaseJson(version);
    const chunks = record.chunks as Record<string, unknown>;
    const list = edit.pick(Object.keys(chunks));
    chunks[list] = edit.pick([null, 'x', [42], ['../../../../victim'], ['0'.repeat(64)], {}]);
    edit.writeReleaseJson(version, record);
    return `${version}/release.json chunks.${list} = ${JSON.stringify(chunks[list])}`;
  },
  'version and folder the script': (edit) => {
    const from = edit.pick(VERSIONS);
    renameSync(edit.path(from), edit.path(XSS_VERSION));
    const record = edit.releaseJson(XSS_VERSION);
    record.version = XSS_VERSION;
    edit.writeReleaseJson(XSS_VERSION, record);
    return `${from} renamed ${XSS_VERSION}, its release.json too`;
  },
  'an extra release folder named the script': (edit) => {
    cpSync(edit.path('1.1.0'), edit.path(XSS_VERSION), { recursive: true });
    const record = edit.releaseJson(XSS_VERSION);
    Object.assign(record, { version: XSS_VERSION, sequence: 3, previous: '1.1.0' });
    edit.writeReleaseJson(XSS_VERSION, record);
    return `a copy of 1.1.0 as ${XSS_VERSION}, release number 3`;
  },
  'record version the script': (edit) => {
    const version = edit.pick(VERSIONS);
    const record = edit.releaseJson(version);
    record.version = XSS_VERSION;
    edit.writeReleaseJson(version, record);
    return `${version}/release.json version ${XSS_VERSION}`;
  },
  'release.json cut or emptied': (edit) => truncate(edit, join(edit.pick(VERSIONS), 'release.json')),
  'release.json missing, or a folder': (edit) => {
    const version = edit.pick(VERSIONS);
    rmSync(edit.path(version, 'release.json'));
    if (edit.random() < 0.5) mkdirSync(edit.path(version, 'release.json'));
    return `${version}/release.json removed`;
  },
  'a chunk item of the wrong kind': (edit) => {
    const version = edit.pick(VERSIONS);
    const list = edit.pick(edit.lists(version));
    const shas = edit.leafShas(version, list);
    const index = Math.floor(edit.random() * shas.length);
    const items = edit.chunkItems(shas[index]!);
    const at = Math.floor(edit.random() * Math.max(1, items.length));
    const value = edit.pick([null, {}, 42, 'x', [], [null]]);
    items[at] = value;
    edit.replaceChunk(version, list, index, JSON.stringify(items));
    return `${version} ${list} chunk ${index} item ${at} = ${JSON.stringify(value)}`;
  },
  'a chunk item field of a wrong type, a bad path or script': (edit) => {
    const version = edit.pick(VERSIONS);
    const list = edit.pick(edit.lists(version));
    const shas = edit.leafShas(version, list);
    const index = Math.floor(edit.random() * shas.length);
    const items = edit.chunkItems(shas[index]!) as Record<string, unknown>[];
    if (items.length === 0) return `${version} ${list} chunk ${index}: empty, left as it is`;
    const at = Math.floor(edit.random() * items.length);
    const item = items[at]!;
    const field = edit.pick(Object.keys(item));
    const value = edit.pick(fieldValues(field));
    if (value === undefined) delete item[field];
    else item[field] = value;
    edit.replaceChunk(version, list, index, JSON.stringify(items));
    return `${version} ${list} chunk ${index} item ${at}: ${field} = ${JSON.stringify(value) ?? '(none)'}`;
  },
  'a published path that climbs out, with the bytes of a stored file': (edit) => {
    const version = edit.pick(VERSIONS);
    const shas = edit.leafShas(version, 'site');
    const index = Math.floor(edit.random() * shas.length);
    const items = edit.chunkItems(shas[index]!) as Record<string, unknown>[];
    const at = Math.floor(edit.random() * items.length);
    const path = edit.pick(BAD_PATHS);
    items[at] = { ...items[at], path };
    delete items[at]!.template;
    edit.replaceChunk(version, 'site', index, JSON.stringify(items));
    return `${version} site chunk ${index} item ${at}: path ${JSON.stringify(path)}`;
  },
  'a chunk that is not a list of items': (edit) => {
    const version = edit.pick(VERSIONS);
    const list = edit.pick(edit.lists(version));
    const text = edit.pick([
      '[null]',
      '{}',
      'null',
      '"x"',
      '[[]]',
      '[{"files": null}]',
      '[{"counts": null}]',
    ]);
    edit.replaceChunk(version, list, 0, text);
    return `${version} ${list} chunk 0 = ${text}`;
  },
  'a country change without its lists': (edit) => {
    const shas = edit.leafShas('1.1.0', 'changes');
    const items = edit.chunkItems(shas[0]!);
    const head = { country: 'CHL', body: 'earth', name: 'Chile' };
    const item = edit.pick([
      { type: 'country-added', ...head, levels: null },
      { type: 'country-removed', ...head, levels: [42] },
      { type: 'country-changed', ...head, fields: null },
      { type: 'country-changed', ...head, fields: [{ field: 1, from: 'a', to: 'b' }] },
      { type: 'country-changed', ...head },
    ]);
    items.push(item);
    edit.replaceChunk('1.1.0', 'changes', 0, JSON.stringify(items));
    return `1.1.0 changes chunk 0: ${JSON.stringify(item)} added`;
  },
  'a registry unit without its id': (edit) => {
    const version = edit.pick(VERSIONS);
    const shas = edit.leafShas(version, 'registry');
    const items = edit.chunkItems(shas[0]!) as Record<string, unknown>[];
    delete items[Math.floor(edit.random() * items.length)]!.id;
    edit.replaceChunk(version, 'registry', 0, JSON.stringify(items));
    return `${version} registry chunk 0: a unit without id`;
  },
  'a level whose files are null': (edit) => {
    const version = edit.pick(VERSIONS);
    const shas = edit.leafShas(version, 'levels');
    const items = edit.chunkItems(shas[0]!) as Record<string, unknown>[];
    const at = Math.floor(edit.random() * items.length);
    items[at]!.files = null;
    edit.replaceChunk(version, 'levels', 0, JSON.stringify(items));
    return `${version} levels chunk 0 item ${at}: files null`;
  },
  'a record chunk cut, emptied or lost': (edit) => {
    const file = edit.pick(edit.files('records', /\.json(\.br)?$/));
    if (edit.random() < 0.25) {
      rmSync(edit.path(file));
      return `${file} removed`;
    }
    return truncate(edit, file);
  },
  'a pack index cut, emptied or not one': (edit) => {
    const file = edit.pick(edit.files('objects', /^pack-.*\.json$/));
    if (edit.random() < 0.3) {
      writeFileSync(
        edit.path(file),
        edit.pick(['{}', '[]', 'null', '{"pack":1,"members":[[1,2,3]]}', '{"pack":2,"members":[]}']),
      );
      return `${file} rewritten`;
    }
    return truncate(edit, file);
  },
  'a pack index naming a sha256 its pack does not hold': (edit) => {
    const file = edit.pick(edit.files('objects', /^pack-.*\.json$/));
    const index = JSON.parse(readFileSync(edit.path(file), 'utf8')) as {
      members: [string, number, number][];
    };
    const at = Math.floor(edit.random() * index.members.length);
    const other = createHash('sha256').update(String(edit.random())).digest('hex');
    if (edit.random() < 0.5) index.members[at]![0] = other;
    else {
      const last = index.members.at(-1)!;
      index.members.push([other, last[1] + last[2], 1 + Math.floor(edit.random() * 1000)]);
    }
    writeFileSync(edit.path(file), JSON.stringify(index));
    return `${file}: member ${other.slice(0, 8)}…`;
  },
  'a pack cut, emptied or lost': (edit) => {
    const file = edit.pick(edit.files('objects', /^pack-.*\.br$/));
    if (edit.random() < 0.25) {
      rmSync(edit.path(file));
      return `${file} removed`;
    }
    return truncate(edit, file);
  },
  'the pack holding the level the next release reads back, cut': (edit) => {
    const shas = edit.leafShas('1.1.0', 'levels');
    const levels = shas.flatMap((sha) => edit.chunkItems(sha)) as {
      files: { path: string; sha256: string }[];
    }[];
    const level = levels.flatMap((l) => l.files).find((f) => f.path === ADM1)!;
    const index = edit
      .files('objects', /^pack-.*\.json$/)
      .find((file) => readFileSync(edit.path(file), 'utf8').includes(level.sha256))!;
    const pack = index.replace(/\.json$/, '.br');
    const bytes = readFileSync(edit.path(pack));
    writeFileSync(edit.path(pack), bytes.subarray(0, bytes.length >> 1));
    return `${pack}, which holds ${ADM1} as 1.1.0 released it, cut in half`;
  },
  'a stored object cut, emptied, changed or lost': (edit) => {
    const file = edit.pick(edit.files('objects', /^[0-9a-f]{64}(\.br)?$/));
    const roll = edit.random();
    if (roll < 0.2) {
      rmSync(edit.path(file));
      return `${file} removed`;
    }
    if (roll < 0.5) {
      const bytes = readFileSync(edit.path(file));
      bytes[Math.floor(edit.random() * bytes.length)]! ^= 0x20;
      writeFileSync(edit.path(file), bytes);
      return `${file}: a byte changed`;
    }
    return truncate(edit, file);
  },
  'data/releases a file': (edit) => {
    rmSync(edit.path(), { recursive: true });
    writeFileSync(edit.path(), 'not a ledger\n');
    return 'data/releases is a file';
  },
  'a stray folder or file in the ledger': (edit) => {
    const name = edit.pick(['notes', 'README', '.git-keep', 'v2', '1.0', '2.0.0-rc.1']);
    if (edit.random() < 0.7) mkdirSync(edit.path(name), { recursive: true });
    else writeFileSync(edit.path(name), 'notes\n');
    return `data/releases/${name} added`;
  },
  'a ledger file that is a link elsewhere': (edit) => {
    const files = [
      ...edit.files('objects', /./),
      ...edit.files('records', /./),
      ...VERSIONS.map((v) => join(v, 'release.json')),
    ];
    const file = edit.pick(files);
    const target = edit.pick(['/dev/zero', '/etc/passwd', '../../../../sentinel.txt']);
    rmSync(edit.path(file));
    symlinkSync(target, edit.path(file));
    return `${file} → ${target}`;
  },
};

/** Returns mutation `name` applied with seed `seed`, or a random one. */
export function mutate(root: string, seed: number, name?: string): string {
  const random = seededRandom(seed);
  const edit = new LedgerEdit(root, random);
  const names = Object.keys(MUTATIONS);
  const chosen = name ?? names[Math.floor(random() * names.length)]!;
  return `${chosen}: ${MUTATIONS[chosen]!(edit)}`;
}
