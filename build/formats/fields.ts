// Chooses one typed field per property name, shared by every format writer,
// so a GeoPackage column, a FlatGeobuf column and a dBase field agree.
// A column of integers is an integer field, of numbers a real field, of
// booleans a boolean field; anything else (strings, mixed, objects) is text.
// Writers read a feature's properties only through ownProperty/fieldValue:
// parsed properties are plain objects, so indexing one with a column name
// such as "constructor" or "__proto__" that this feature lacks would read
// Object.prototype's member instead of a missing value.

type FieldType = 'integer' | 'real' | 'boolean' | 'text';

export interface Field {
  name: string; // the property name, e.g. "shapeName"
  type: FieldType;
  /** Largest UTF-8 length of a value's text (asText: strings as they are, others as JSON, e.g. "1e-300"). */
  maxBytes: number;
  /** Numbers, in plain decimal notation (plainDecimal): most characters before the point (sign included). */
  integerBytes: number;
  /** Numbers, in plain decimal notation: most digits after the point (dBase wants them). */
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
  integerBytes: number;
  fractionDigits: number;
}

/**
 * Returns a finite number's shortest round-trip text in plain decimal
 * notation, never with an exponent: 1.5 → "1.5", 1e-7 → "0.0000001",
 * -2.5e21 → "-2500000000000000000000" (the same digits as String(value),
 * so it parses back to the same double). Zero is "0", as String gives it.
 */
export function plainDecimal(value: number): string {
  const text = String(value);
  if (!text.includes('e')) return text;
  const [mantissa, exponent] = value.toExponential().split('e'); // shortest digits, e.g. "-1.5", "-7"
  const sign = value < 0 ? '-' : '';
  const digits = mantissa.replace('-', '').replace('.', '');
  const e = Number(exponent);
  if (e < 0) return `${sign}0.${'0'.repeat(-e - 1)}${digits}`;
  if (e >= digits.length - 1) return sign + digits + '0'.repeat(e - digits.length + 1);
  return `${sign}${digits.slice(0, e + 1)}.${digits.slice(e + 1)}`;
}

/** Returns a feature's own property `name`, or undefined when it has none (never an inherited member). */
function ownProperty(properties: Record<string, unknown> | null | undefined, name: string): unknown {
  return properties && Object.hasOwn(properties, name) ? properties[name] : undefined;
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
          integerBytes: 0,
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
        const text = plainDecimal(value);
        const point = text.indexOf('.');
        s.integerBytes = Math.max(s.integerBytes, point < 0 ? text.length : point);
        s.fractionDigits = Math.max(s.fractionDigits, point < 0 ? 0 : text.length - point - 1);
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
      const { name, maxBytes, integerBytes, fractionDigits } = s;
      return { name, type, maxBytes, integerBytes, fractionDigits };
    });
  }
}

/**
 * Returns the value a feature's `properties` hold for `field`, as the field
 * stores it (e.g. 3 in a text field → "3"); null when missing or null.
 */
export function fieldValue(field: Field, properties: Record<string, unknown> | null | undefined): FieldValue {
  const value = ownProperty(properties, field.name);
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
