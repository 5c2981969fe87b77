"""GEOS oracle for the identity kernel (shapely 1.8 on Debian's /usr/bin/python3).

stdin: one JSON object {"files": [path, ...], "pairs": [[fileA, indexA, fileB, indexB], ...],
"polygons": [[geometryA, geometryB], ...]}. stdout: one JSON object {"pairs": [area or null, ...],
"hausdorff": [degrees or null, ...], "polygons": [area, ...]}; null where an input is invalid (GEOS
refuses it) or has no geometry.
"""
import json
import sys

from shapely.geometry import shape

request = json.load(sys.stdin)
features = {}
for path in request.get("files", []):
    with open(path, encoding="utf-8") as f:
        geoms = []
        for feat in json.load(f)["features"]:
            g = shape(feat["geometry"]) if feat["geometry"] else None
            geoms.append(g if g is not None and g.is_valid else None)
        features[path] = geoms

areas, distances = [], []
for fa, ia, fb, ib in request.get("pairs", []):
    a, b = features[fa][ia], features[fb][ib]
    if a is None or b is None:
        areas.append(None)
        distances.append(None)
        continue
    areas.append(a.intersection(b).area)
    distances.append(a.hausdorff_distance(b))

polygons = []
for ga, gb in request.get("polygons", []):
    a, b = shape(ga), shape(gb)
    polygons.append(a.intersection(b).area if a.is_valid and b.is_valid else None)

json.dump({"pairs": areas, "hausdorff": distances, "polygons": polygons}, sys.stdout)
