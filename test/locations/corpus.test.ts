// The real files of the original service (../shared/corpus/ubi-copec), imported with the CLI.
import { execFile } from 'node:child_process';

import { join } from 'node:path';
import { promisify } from 'node:util';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../server/helpers.ts';

const run = promisify(execFile);
import { BIN } from '../support/cli.ts';
import { corpusPresent, UBI_COPEC } from '../support/corpus.ts';
const CORPUS = UBI_COPEC;

describe.skipIf(!corpusPresent(CORPUS))(
  'import of the real corpus files (skipped: ../shared/corpus/ubi-copec absent)',
  () => {
    let dir: string;
    let cleanup: () => Promise<void>;
    beforeAll(async () => ({ dir, cleanup } = await tempDir()));
    afterAll(() => cleanup());

    function query<T>(db: string, sql: string): T {
      const handle = new Database(db, { readonly: true });
      try {
        return handle.prepare(sql).get() as T;
      } finally {
        handle.close();
      }
    }

    it('estaciones.json --type bencinera --map name=Compania,… → 1,845 bencineras with their coordinates', async () => {
      const db = join(dir, 'estaciones.sqlite');
      const { stdout } = await run('node', [
        BIN,
        'locations',
        'import',
        join(CORPUS, 'estaciones.json'),
        '--type',
        'bencinera',
        '--map',
        'name=Compania,description=Direccion,latitude=Latitud,longitude=Longitud',
        '--db',
        db,
      ]);
      expect(stdout).toBe(`${db}: created with 1845 locations (1845 in total)\n`);
      expect(query(db, "SELECT COUNT(*) AS n, SUM(type = 'bencinera') AS bencineras FROM locations")).toEqual(
        {
          n: 1845,
          bencineras: 1845,
        },
      );
      // the first station, coordinates given as strings in the file
      expect(query(db, 'SELECT name, description, latitude, longitude FROM locations WHERE pos = 0')).toEqual(
        {
          name: 'COPEC',
          description: 'Av. Antonio Rendic N° 3855',
          latitude: -23.6361582403,
          longitude: -70.3892576982,
        },
      );
      // Chile, from Arica to Magallanes, Easter Island included
      expect(
        query(
          db,
          'SELECT MIN(latitude) AS s, MAX(latitude) AS n, MIN(longitude) AS w, MAX(longitude) AS e FROM locations',
        ),
      ).toEqual({ s: -54.9333545661, n: -18.3976439527, w: -109.426414, e: -67.6042057332 });
      expect(query(db, "SELECT COUNT(DISTINCT id) AS n FROM locations WHERE id GLOB '*-*-5*'")).toEqual({
        n: 1845,
      });
    });

    it('tiendas.json (other column names) → 693 locations', async () => {
      const db = join(dir, 'tiendas.sqlite');
      await run('node', [
        BIN,
        'locations',
        'import',
        join(CORPUS, 'tiendas.json'),
        '--type',
        'bencinera',
        '--map',
        'name=Company,description=Direccion,latitude=Latitud,longitude=Longitud',
        '--db',
        db,
      ]);
      expect(query(db, 'SELECT COUNT(*) AS n FROM locations')).toEqual({ n: 693 });
      expect(query(db, 'SELECT latitude, longitude FROM locations WHERE pos = 0')).toEqual({
        latitude: -23.6361582403046,
        longitude: -70.3892576981952,
      });
    });
  },
);
