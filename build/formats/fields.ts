// Chooses one typed field per property name, shared by every format writer,
// so a GeoPackage column, a FlatGeobuf column and a dBase field agree.
// A column of integers is an integer field, of numbers a real field, of
// booleans a boolean field; anything else (strings, mixed, objects) is text.

export type FieldType = 'integer' | 'real' | 'boolean' | 'text';

export interface Field {
  name: string; // the property name, e.g. "shapeName"
  type: FieldType;
  /** Largest UTF-8 length of a value as written (text), or of its decimal form (numbers). */
  maxBytes: number;
  /** Most digits after the point in a number's shortest text (real fields; dBase wants it). */
  fractionDigits: number;
}

/** A value as written to a typed field: null for a missing or null property. */
export type FieldValue = string | number | boolean | null;

interface Seen {
  name: string;
  integer: boolean;
  number: boolean;
  boolean: boolean;
  other: boolean;
  values: number; // non-null values
  maxBytes: number;
  fractionDigits: number;
}

/** Returns the number of digits after the point in a number's shortest text (0 for 12, 3 for 1.125). */
export function fractionDigits(value: number): number {
  const text = String(value).replace(/e.*$/i, '');
  const point = text.indexOf('.');
  return point < 0 ? 0 : text.length - point - 1;
}

/** Returns the text a non-null value takes in a text field: strings as they are, others as JSON. */
export function asText(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** Collects property names (in first-seen order) and value kinds, one feature at a time. */
export class FieldCollector {
  private seen = new Map<string, Seen>();

  add(properties: Record<string, unknown> | null | undefined): void {
    if (!properties) return;
    for (const name of Object.keys(properties)) {
      let s = this.seen.get(name);
      if (!s) {
        s = {
          name,
          integer: true,
          number: true,
          boolean: true,
          other: false,
          values: 0,
          maxBytes: 0,
          fractionDigits: 0,
        };
        this.seen.set(name, s);
      }
      const value = properties[name];
      if (value === null || value === undefined) continue;
      s.values++;
      if (typeof value === 'number') {
        s.boolean = false;
        if (!Number.isSafeInteger(value)) s.integer = false;
        s.fractionDigits = Math.max(s.fractionDigits, fractionDigits(value));
      } else if (typeof value === 'boolean') {
        s.number = s.integer = false;
      } else {
        s.number = s.integer = s.boolean = false;
        s.other = true;
      }
      s.maxBytes = Math.max(s.maxBytes, Buffer.byteLength(asText(value)));
    }
  }

  /** Returns the fields, in the order their names first appeared. */
  fields(): Field[] {
    return [...this.seen.values()].map((s) => {
      let type: FieldType = 'text';
      if (s.values > 0 && !s.other) {
        if (s.integer) type = 'integer';
        else if (s.number) type = 'real';
        else if (s.boolean) type = 'boolean';
      }
      return { name: s.name, type, maxBytes: s.maxBytes, fractionDigits: s.fractionDigits };
    });
  }
}

/** Returns `value` as `field` stores it (e.g. 3 in a text field → "3"). */
export function fieldValue(field: Field, value: unknown): FieldValue {
  if (value === null || value === undefined) return null;
  if (field.type === 'text') return asText(value);
  return value as number | boolean;
}

/** Cuts `text` to at most `maxBytes` UTF-8 bytes without splitting a character. */
export function truncateUtf8(text: string, maxBytes: number): string {
  if (Buffer.byteLength(text) <= maxBytes) return text;
  let out = '';
  let bytes = 0;
  for (const ch of text) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > maxBytes) break;
    out += ch;
    bytes += n;
  }
  return out;
}

/**
 * Returns one name per input name, unique ignoring case and distinct from
 * `reserved`. With `maxBytes` (dBase: 10), a longer name is cut to that many
 * UTF-8 bytes; a name already taken becomes its first bytes + "_1", "_2"…
 * (cut so the whole still fits), e.g. "shapeGroupX" and "shapeGroupY" →
 * "shapeGroup", "shapeGro_1".
 */
export function uniqueNames(
  names: string[],
  options: { maxBytes?: number; reserved?: string[] } = {},
): string[] {
  const max = options.maxBytes ?? Infinity;
  const taken = new Set((options.reserved ?? []).map((r) => r.toLowerCase()));
  return names.map((name) => {
    let candidate = truncateUtf8(name, max);
    for (let n = 1; taken.has(candidate.toLowerCase()); n++) {
      const suffix = `_${n}`;
      candidate = truncateUtf8(name, max - suffix.length) + suffix;
    }
    taken.add(candidate.toLowerCase());
    return candidate;
  });
}
