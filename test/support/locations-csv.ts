// Shared by the import tests that need many rows (test/locations/import-robustness.test.ts,
// and import-interrupted.test.ts in the long project).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';

/** The sha256 of a file's bytes, in hex: "the target as it was" compares them. */
export const sha = (path: string) => createHash('sha256').update(readFileSync(path)).digest('hex');

/** A CSV of `count` valid rows (ids given), about 110 bytes each. */
export function csv(count: number, from = 0): string {
  const lines = ['id,name,description,type,latitude,longitude'];
  for (let i = from; i < from + count; i++) {
    const id = `00000000-0000-4000-8000-${i.toString(16).padStart(12, '0')}`;
    lines.push(`${id},Lugar ${i},Descripción del lugar ${i},bencinera,-33.${i % 1000},-70.${i % 997}`);
  }
  return `${lines.join('\n')}\n`;
}
