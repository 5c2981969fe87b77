// Writes a level as an OGC GeoPackage 1.2 in the manifest's CRS (its row of
// gpkg_spatial_ref_sys as GDAL writes it, build/core/shared/crs.ts) with better-sqlite3:
// one feature table in source order, geometries as GeoPackage blobs (header
// + envelope + ISO WKB, coordinates exactly the source's doubles, with z
// when the level has any), and the gpkg_rtree_index extension filled in
// bulk. The column declares one type, as GIS tools expect: MULTIPOLYGON for
// a level holding any MultiPolygon (its Polygons written as MultiPolygons of
// one), else POLYGON. Streaming: one feature at a time inside one
// transaction, so memory stays flat.
import Database from 'better-sqlite3';
import { rmSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { tempPathBeside } from '../core/atomic-write.ts';
import { EPSG_4326, type CrsDefinition } from '../core/shared/crs.ts';
import { fieldValue, uniqueNames, type Field } from './fields.ts';
import { shapeBbox, shapeOf, wkbSize, writeWkb, type Layout, type Shape } from './geometry.ts';
import { layoutOf, type FeatureSink, type SourceScan } from './source-scan.ts';

/** Fixed so that the same source gives byte-identical files (and the same sha256). */
const LAST_CHANGE = '2000-01-01T00:00:00.000Z';

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

const SQL_TYPE = { integer: 'INTEGER', real: 'DOUBLE', boolean: 'BOOLEAN', text: 'TEXT' } as const;

/** Reused between features: one allocation for all blobs (better-sqlite3 copies what it binds). */
let scratch = Buffer.allocUnsafe(1 << 16);

/**
 * Returns the GeoPackage geometry blob of a shape: "GP", version 0, flags
 * (little-endian, xy envelope), `srsId`, envelope, WKB as `layout` says.
 * The bytes are valid until the next call.
 */
function gpkgBlob(shape: Shape, layout: Layout, srsId: number): Buffer {
  const size = 40 + wkbSize(shape, layout);
  if (size > scratch.length) scratch = Buffer.allocUnsafe(Math.max(size, scratch.length * 2));
  const [minX, minY, maxX, maxY] = shapeBbox(shape);
  scratch.write('GP', 0, 'latin1');
  scratch.writeUInt8(0, 2);
  scratch.writeUInt8(0b0000_0011, 3);
  scratch.writeInt32LE(srsId, 4);
  scratch.writeDoubleLE(minX, 8);
  scratch.writeDoubleLE(maxX, 16);
  scratch.writeDoubleLE(minY, 24);
  scratch.writeDoubleLE(maxY, 32);
  return scratch.subarray(0, writeWkb(shape, layout, scratch, 40));
}

export interface GeoPackageResult {
  columns: { property: string; column: string }[]; // renamed only when SQLite's case-insensitive names collide
}

/**
 * Opens a GeoPackage being written to a temporary file beside `out`, with one
 * layer named `layer` (e.g. "CHL_ADM1") holding the fields of `info`, in
 * `crs`; add() takes the features in source order, finish() renames the
 * file into place.
 */
export function openGeoPackage(
  out: string,
  layer: string,
  info: SourceScan,
  crs: CrsDefinition,
): FeatureSink<GeoPackageResult> {
  const temp = tempPathBeside(out);
  const layout = layoutOf(info);
  const db = new Database(temp);
  const fail = async (error: unknown) => {
    if (db.open) db.close();
    await rm(temp, { force: true });
    throw error;
  };
  try {
    // Small pages keep small levels small (a GeoPackage has ~20 pages of tables before any data).
    db.pragma(`page_size = ${info.count < 64 ? 1024 : 4096}`);
    const names = uniqueNames(
      info.fields.map((f) => f.name),
      { reserved: ['fid', 'geom'] },
    );
    createSchema(db, layer, info, names, layout, crs);
    const srsId = crs.gpkg.srsId;
    const insert = db.prepare(
      `INSERT INTO ${quote(layer)} (fid, geom${names.map((n) => ', ' + quote(n)).join('')}) VALUES (?, ?${', ?'.repeat(names.length)})`,
    );
    const insertRtree = db.prepare(`INSERT INTO ${quote(`rtree_${layer}_geom`)} VALUES (?, ?, ?, ?, ?)`);
    return {
      add(feature, index) {
        const fid = index + 1;
        const props = feature.properties;
        insert.run(
          fid,
          gpkgBlob(shapeOf(feature), layout, srsId),
          ...info.fields.map((f) => sqlValue(f, props)),
        );
        const b = info.boxes.subarray(index * 4, index * 4 + 4);
        insertRtree.run(fid, b[0], b[2], b[1], b[3]);
      },
      async finish() {
        try {
          createTriggers(db, layer);
          db.exec('COMMIT');
          db.close();
          await rename(temp, out);
        } catch (error) {
          return fail(error);
        }
        return { columns: info.fields.map((f, i) => ({ property: f.name, column: names[i] })) };
      },
      abort: () => fail(undefined).catch(() => {}),
    };
  } catch (error) {
    if (db.open) db.close();
    rmSync(temp, { force: true });
    throw error;
  }
}

/** Returns a feature's value for `field` as SQLite takes it (booleans as 0/1). */
function sqlValue(field: Field, properties: Record<string, unknown> | null): string | number | null {
  const v = fieldValue(field, properties);
  if (typeof v === 'boolean') return v ? 1 : 0;
  return v;
}

function createSchema(
  db: Database.Database,
  layer: string,
  info: SourceScan,
  names: string[],
  layout: Layout,
  crs: CrsDefinition,
): void {
  const geometryType = layout.multi ? 'MULTIPOLYGON' : 'POLYGON';
  // A temporary file renamed into place when complete: no journal or fsync needed.
  db.pragma('journal_mode = OFF');
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -4096'); // 4 MiB of pages: memory stays flat whatever the level's size
  db.exec('BEGIN');
  db.pragma('application_id = 1196444487'); // "GPKG"
  db.pragma('user_version = 10200'); // GeoPackage 1.2.0
  db.exec(`
    CREATE TABLE gpkg_spatial_ref_sys (srs_name TEXT NOT NULL, srs_id INTEGER NOT NULL PRIMARY KEY,
      organization TEXT NOT NULL, organization_coordsys_id INTEGER NOT NULL, definition TEXT NOT NULL, description TEXT);
    CREATE TABLE gpkg_contents (table_name TEXT NOT NULL PRIMARY KEY, data_type TEXT NOT NULL, identifier TEXT UNIQUE,
      description TEXT DEFAULT '', last_change DATETIME NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
      min_x DOUBLE, min_y DOUBLE, max_x DOUBLE, max_y DOUBLE, srs_id INTEGER,
      CONSTRAINT fk_gc_r_srs_id FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys(srs_id));
    CREATE TABLE gpkg_geometry_columns (table_name TEXT NOT NULL, column_name TEXT NOT NULL,
      geometry_type_name TEXT NOT NULL, srs_id INTEGER NOT NULL, z TINYINT NOT NULL, m TINYINT NOT NULL,
      CONSTRAINT pk_geom_cols PRIMARY KEY (table_name, column_name), CONSTRAINT uk_gc_table_name UNIQUE (table_name),
      CONSTRAINT fk_gc_tn FOREIGN KEY (table_name) REFERENCES gpkg_contents(table_name),
      CONSTRAINT fk_gc_srs FOREIGN KEY (srs_id) REFERENCES gpkg_spatial_ref_sys (srs_id));
    CREATE TABLE gpkg_extensions (table_name TEXT, column_name TEXT, extension_name TEXT NOT NULL,
      definition TEXT NOT NULL, scope TEXT NOT NULL, CONSTRAINT ge_tce UNIQUE (table_name, column_name, extension_name));
  `);
  insertSpatialRefSys(db, crs);
  const srsId = crs.gpkg.srsId;
  const [minX, minY, maxX, maxY] = info.bbox;
  db.prepare(`INSERT INTO gpkg_contents VALUES (?, 'features', ?, '', ?, ?, ?, ?, ?, ?)`).run(
    layer,
    layer,
    LAST_CHANGE,
    minX,
    minY,
    maxX,
    maxY,
    srsId,
  );
  // z: 1 (mandatory) when written with z, 0 (prohibited) otherwise; never m.
  db.prepare(`INSERT INTO gpkg_geometry_columns VALUES (?, 'geom', ?, ?, ?, 0)`).run(
    layer,
    geometryType,
    srsId,
    layout.z ? 1 : 0,
  );
  const columns = info.fields.map((f, i) => `, ${quote(names[i])} ${SQL_TYPE[f.type]}`).join('');
  db.exec(
    `CREATE TABLE ${quote(layer)} (fid INTEGER PRIMARY KEY AUTOINCREMENT NOT NULL, geom ${geometryType}${columns})`,
  );
  db.exec(`CREATE VIRTUAL TABLE ${quote(`rtree_${layer}_geom`)} USING rtree(id, minx, maxx, miny, maxy)`);
  db.prepare(
    `INSERT INTO gpkg_extensions VALUES (?, 'geom', 'gpkg_rtree_index', 'http://www.geopackage.org/spec120/#extension_rtree', 'write-only')`,
  ).run(layer);
}

/**
 * Fills gpkg_spatial_ref_sys: the rows every GeoPackage holds (requirement
 * 11: undefined cartesian and geographic, EPSG:4326), and the manifest's
 * `crs` beside them when it is another.
 */
function insertSpatialRefSys(db: Database.Database, crs: CrsDefinition): void {
  const srs = db.prepare('INSERT INTO gpkg_spatial_ref_sys VALUES (?, ?, ?, ?, ?, ?)');
  srs.run(
    'Undefined cartesian SRS',
    -1,
    'NONE',
    -1,
    'undefined',
    'undefined cartesian coordinate reference system',
  );
  srs.run(
    'Undefined geographic SRS',
    0,
    'NONE',
    0,
    'undefined',
    'undefined geographic coordinate reference system',
  );
  for (const { gpkg: row } of crs.gpkg.srsId === EPSG_4326.gpkg.srsId ? [EPSG_4326] : [EPSG_4326, crs])
    srs.run(
      row.srsName,
      row.srsId,
      row.organization,
      row.organizationCoordsysId,
      row.definition,
      row.description,
    );
}

/**
 * Adds the triggers the rtree extension requires, after the bulk load: they
 * call ST_* functions that only GeoPackage-aware SQLite builds (GDAL, QGIS)
 * define, so they must not fire here. They keep the index right when a user
 * edits the file in such a tool.
 */
function createTriggers(db: Database.Database, layer: string): void {
  const t = quote(layer);
  const r = quote(`rtree_${layer}_geom`);
  const name = (suffix: string) => quote(`rtree_${layer}_geom_${suffix}`);
  const insert = (when: string) =>
    `INSERT OR REPLACE INTO ${r} VALUES (NEW.fid, ST_MinX(NEW.geom), ST_MaxX(NEW.geom), ST_MinY(NEW.geom), ST_MaxY(NEW.geom)); ${when}`;
  db.exec(`
    CREATE TRIGGER ${name('insert')} AFTER INSERT ON ${t} WHEN (new.geom NOT NULL AND NOT ST_IsEmpty(NEW.geom))
      BEGIN ${insert('')} END;
    CREATE TRIGGER ${name('update1')} AFTER UPDATE OF geom ON ${t}
      WHEN OLD.fid = NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom)) BEGIN ${insert('')} END;
    CREATE TRIGGER ${name('update2')} AFTER UPDATE OF geom ON ${t}
      WHEN OLD.fid = NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom)) BEGIN DELETE FROM ${r} WHERE id = OLD.fid; END;
    CREATE TRIGGER ${name('update3')} AFTER UPDATE ON ${t}
      WHEN OLD.fid != NEW.fid AND (NEW.geom NOTNULL AND NOT ST_IsEmpty(NEW.geom))
      BEGIN DELETE FROM ${r} WHERE id = OLD.fid; ${insert('')} END;
    CREATE TRIGGER ${name('update4')} AFTER UPDATE ON ${t}
      WHEN OLD.fid != NEW.fid AND (NEW.geom ISNULL OR ST_IsEmpty(NEW.geom))
      BEGIN DELETE FROM ${r} WHERE id IN (OLD.fid, NEW.fid); END;
    CREATE TRIGGER ${name('delete')} AFTER DELETE ON ${t} WHEN old.geom NOT NULL
      BEGIN DELETE FROM ${r} WHERE id = OLD.fid; END;
  `);
}
