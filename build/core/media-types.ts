// The media type of each published format, as the STAC catalogue and the
// Data Packages name it (IANA's where one is registered).
const MEDIA_TYPES: Record<string, string> = {
  geojson: 'application/geo+json',
  gpkg: 'application/geopackage+sqlite3',
  fgb: 'application/vnd.flatgeobuf',
  shp: 'application/zip', // a zipped Shapefile
  topojson: 'application/json',
  parquet: 'application/vnd.apache.parquet',
  zip: 'application/zip',
};

/** Returns a format's media type, e.g. "application/geo+json" for "geojson"; any other is octet-stream. */
export function mediaType(format: string): string {
  return MEDIA_TYPES[format] ?? 'application/octet-stream';
}
