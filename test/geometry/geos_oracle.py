"""The GEOS oracle for the geometry differential tests (shapely 1.8, Debian's python3-shapely).

Reads GeoJSON FeatureCollection paths, one per line on stdin, and prints one
JSON line per file: [[is_valid, explain_validity] or null, ...] per feature,
null where shapely cannot build the geometry (e.g. a ring of under 3
positions, which is an RFC 7946 error for geoshelf anyway).
"""
import json
import sys

from shapely.geometry import shape
from shapely.validation import explain_validity


def verdict(geometry):
    if geometry is None:
        return [True, "Valid Geometry"]
    try:
        g = shape(geometry)
    except Exception:  # noqa: BLE001 - any failure to build is "no verdict"
        return None
    return [bool(g.is_valid), explain_validity(g)]


for line in sys.stdin:
    path = line.strip()
    if not path:
        continue
    with open(path, encoding="utf-8") as f:
        features = json.load(f)["features"]
    print(json.dumps([verdict(feature.get("geometry")) for feature in features]), flush=True)
