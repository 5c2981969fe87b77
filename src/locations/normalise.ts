// Turns loosely written field values (any letter case, legacy names, numbers
// as strings, 32-hex ids) into the stored form of a location.
import { createHash } from 'node:crypto';
import { LOCATION_TYPES, type LocationType } from './types.ts';

/**
 * Legacy or alternative spellings accepted for a type, after lowercasing. A
 * Map: an object would also "know" inherited names such as "constructor".
 */
const TYPE_ALIASES: ReadonlyMap<string, LocationType> = new Map([
  ['pronto', 'convenience'], // the original service's name of the first category
  ['otros', 'otro'], // the original database stores the plural
  ['bencineras', 'bencinera'],
  ['servicios', 'servicio'],
]);

/**
 * Returns the stored type for `value` in any letter case, accepting the legacy
 * names (`pronto` → convenience, `otros` → otro), or undefined when unknown.
 */
export function normaliseType(value: string): LocationType | undefined {
  const lower = value.trim().toLowerCase();
  if ((LOCATION_TYPES as readonly string[]).includes(lower)) return lower as LocationType;
  return TYPE_ALIASES.get(lower);
}

const HEX32 = /^[0-9a-f]{32}$/i;
const HYPHENATED = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Returns `value` as a lowercase hyphenated UUID when it is one, given either
 * hyphenated or as 32 hex digits (the original database's form), else undefined.
 */
export function normaliseId(value: string): string | undefined {
  const text = value.trim();
  if (HYPHENATED.test(text)) return text.toLowerCase();
  if (!HEX32.test(text)) return undefined;
  const hex = text.toLowerCase();
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** Returns an id read from a database in the served form (legacy 32-hex → hyphenated); other text as is. */
export function idForDisplay(value: string): string {
  return normaliseId(value) ?? value;
}

// e.g. "-23.6361582403", "  12 ", "1e-3"; no commas, no hex, no "Infinity". The fraction's
// digits follow a "." (not "\d+\.?\d*", whose two runs trade digits: polynomial on "111…x").
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/** Returns a coordinate given as a finite number or a decimal string, or undefined. */
export function parseNumber(value: unknown): number | undefined {
  if (typeof value === 'number') return Number.isFinite(value) ? value : undefined;
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (!DECIMAL.test(text)) return undefined;
  const number = Number(text);
  return Number.isFinite(number) ? number : undefined;
}

/** The UUIDv5 namespace of generated location ids (a fixed, random UUID: never change it). */
const ID_NAMESPACE = '6f1d3c5e-2b7a-4c8e-9a0f-5d4b3e2a1c07';
const NAMESPACE_BYTES = Buffer.from(ID_NAMESPACE.replaceAll('-', ''), 'hex');

/**
 * Returns the deterministic id of a location imported without one: the UUIDv5
 * (RFC 9562, SHA-1) in ID_NAMESPACE of the JSON text
 * `[name, description, type, latitude, longitude, occurrence]`, where
 * `occurrence` counts earlier identical records in the same import (0, 1, …),
 * so identical rows get distinct ids and the same input always gives the same ids.
 */
export function deterministicId(
  record: { name: string; description: string; type: string; latitude: number; longitude: number },
  occurrence: number,
): string {
  const name = JSON.stringify([
    record.name,
    record.description,
    record.type,
    record.latitude,
    record.longitude,
    occurrence,
  ]);
  const hash = createHash('sha1').update(NAMESPACE_BYTES).update(name, 'utf8').digest();
  hash[6] = (hash[6]! & 0x0f) | 0x50; // version 5
  hash[8] = (hash[8]! & 0x3f) | 0x80; // RFC variant
  return normaliseId(hash.subarray(0, 16).toString('hex'))!;
}
