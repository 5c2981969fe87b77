// The dBase III table of a Shapefile (.dbf): field descriptors chosen from
// the shared field types, and one fixed-width record per feature. Text is
// UTF-8 (the .cpg says so). dBase limits, written down in the README:
// names ≤ 10 bytes (see uniqueNames), text values ≤ 254 bytes (longer ones
// are cut at a character), and no null text (null and "" both read as null).
// Numbers are written in plain decimal notation, as dBase's numeric type
// requires (no exponent: a reader may take "1e-300" in a field of one
// decimal as 0.0), with as many decimals as the column's most precise value,
// so every double reads back as itself; a real column that cannot fit that
// way (e.g. 1e-300 needs 300 decimals) is written as text ("1e-300").
import { asText, fieldValue, plainDecimal, truncateUtf8, uniqueNames, type Field } from './fields.ts';

const DBF_NAME_BYTES = 10;
export const DBF_TEXT_BYTES = 254;
/** Widest numeric field: a field's width is one byte, 254 as for text. */
const DBF_NUMBER_BYTES = 254;

export interface DbfField {
  field: Field;
  name: string; // e.g. "shapeGro_1"
  type: 'C' | 'N' | 'L';
  width: number;
  decimals: number;
}

/** Returns a number as a numeric field holds it: plain decimal notation with `decimals` digits after the point, e.g. (0.5, 3) → "0.500". */
export function numberText(value: number, decimals: number): string {
  const text = plainDecimal(value);
  if (decimals === 0) return text;
  const point = text.indexOf('.');
  const has = point < 0 ? 0 : text.length - point - 1;
  return (point < 0 ? `${text}.` : text) + '0'.repeat(decimals - has);
}

/**
 * Returns the dBase fields of a level: names cut to 10 bytes and made
 * unique, widths from the longest value. Integers are numeric with no
 * decimals; reals numeric with as many decimals as their most precise value
 * (at least 1, so readers such as GDAL type the column Real), or text when
 * that is wider than DBF_NUMBER_BYTES.
 */
export function dbfFields(fields: Field[]): DbfField[] {
  const names = uniqueNames(
    fields.map((f) => f.name),
    { maxBytes: DBF_NAME_BYTES },
  );
  return fields.map((field, i) => {
    const name = names[i];
    if (field.type === 'boolean') return { field, name, type: 'L', width: 1, decimals: 0 };
    if (field.type === 'integer')
      return { field, name, type: 'N', width: Math.max(1, field.integerBytes), decimals: 0 };
    if (field.type === 'real') {
      const decimals = Math.max(1, field.fractionDigits);
      const width = Math.max(1, field.integerBytes) + 1 + decimals;
      if (width <= DBF_NUMBER_BYTES) return { field, name, type: 'N', width, decimals };
    }
    return {
      field,
      name,
      type: 'C',
      width: Math.min(DBF_TEXT_BYTES, Math.max(1, field.maxBytes)),
      decimals: 0,
    };
  });
}

/** Returns the header of a .dbf with `records` records (date fixed so equal input gives equal bytes). */
export function dbfHeader(fields: DbfField[], records: number): Buffer {
  const headerLength = 32 + 32 * fields.length + 1;
  const recordLength = 1 + fields.reduce((n, f) => n + f.width, 0);
  const header = Buffer.alloc(headerLength);
  header.writeUInt8(0x03, 0);
  header.writeUInt8(100, 1); // 2000-01-01
  header.writeUInt8(1, 2);
  header.writeUInt8(1, 3);
  header.writeUInt32LE(records, 4);
  header.writeUInt16LE(headerLength, 8);
  header.writeUInt16LE(recordLength, 10);
  fields.forEach((f, i) => {
    const o = 32 + i * 32;
    header.write(f.name, o, 10, 'utf8');
    header.write(f.type, o + 11, 'latin1');
    header.writeUInt8(f.width, o + 16);
    header.writeUInt8(f.decimals, o + 17);
  });
  header.writeUInt8(0x0d, headerLength - 1);
  return header;
}

/** Returns one record: a space (not deleted), then each field padded to its width. */
export function dbfRecord(fields: DbfField[], properties: Record<string, unknown> | null): Buffer {
  const record = Buffer.alloc(1 + fields.reduce((n, f) => n + f.width, 0), 0x20);
  let o = 1;
  for (const f of fields) {
    const value = fieldValue(f.field, properties);
    if (value !== null) {
      if (f.type === 'L') record.write(value ? 'T' : 'F', o, 'latin1');
      else if (f.type === 'N') {
        const text = numberText(value as number, f.decimals);
        record.write(text, o + f.width - text.length, 'latin1'); // right-aligned
      } else record.write(truncateUtf8(asText(value), f.width), o, 'utf8');
    } else if (f.type === 'L') record.write('?', o, 'latin1');
    o += f.width;
  }
  return record;
}
