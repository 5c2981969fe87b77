// A new file is loaded in bulk (no index until the last row, the key built
// once, sorting) and falls back to row-by-row checking at the first problem:
// neither the file nor the problems may tell which way it went.
import { execFileSync } from 'node:child_process';
import { createWriteStream, existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../build/core/problem.ts';
import { importLocations } from '../../src/locations/import.ts';
import { tempDir } from '../server/helpers.ts';

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

const HEADER = 'id,name,description,type,latitude,longitude\n';
const row = (id: string, n: number, latitude = '-33.1') =>
  `${id},EJEMPLO - Lugar ${n},EJEMPLO - desc,otro,${latitude},-70.1\n`;
const ID = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function query(db: string, sql: string) {
  const handle = new Database(db, { readonly: true });
  try {
    return handle.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    handle.close();
  }
}
const schema = (db: string) =>
  query(db, 'SELECT type, name, tbl_name, sql FROM sqlite_master ORDER BY type, name');

describe('bulk load of a new file', () => {
  it('ends with the key (id NOT NULL, unique index): the same schema as a row-by-row import, integrity ok, duplicates refused', async () => {
    const bulkCsv = join(dir, 'bulk.csv');
    await writeFile(bulkCsv, HEADER + row(ID(2), 1) + row(ID(1), 2) + row(ID(3), 3));
    // identical rows without id: their generated ids collide once, so this import runs row by row
    const twinsCsv = join(dir, 'twins.csv');
    await writeFile(twinsCsv, HEADER + row('', 1) + row('', 1));
    const bulk = join(dir, 'bulk.sqlite');
    const checked = join(dir, 'checked.sqlite');
    expect((await importLocations({ files: [bulkCsv], db: bulk })).problems).toEqual([]);
    expect((await importLocations({ files: [twinsCsv], db: checked })).problems).toEqual([]);
    expect(schema(bulk)).toEqual(schema(checked));
    expect(schema(bulk).map((r) => r.name)).toEqual([
      'locations_id',
      'locations_pos',
      'locations_type_pos',
      'locations',
    ]);
    expect(query(bulk, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
    expect(
      query(bulk, "SELECT name, \"notnull\" FROM pragma_table_info('locations') WHERE name = 'id'"),
    ).toEqual([{ name: 'id', notnull: 1 }]);
    expect(
      query(bulk, "SELECT \"unique\" FROM pragma_index_list('locations') WHERE name = 'locations_id'"),
    ).toEqual([{ unique: 1 }]);
    expect(query(bulk, 'SELECT rowid, id, pos FROM locations ORDER BY id')).toEqual([
      { rowid: 2, id: ID(1), pos: 1 },
      { rowid: 1, id: ID(2), pos: 0 },
      { rowid: 3, id: ID(3), pos: 2 },
    ]);
    const handle = new Database(bulk);
    try {
      expect(() =>
        handle.prepare("INSERT INTO locations VALUES (?, 'n', 'd', 'otro', 0, 0, 9, 9)").run(ID(3)),
      ).toThrow(/UNIQUE constraint failed: locations\.id/);
      expect(handle.prepare("EXPLAIN QUERY PLAN SELECT * FROM locations WHERE id = 'x'").get()).toMatchObject(
        { detail: expect.stringContaining('locations_id') },
      );
    } finally {
      handle.close();
    }
    // appending to a bulk-loaded file checks ids against its key
    const again = await importLocations({ files: [bulkCsv], db: bulk });
    expect(again.problemCount).toBe(3);
    expect(formatProblem(again.problems[0]!)).toContain(`id ${ID(2)} is already in`);
  });

  it('duplicate ids found only when the key is built → the same problems, in input order, as row by row', async () => {
    const csv = join(dir, 'dups.csv');
    const db = join(dir, 'x.sqlite');
    // only duplicates: every row passes its checks, the collision shows when the key is built
    await writeFile(csv, HEADER + row(ID(1), 1) + row(ID(2), 2) + row(ID(1), 3) + row(ID(2), 5));
    const dups = await importLocations({ files: [csv], db });
    expect(dups.problems.map(formatProblem)).toEqual([
      `${csv}:4: duplicate id ${ID(1)} (first at ${csv}:2)`,
      `${csv}:5: duplicate id ${ID(2)} (first at ${csv}:3)`,
    ]);
    expect(existsSync(db)).toBe(false);
    // and mixed with a row error, which ends the bulk load before that
    await writeFile(
      csv,
      HEADER + row(ID(1), 1) + row(ID(2), 2) + row(ID(1), 3) + row(ID(4), 4, '-95') + row(ID(2), 5),
    );
    const mixed = await importLocations({ files: [csv], db });
    expect(mixed.problems.map(formatProblem)).toEqual([
      `${csv}:4: duplicate id ${ID(1)} (first at ${csv}:2)`,
      `${csv}:5: latitude -95 is outside [-90, 90]`,
      `${csv}:6: duplicate id ${ID(2)} (first at ${csv}:3)`,
    ]);
    expect(mixed.problemCount).toBe(3);
    expect(existsSync(db)).toBe(false);
  });

  it('an input that cannot be read twice (a named pipe) is imported row by row, in one pass', async () => {
    const fifo = join(dir, 'pipe.csv');
    execFileSync('mkfifo', [fifo]);
    const writer = createWriteStream(fifo);
    writer.end(HEADER + row(ID(1), 1) + row(ID(2), 2));
    const db = join(dir, 'x.sqlite');
    const result = await importLocations({ files: [fifo], db });
    expect(result).toMatchObject({ problems: [], inserted: 2, total: 2 });
    expect(query(db, 'PRAGMA integrity_check')).toEqual([{ integrity_check: 'ok' }]);
  });
});
