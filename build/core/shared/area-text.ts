// How an area reads on a page, the same in the build's HTML and the browser's.

/** Returns an area in km² as a reader reads it: "12,182 km²", "41.9 km²", "0.0392 km²". */
export function areaText(km2: number): string {
  const digits = km2 >= 100 ? { maximumFractionDigits: 0 } : { maximumSignificantDigits: 3 };
  return `${km2.toLocaleString('en-US', digits)} km²`;
}
