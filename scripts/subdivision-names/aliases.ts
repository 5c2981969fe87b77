// Facts about ISO 3166-2 codes the packages do not carry: codes that name the
// same unit (deprecated, current, and the non-ISO codes some packages use),
// and the current names of renamed units. extract.ts merges the names of a
// group and writes them under every code of it, so a catalogue that uses an
// old code (the sample's ZA-GT, GT-AV) finds the same names as one that uses
// the current code.

/** Guatemala's departments: letters until ISO 3166-2's change of 2021, numbers since. */
const GUATEMALA: Record<string, string> = {
  GU: '01',
  PR: '02',
  SA: '03',
  CM: '04',
  ES: '05',
  SR: '06',
  SO: '07',
  TO: '08',
  QZ: '09',
  SU: '10',
  RE: '11',
  SM: '12',
  HU: '13',
  QC: '14',
  BV: '15',
  AV: '16',
  PE: '17',
  IZ: '18',
  ZA: '19',
  CQ: '20',
  JA: '21',
  JU: '22',
};

/** Groups of codes naming one unit, the current ISO code first. */
export const CODE_GROUPS: string[][] = [
  ['ZA-GP', 'ZA-GT'], // Gauteng: GT → GP in 2017
  ['ZA-KZN', 'ZA-NL', 'ZA-ZN'], // KwaZulu-Natal: NL → KZN in 2017; ZN in iso3166-2-db
  ['MX-CMX', 'MX-DIF'], // Ciudad de México: DIF → CMX in 2016
  ['CU-15', 'CU-AR'], // Artemisa (2011); CU-AR in iso3166-2-db
  ['CU-16', 'CU-MA'], // Mayabeque (2011); CU-MA in iso3166-2-db
  ...Object.entries(GUATEMALA).map(([letters, number]) => [`GT-${number}`, `GT-${letters}`]),
];

/** Current names the packages lack (units renamed after their data was gathered), as English names. */
export const RENAMED: Record<string, string[]> = {
  'VE-X': ['La Guaira'], // Vargas, renamed in 2019
  'CU-03': ['La Habana'], // Ciudad de La Habana, renamed in 2011
};

const groupOf = new Map<string, string[]>();
for (const group of CODE_GROUPS) for (const code of group) groupOf.set(code, group);

/** Returns every code naming the same unit as `code`, itself first, e.g. "ZA-GT" → ["ZA-GT", "ZA-GP"]. */
export function equivalents(code: string): string[] {
  return [code, ...(groupOf.get(code) ?? []).filter((c) => c !== code)];
}
