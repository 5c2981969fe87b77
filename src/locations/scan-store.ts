// The read path over tables our importer did not write (a plain `locations`
// table from any tool, the original service's `ubicaciones`): a seek index of
// every K-th rowid, built at open, so any page is a keyed range read.
import type Database from 'better-sqlite3';
import { idForDisplay, normaliseType } from './normalise.ts';
import { LOCATION_TYPES, type LocationType, type StoredLocation } from './types.ts';

/** Every ANCHOR_STEP-th rowid is kept: a page skips at most ANCHOR_STEP - 1 rows by OFFSET. */
export const ANCHOR_STEP = 64;
/** Rows read between two yields while the index is built (a generator step). */
const BUILD_STEP = 20_000;

export const COLUMNS = ['id', 'name', 'description', 'type', 'latitude', 'longitude'];
const SELECT = `SELECT ${COLUMNS.join(', ')}`;
type Row = [unknown, unknown, unknown, unknown, unknown, unknown];

/** The rowids of every ANCHOR_STEP-th row of one list (all rows, or one type), grown by doubling. */
class Anchors {
  count = 0; // rows in the list
  private rowids = new Float64Array(64); // 8 bytes per anchor: rowids up to 2^53 are exact

  add(rowid: number): void {
    if (this.count % ANCHOR_STEP === 0) {
      const at = this.count / ANCHOR_STEP;
      if (at === this.rowids.length) {
        const grown = new Float64Array(this.rowids.length * 2);
        grown.set(this.rowids);
        this.rowids = grown;
      }
      this.rowids[at] = rowid;
    }
    this.count++;
  }

  /** Returns where the row at `skip` is: the anchor rowid to seek to and the rows to skip after it. */
  seek(skip: number): { rowid: number; offset: number } {
    return { rowid: this.rowids[Math.floor(skip / ANCHOR_STEP)]!, offset: skip % ANCHOR_STEP };
  }

  get bytes(): number {
    return this.rowids.byteLength;
  }
}

export interface ScanStoreParts {
  count(type: LocationType | null): number;
  page(type: LocationType | null, skip: number, limit: number): StoredLocation[];
  /** For tests and diagnostics: the anchor a page at `skip` starts from; offset < ANCHOR_STEP. */
  seek(type: LocationType | null, skip: number): { rowid: number; offset: number };
  /** Bytes held by the index (a few bytes per ANCHOR_STEP rows). */
  indexBytes: number;
}

function toLocation([id, name, description, type, latitude, longitude]: Row): StoredLocation {
  const idText = Buffer.isBuffer(id) ? id.toString('hex') : String(id);
  const typeText = String(type);
  return {
    id: idForDisplay(idText),
    name: String(name ?? ''),
    description: String(description ?? ''),
    type: normaliseType(typeText) ?? typeText.toLowerCase(),
    latitude: Number(latitude),
    longitude: Number(longitude),
  };
}

/** Returns the type a stored value means, memoised (a table holds a handful of spellings). */
function typeReader(): (value: unknown) => LocationType | null {
  const memo = new Map<string, LocationType | null>();
  return (value) => {
    const text = value === null || value === undefined ? '' : String(value);
    let type = memo.get(text);
    if (type === undefined) {
      type = normaliseType(text) ?? null;
      if (memo.size < 10_000) memo.set(text, type);
    }
    return type;
  };
}

/**
 * Builds the seek index of `table` by one pass over (rowid, type) in rowid
 * order, yielding every BUILD_STEP rows so a caller can spread the work over
 * event-loop turns; returns the page functions. Throws when the table has no
 * rowid (WITHOUT ROWID): the caller then falls back to OFFSET.
 */
export function* buildScanStore(
  db: Database.Database,
  table: 'locations' | 'ubicaciones',
): Generator<void, ScanStoreParts> {
  const typeOf = typeReader();
  db.function('geoshelf_type', { deterministic: true }, (value: unknown) => typeOf(value));
  const all = new Anchors();
  const byType = new Map<LocationType, Anchors>(LOCATION_TYPES.map((t) => [t, new Anchors()]));
  const rows = db.prepare(`SELECT rowid, type FROM ${table} ORDER BY rowid`).raw();
  let seen = 0;
  for (const [rowid, value] of rows.iterate() as IterableIterator<[number, unknown]>) {
    all.add(rowid);
    const type = typeOf(value);
    if (type) byType.get(type)!.add(rowid);
    if (++seen % BUILD_STEP === 0) yield;
  }
  const allPage = db
    .prepare(`${SELECT} FROM ${table} WHERE rowid >= ? ORDER BY rowid LIMIT ? OFFSET ?`)
    .raw();
  const typedPage = db
    .prepare(
      `${SELECT} FROM ${table} WHERE rowid >= ? AND geoshelf_type(type) = ? ORDER BY rowid LIMIT ? OFFSET ?`,
    )
    .raw();
  const anchorsOf = (type: LocationType | null) => (type === null ? all : byType.get(type)!);
  return {
    count: (type) => anchorsOf(type).count,
    seek: (type, skip) => anchorsOf(type).seek(skip),
    page(type, skip, limit) {
      const anchors = anchorsOf(type);
      if (skip >= anchors.count) return [];
      const { rowid, offset } = anchors.seek(skip);
      const found =
        type === null ? allPage.all(rowid, limit, offset) : typedPage.all(rowid, type, limit, offset);
      return (found as Row[]).map(toLocation);
    },
    indexBytes: [all, ...byType.values()].reduce((sum, a) => sum + a.bytes, 0),
  };
}

/** The last resort for a table without rowid: `LIMIT n OFFSET skip` (deep pages cost more). */
export function offsetScanStore(db: Database.Database, table: 'locations' | 'ubicaciones'): ScanStoreParts {
  const typeOf = typeReader();
  db.function('geoshelf_type', { deterministic: true }, (value: unknown) => typeOf(value));
  const counts = new Map<LocationType | null, number>([[null, 0]]);
  for (const type of LOCATION_TYPES) counts.set(type, 0);
  for (const [value, count] of db
    .prepare(`SELECT type, COUNT(*) FROM ${table} GROUP BY type`)
    .raw()
    .all() as [unknown, number][]) {
    counts.set(null, counts.get(null)! + count);
    const type = typeOf(value);
    if (type) counts.set(type, counts.get(type)! + count);
  }
  const allPage = db.prepare(`${SELECT} FROM ${table} LIMIT ? OFFSET ?`).raw();
  const typedPage = db
    .prepare(`${SELECT} FROM ${table} WHERE geoshelf_type(type) = ? LIMIT ? OFFSET ?`)
    .raw();
  return {
    count: (type) => counts.get(type) ?? 0,
    seek: (_type, skip) => ({ rowid: Number.NaN, offset: skip }),
    page(type, skip, limit) {
      const found = type === null ? allPage.all(limit, skip) : typedPage.all(type, limit, skip);
      return (found as Row[]).map(toLocation);
    },
    indexBytes: 0,
  };
}
