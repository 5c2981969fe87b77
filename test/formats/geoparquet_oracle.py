# The GeoParquet oracle (test/formats/geoparquet-oracle.test.ts): pyarrow
# reads each file's schema and `geo` metadata, shapely >= 2 decodes every
# WKB, pyproj reads the PROJJSON. For each [parquet, source, "AUTH:CODE"]
# of the JSON list on stdin, checks against the source GeoJSON (whose
# feature i is the row with unit_id "u-i") and prints one JSON object per
# file: the problems found (none when it holds) and the rows' bbox centres,
# for the caller's Hilbert order check.
import json
import sys

import numpy
import pyarrow
import pyarrow.parquet as pq
import pyproj
import shapely


def same_bits(a, b):
    """Whether two float64 arrays hold the same doubles, bit for bit (-0 is not 0)."""
    a = numpy.ascontiguousarray(a, dtype=numpy.float64)
    b = numpy.ascontiguousarray(b, dtype=numpy.float64)
    return a.shape == b.shape and numpy.array_equal(a.view(numpy.int64), b.view(numpy.int64))


def source_coordinates(geometry, dims):
    """The positions of a GeoJSON Polygon or MultiPolygon, in WKB order, z = 0 where a position has none."""
    polygons = [geometry["coordinates"]] if geometry["type"] == "Polygon" else geometry["coordinates"]
    out = [(p + [0.0] * dims)[:dims] for polygon in polygons for ring in polygon for p in ring]
    return numpy.array(out, dtype=numpy.float64).reshape(-1, dims)


def check(path, source, crs):
    problems = []
    file = pq.ParquetFile(path)
    schema = file.schema_arrow
    geo = json.loads(file.metadata.metadata[b"geo"])
    column = geo["columns"]["geometry"]
    if geo["version"] != "1.1.0" or geo["primary_column"] != "geometry" or column["encoding"] != "WKB":
        problems.append(f"geo metadata: {geo['version']} {geo['primary_column']} {column['encoding']}")
    covering = {k: ["bbox", k] for k in ("xmin", "ymin", "xmax", "ymax")}
    if column.get("covering") != {"bbox": covering}:
        problems.append(f"covering: {column.get('covering')}")
    bbox_type = pyarrow.struct([pyarrow.field(k, pyarrow.float64(), nullable=False) for k in covering])
    if schema.field("geometry").type != pyarrow.binary() or schema.field("bbox").type != bbox_type:
        problems.append(f"schema: {schema.field('geometry').type}, {schema.field('bbox').type}")
    if pyproj.CRS.from_json_dict(column["crs"]) != pyproj.CRS.from_user_input(crs):
        problems.append(f"crs: {pyproj.CRS.from_json_dict(column['crs']).to_string()} is not {crs}")
    table = file.read()
    geometries = shapely.from_wkb(table.column("geometry").to_numpy(zero_copy_only=False))
    # "-0" is the double -0 in GeoJSON (JavaScript reads it so), where Python's json makes it the integer 0.
    parse_int = lambda text: -0.0 if text == "-0" else int(text)
    features = json.load(open(source, encoding="utf-8"), parse_int=parse_int)["features"]
    ids = table.column("unit_id").to_pylist()
    if sorted(ids) != sorted(f"u-{i}" for i in range(len(features))):
        problems.append("rows are not the source's features, once each")
        return {"problems": problems, "centres": []}
    has_z = any(t.endswith(" Z") for t in column["geometry_types"])
    dims = 3 if has_z else 2
    types = set()
    for row, (uid, geometry) in enumerate(zip(ids, geometries)):
        feature = features[int(uid[2:])]
        types.add(geometry.geom_type + (" Z" if has_z else ""))
        if geometry.geom_type != feature["geometry"]["type"]:
            problems.append(f"row {row}: {geometry.geom_type}, source {feature['geometry']['type']}")
        coords = shapely.get_coordinates(geometry, include_z=has_z)
        if not same_bits(coords, source_coordinates(feature["geometry"], dims)):
            problems.append(f"row {row} ({uid}): coordinates differ from the source's")
    if sorted(types) != sorted(column["geometry_types"]):
        problems.append(f"geometry_types {column['geometry_types']}, rows hold {sorted(types)}")
    boxes = numpy.column_stack([table.column("bbox").combine_chunks().field(k).to_numpy() for k in covering])
    # The extent of every position: GEOS's bounds take a polygon's shell alone, which a hole of an
    # invalid polygon may leave (the sample's ATA_ADM0), and a covering must hold the whole geometry.
    extents = [shapely.bounds(shapely.multipoints(shapely.get_coordinates(g))) for g in geometries]
    if not same_bits(boxes, numpy.array(extents).reshape(-1, 4)):
        problems.append("the bbox column is not the extent of each geometry's positions")
    valid = shapely.is_valid(geometries)
    if not same_bits(boxes[valid], shapely.bounds(geometries[valid]).reshape(-1, 4)):
        problems.append("the bbox column is not each valid geometry's bounds")
    names = [n for n in table.column_names if n not in ("unit_id", "geometry", "bbox")]
    for name in names:
        values = table.column(name).to_pylist()
        text = pyarrow.types.is_string(schema.field(name).type)
        for uid, value in zip(ids, values):
            expected = (features[int(uid[2:])].get("properties") or {}).get(name)
            got = json.loads(value) if text and value is not None and not isinstance(expected, str) else value
            if got != expected:
                problems.append(f"{uid} {name}: {value!r}, source {expected!r}")
                break
    centres = ((boxes[:, 0] + boxes[:, 2]) / 2).tolist(), ((boxes[:, 1] + boxes[:, 3]) / 2).tolist()
    return {"problems": problems, "centres": list(zip(*centres))}


for path, source, crs in json.load(sys.stdin):
    print(json.dumps({"file": path, **check(path, source, crs)}))
