import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatProblem } from '../../build/core/problem.ts';
import { importLocations, type ImportResult } from '../../src/locations/import.ts';
import { tempDir } from '../server/helpers.ts';

const FIXTURES = 'test/fixtures/locations'; // relative, as a user would type it: messages name it
const VALID = `${FIXTURES}/true`;
const INVALID = `${FIXTURES}/false`;

let dir: string;
let cleanup: () => Promise<void>;
beforeEach(async () => ({ dir, cleanup } = await tempDir()));
afterEach(() => cleanup());

function rows(
  db: string,
  sql = 'SELECT id, name, description, type, latitude, longitude, pos, type_pos FROM locations ORDER BY rowid',
) {
  const handle = new Database(db, { readonly: true });
  try {
    return handle.prepare(sql).all() as Record<string, unknown>[];
  } finally {
    handle.close();
  }
}

const lines = (result: ImportResult) => result.problems.map(formatProblem);
const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

describe('import of valid files', () => {
  it('CSV and GeoJSON in one run → rows in file order, types lowercased, legacy names mapped, ids hyphenated', async () => {
    const db = join(dir, 'x.sqlite');
    const csv = await importLocations({ files: [`${VALID}/stations.csv`, `${VALID}/stations.geojson`], db });
    expect(csv.problems).toEqual([]);
    const all = rows(db);
    expect(all.map((r) => [r.name, r.type, r.latitude, r.longitude, r.pos, r.type_pos])).toEqual([
      ['EJEMPLO - Tienda Uno', 'convenience', -33.1, -70.1, 0, 0],
      ['EJEMPLO - Pronto Dos', 'convenience', -33.2, -70.2, 1, 1],
      ['EJEMPLO - Bencinera Tres', 'bencinera', -33.3, -70.3, 2, 0],
      ['EJEMPLO - Carga Cuatro', 'otro', -33.4, -70.4, 3, 0],
      ['EJEMPLO - Bencinera Siete', 'bencinera', -33.7, -70.7, 4, 1],
      ['EJEMPLO - Servicio Ocho', 'servicio', -33.8, -70.8, 5, 0],
    ]);
    expect(all[0]!.description).toBe('EJEMPLO - café, baño y "wifi"');
    expect(all[1]!.description).toBe('EJEMPLO - una descripción\nen dos líneas');
    expect(all[1]!.id).toBe('120a2e23-f90f-4013-978b-bb7f2736a423'); // given as 32 hex digits
    expect(all[2]!.id).toBe('bedb6805-04d6-457f-a20a-a10c5f1c93e9');
    expect(all[2]!.description).toBe(''); // empty description is allowed
    expect(all[4]!.id).toBe('ce9fca3a-9f55-40d3-88b7-2a5604e42ca2'); // GeoJSON Feature.id
  });

  it('--map names the source columns; --type fills records without a type; numbers as strings are accepted', async () => {
    const db = join(dir, 'x.sqlite');
    const result = await importLocations({
      files: [`${VALID}/stations.json`],
      db,
      type: 'servicio',
      map: { name: 'Nombre', description: 'Detalle', latitude: 'Lat', longitude: 'Lon' },
    });
    expect(result).toEqual({
      problems: [],
      problemCount: 0,
      existing: 0,
      inserted: 2,
      total: 2,
      created: true,
    });
    expect(rows(db).map((r) => [r.name, r.description, r.type, r.latitude])).toEqual([
      ['EJEMPLO - Lavado Cinco', 'EJEMPLO - lavado a mano', 'servicio', -33.5],
      ['EJEMPLO - Lavado Seis', 'EJEMPLO - lavado automático', 'servicio', -33.6],
    ]);
  });

  it('records without id get deterministic UUIDs: the same input gives the same ids on every run', async () => {
    const files = [`${VALID}/stations.csv`];
    await importLocations({ files, db: join(dir, 'a.sqlite') });
    await importLocations({ files, db: join(dir, 'b.sqlite') });
    const a = rows(join(dir, 'a.sqlite')).map((r) => r.id);
    expect(rows(join(dir, 'b.sqlite')).map((r) => r.id)).toEqual(a);
    expect(a[0]).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/); // UUIDv5
    // pinned (changing it changes users' ids); equals Python's independent
    // uuid.uuid5(UUID(ID_NAMESPACE), '["EJEMPLO - Tienda Uno","EJEMPLO - café, baño y \\"wifi\\"","convenience",-33.1,-70.1,0]')
    expect(a[0]).toBe('9e781bcf-bdf8-5934-8885-67fd6d7fdd03');
  });

  it('a GeoJSON Feature.id that is not a UUID (e.g. 7) is ignored: the feature gets a generated id', async () => {
    const input = join(dir, 'numbered.geojson');
    const feature = (id: unknown) => ({
      type: 'Feature',
      id,
      properties: { name: 'EJEMPLO - Numerada', type: 'otro' },
      geometry: { type: 'Point', coordinates: [-70, -33] },
    });
    await writeFile(
      input,
      JSON.stringify({ type: 'FeatureCollection', features: [feature(7), feature('x')] }),
    );
    const result = await importLocations({ files: [input], db: join(dir, 'x.sqlite') });
    expect(result.problems).toEqual([]);
    expect(rows(join(dir, 'x.sqlite')).map((r) => r.id)).toEqual([
      expect.stringMatching(/^[0-9a-f-]{36}$/),
      expect.stringMatching(/^[0-9a-f-]{36}$/),
    ]);
  });

  it('progress is reported: records read, and bytes of the file being read', async () => {
    const calls: string[] = [];
    await importLocations({
      files: [`${VALID}/stations.csv`],
      db: join(dir, 'x.sqlite'),
      onProgress: (records, file, bytes) => calls.push(`${records} ${file} ${bytes.read}/${bytes.size}`),
    });
    const size = readFileSync(`${VALID}/stations.csv`).length;
    expect(calls).toEqual([`4 ${VALID}/stations.csv ${size}/${size}`]);
  });

  it('identical records without id get distinct ids (an occurrence counter)', async () => {
    const input = join(dir, 'twins.json');
    const twin = { name: 'EJEMPLO - Gemela', type: 'otro', latitude: 1, longitude: 2 };
    await writeFile(input, JSON.stringify([twin, twin, twin]));
    const result = await importLocations({ files: [input], db: join(dir, 'x.sqlite') });
    expect(result.problems).toEqual([]);
    expect(new Set(rows(join(dir, 'x.sqlite')).map((r) => r.id)).size).toBe(3);
  });

  it('the table is the seed record plus positions: column names, types, NOT NULL, and id the key (a unique index)', async () => {
    const db = join(dir, 'x.sqlite');
    await importLocations({ files: [`${VALID}/stations.csv`], db });
    const columns = rows(db, 'SELECT name, type, "notnull", pk FROM pragma_table_info(\'locations\')');
    expect(columns.slice(0, 6)).toEqual([
      { name: 'id', type: 'TEXT', notnull: 1, pk: 0 },
      { name: 'name', type: 'TEXT', notnull: 1, pk: 0 },
      { name: 'description', type: 'TEXT', notnull: 1, pk: 0 },
      { name: 'type', type: 'TEXT', notnull: 1, pk: 0 },
      { name: 'latitude', type: 'REAL', notnull: 1, pk: 0 },
      { name: 'longitude', type: 'REAL', notnull: 1, pk: 0 },
    ]);
    expect(rows(db, "SELECT name FROM pragma_index_info('locations_id')")).toEqual([{ name: 'id' }]);
    expect(
      rows(db, "SELECT \"unique\" FROM pragma_index_list('locations') WHERE name = 'locations_id'"),
    ).toEqual([{ unique: 1 }]);
  });
});

describe('appending and replacing', () => {
  it('without --replace rows are appended and positions continue', async () => {
    const db = join(dir, 'x.sqlite');
    await importLocations({ files: [`${VALID}/stations.csv`], db });
    const result = await importLocations({ files: [`${VALID}/stations.geojson`], db });
    expect(result).toEqual({
      problems: [],
      problemCount: 0,
      existing: 0,
      inserted: 2,
      total: 6,
      created: false,
    });
    expect(rows(db).map((r) => [r.pos, r.type_pos])).toEqual([
      [0, 0],
      [1, 1],
      [2, 0],
      [3, 0],
      [4, 1],
      [5, 0],
    ]);
  });

  it('an id already in the database is a rejected row, and nothing is written', async () => {
    const db = join(dir, 'x.sqlite');
    await importLocations({ files: [`${VALID}/stations.csv`], db });
    const before = sha(db);
    const result = await importLocations({ files: [`${VALID}/stations.csv`], db });
    expect(result.problems).toHaveLength(4);
    expect(lines(result)[1]).toBe(
      `${VALID}/stations.csv:3: id 120a2e23-f90f-4013-978b-bb7f2736a423 is already in ${db}`,
    );
    expect(sha(db)).toBe(before);
  });

  it('--replace replaces the whole table', async () => {
    const db = join(dir, 'x.sqlite');
    await importLocations({ files: [`${VALID}/stations.csv`], db });
    const result = await importLocations({ files: [`${VALID}/stations.csv`], db, replace: true });
    expect(result).toEqual({
      problems: [],
      problemCount: 0,
      existing: 0,
      inserted: 4,
      total: 4,
      created: false,
    });
    expect(rows(db).map((r) => r.pos)).toEqual([0, 1, 2, 3]);
  });

  it('a database not written by geoshelf (e.g. the original service’s) is refused', async () => {
    const db = join(dir, 'legacy.db');
    const handle = new Database(db);
    handle.exec('CREATE TABLE ubicaciones (id TEXT)');
    handle.close();
    const result = await importLocations({ files: [`${VALID}/stations.csv`], db });
    expect(lines(result)).toEqual([
      `${db}: not a database written by "geoshelf locations import" (choose another --db)`,
    ]);
  });
});

describe('rejected rows: every one reported with file and place, nothing written', () => {
  for (const name of ['bad.csv', 'bad.json', 'bad.geojson']) {
    it(`${name} → the problems in ${name}.expected.txt`, async () => {
      const expected = readFileSync(`${INVALID}/${name}.expected.txt`, 'utf8').trimEnd().split('\n');
      const result = await importLocations({ files: [`${INVALID}/${name}`], db: join(dir, 'x.sqlite') });
      expect(lines(result)).toEqual(expected);
      expect(result.inserted).toBe(0);
    });
  }

  it('a CSV header without the name or coordinate columns → one line at line 1 with its columns and the --map flag', async () => {
    const csv = join(dir, 'estaciones.csv');
    const body = Array.from({ length: 150 }, (_, i) => `Copec ${i},Calle ${i},-33.${i},-70.${i}`);
    await writeFile(csv, ['Compania,Direccion,Latitud,Longitud', ...body].join('\n'));
    const db = join(dir, 'x.sqlite');
    const result = await importLocations({ files: [csv], db, type: 'bencinera' });
    expect([result.problemCount, ...lines(result)]).toEqual([
      1,
      `${csv}:1: the header has no name, latitude or longitude column (its columns: "Compania", "Direccion", "Latitud", "Longitud"); say which column holds each with --map name=COLUMN,latitude=COLUMN,longitude=COLUMN`,
    ]);
    // a --map naming a column the header lacks, and no type column nor --type
    const mapped = await importLocations({
      files: [csv],
      db,
      map: { name: 'Compañía', latitude: 'Latitud' },
    });
    expect(lines(mapped)).toEqual([
      `${csv}:1: the header has no column "Compañía" (--map name=Compañía) and no longitude or type column (its columns: "Compania", "Direccion", "Latitud", "Longitud"); say which column holds each with --map name=COLUMN,longitude=COLUMN,type=COLUMN (or give every record its type with --type)`,
    ]);
    const right = await importLocations({
      files: [csv],
      db,
      type: 'bencinera',
      map: { name: 'Compania', latitude: 'Latitud', longitude: 'Longitud', description: 'Direccion' },
    });
    expect([right.problems, right.inserted]).toEqual([[], 150]);
    expect(existsSync(db)).toBe(true);
  });

  it('file-level problems: invalid JSON, missing file, unknown extension', async () => {
    const result = await importLocations({
      files: [`${INVALID}/broken.json`, join(dir, 'missing.csv'), `${FIXTURES}/false/bad.csv.expected.txt`],
      db: join(dir, 'x.sqlite'),
    });
    expect(lines(result)).toEqual([
      "test/fixtures/locations/false/broken.json:1:2: invalid JSON: Unexpected token 'o'", // not json at all
      `${join(dir, 'missing.csv')}: cannot read: no such file`,
      `${FIXTURES}/false/bad.csv.expected.txt: unknown file type (expected .csv, .json or .geojson)`,
    ]);
  });

  it('no half-written database: a bad row leaves no new file (and no temporary file) behind', async () => {
    const db = join(dir, 'new.sqlite');
    await importLocations({ files: [`${VALID}/stations.csv`, `${INVALID}/bad.csv`], db });
    expect(existsSync(db)).toBe(false);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('no half-written database: a bad row leaves an existing database byte for byte unchanged', async () => {
    const db = join(dir, 'x.sqlite');
    await importLocations({ files: [`${VALID}/stations.csv`], db });
    const before = sha(db);
    for (const replace of [false, true]) {
      const result = await importLocations({
        files: [`${VALID}/stations.geojson`, `${INVALID}/bad.json`],
        db,
        replace,
      });
      expect(result.problems.length).toBeGreaterThan(0);
      expect(sha(db)).toBe(before);
    }
    expect(readdirSync(dir)).toEqual(['x.sqlite']);
  });
});
