// The crs rule: a manifest's `crs` is one of the geographic (longitude,
// latitude in degrees) CRSs geoshelf accepts for its body
// (build/core/shared/crs.ts), and its `epsg` is that CRS's EPSG code, or 0
// where it has none. A projected CRS, one geoshelf does not know, one of
// another body, or an `epsg` that contradicts authority:code is one problem
// at /crs: every format declares this CRS, and every area and distance is
// measured on the body's sphere, so a wrong one would be published as fact.
import { ACCEPTED_CRS, crsName, findCrs, type ManifestCrs } from '../core/shared/crs.ts';
import type { Body } from '../core/shared/manifest.ts';

/** Returns the accepted CRSs of `body` as a list for a message, e.g. "OGC:CRS84 (epsg 4326) or EPSG:4326 (epsg 4326)". */
function acceptedFor(body: Body | undefined): string {
  const names = ACCEPTED_CRS.filter((c) => body === undefined || c.body === body).map(
    (c) => `${crsName(c)} (epsg ${c.epsg})`,
  );
  return names.length > 1 ? `${names.slice(0, -1).join(', ')} or ${names.at(-1)}` : names[0]!;
}

/**
 * Returns what is wrong with a manifest's `crs` on `body` (undefined when
 * the schema refused the body: then any accepted CRS's body is taken), as
 * the message of its one problem at /crs, or undefined when it is accepted.
 */
export function crsMistake(crs: ManifestCrs, body: Body | undefined): string | undefined {
  const found = findCrs(crs);
  const name = crsName(crs);
  const on = body === undefined ? '' : ` on ${body}`;
  if (!found)
    return `${name} is not a longitude/latitude CRS geoshelf accepts${on}: use ${acceptedFor(body)}`;
  if (body !== undefined && found.body !== body)
    return `${name} is a CRS of body "${found.body}", but body is "${body}": use ${acceptedFor(body)}`;
  if (crs.epsg !== found.epsg) {
    const should =
      found.epsg === 0 ? `${name} has no EPSG code, so epsg is 0` : `${name}'s EPSG code is ${found.epsg}`;
    return `epsg is ${crs.epsg}, but ${should}`;
  }
  return undefined;
}

/** Whether a value a schema-invalid manifest holds at `crs` is shaped as one, so that it can be checked alone. */
export function isCrsShaped(value: unknown): value is ManifestCrs {
  if (typeof value !== 'object' || value === null) return false;
  const { authority, code, epsg } = value as Record<string, unknown>;
  return typeof authority === 'string' && typeof code === 'string' && Number.isInteger(epsg);
}
