# The world GeoParquet oracle (test/formats/world-files-oracle.test.ts):
# pyarrow reads each world file's schema, rows and `geo` metadata, shapely
# >= 2 decodes every WKB, pyproj reads the PROJJSON. For each [parquet,
# geojson, "AUTH:CODE"] of the JSON list on stdin, the rows must be the world
# GeoJSON's features (in any order: the Parquet's follow the Hilbert curve),
# property for property and double for double, each with a country, a
# license and an attribution; prints one JSON object per file with the
# problems found (none when it holds).
import json
import sys

import numpy
import pyarrow
import pyarrow.parquet as pq
import pyproj
import shapely

WORLD = ("country", "license", "attribution")


def text(value):
    """A value as a text column holds it: strings as they are, others as JSON."""
    return value if isinstance(value, str) else json.dumps(value, separators=(",", ":"), ensure_ascii=False)


def coordinates(geometry):
    """The positions of a GeoJSON Polygon or MultiPolygon in WKB order, as bytes of float64."""
    polygons = [geometry["coordinates"]] if geometry["type"] == "Polygon" else geometry["coordinates"]
    dims = max(len(p) for polygon in polygons for ring in polygon for p in ring)
    out = [(p + [0.0] * dims)[:dims] for polygon in polygons for ring in polygon for p in ring]
    return numpy.array(out, dtype=numpy.float64).tobytes().hex()


def check(path, source, crs):
    problems = []
    file = pq.ParquetFile(path)
    schema = file.schema_arrow
    geo = json.loads(file.metadata.metadata[b"geo"])
    if geo["version"] != "1.1.0" or geo["columns"]["geometry"]["encoding"] != "WKB":
        problems.append(f"geo metadata: {geo['version']}")
    if pyproj.CRS.from_json_dict(geo["columns"]["geometry"]["crs"]) != pyproj.CRS.from_user_input(crs):
        problems.append(f"crs is not {crs}")
    for name in WORLD:
        if schema.field(name).type != pyarrow.string():
            problems.append(f"{name}: {schema.field(name).type}")
    table = file.read()
    columns = [n for n in table.column_names if n not in ("geometry", "bbox")]
    texts = {n for n in columns if table.schema.field(n).type == pyarrow.string()}
    rows = []
    geometries = shapely.from_wkb(table.column("geometry").to_numpy(zero_copy_only=False))
    for i, row in enumerate(table.select(columns).to_pylist()):
        if any(row[n] is None for n in WORLD):
            problems.append(f"row {i} lacks a world column")
        props = {k: v for k, v in row.items() if v is not None}
        has_z = shapely.has_z(geometries[i])
        coords = shapely.get_coordinates(geometries[i], include_z=bool(has_z))
        rows.append(json.dumps(props, sort_keys=True) + " " + numpy.ascontiguousarray(coords).tobytes().hex())
    with open(source, encoding="utf8") as f:
        features = json.load(f)["features"]
    expected = []
    for feature in features:
        props = {k: (text(v) if k in texts else v) for k, v in feature["properties"].items() if v is not None}
        expected.append(json.dumps(props, sort_keys=True) + " " + coordinates(feature["geometry"]))
    if len(rows) != len(expected):
        problems.append(f"{len(rows)} rows, {len(expected)} features")
    elif sorted(rows) != sorted(expected):
        problems.append("the rows are not the GeoJSON's features")
    return {"problems": problems, "rows": len(rows)}


for path, source, crs in json.load(sys.stdin):
    print(json.dumps({"file": path, **check(path, source, crs)}))
