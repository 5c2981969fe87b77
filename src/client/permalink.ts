// The unit a permalink names (#unit-US-TX, #unit-k3f9a2m7x0qp): one decoding
// for the map and the units list, which both follow the page's hash.

/** What a permalink's hash starts with. */
const PERMALINK_PREFIX = '#unit-';

/**
 * Returns the id a permalink hash names, percent-decoded ("#unit-CL-RM" →
 * "CL-RM", "#unit-S%C3%A3o" → "São"), or undefined when `hash` is no
 * permalink or its escapes are malformed ("#unit-%", "#unit-%E0%A4%A"): a
 * hash anyone can type selects nothing rather than throw.
 */
export function permalinkId(hash: string): string | undefined {
  if (!hash.startsWith(PERMALINK_PREFIX)) return undefined;
  try {
    return decodeURIComponent(hash.slice(PERMALINK_PREFIX.length));
  } catch {
    return undefined; // URIError: "URI malformed"
  }
}
