// The GeoJSON reader's fixtures (test/fixtures/measure/): true/ files every
// reader user accepts, false/ files each with the message expected beside it
// (NAME.geojson.expected.txt: "PATH: byte OFFSET: reason", PATH from the repository).
import { readdirSync, readFileSync } from 'node:fs';

export const FIXTURES = new URL('../fixtures/measure/', import.meta.url).pathname;

/** Returns [name, reason] for each false/ fixture, reason being the message after "PATH: ", e.g. "byte 0: unexpected end of file". */
export function falseFixtures(): [name: string, reason: string][] {
  const names = readdirSync(`${FIXTURES}false`).filter((f) => f.endsWith('.geojson'));
  return names.sort().map((file) => {
    const expected = readFileSync(`${FIXTURES}false/${file}.expected.txt`, 'utf8').trimEnd();
    const prefix = `test/fixtures/measure/false/${file}: `;
    if (!expected.startsWith(prefix)) throw new Error(`${file}.expected.txt must start with "${prefix}"`);
    return [file.replace(/\.geojson$/, ''), expected.slice(prefix.length)];
  });
}

/** Returns the name of each true/ fixture, e.g. "bom". */
export function trueFixtures(): string[] {
  return readdirSync(`${FIXTURES}true`)
    .filter((f) => f.endsWith('.geojson'))
    .sort()
    .map((f) => f.replace(/\.geojson$/, ''));
}
