"""GEOS's verdict on a repaired level, as it is (test/repair/oracle.test.ts):
shapely >= 2.1 on the features of one or more GeoJSON files taken as one
level, nothing made valid first (test/coverage/geos_oracle.py cleans invalid
units with buffer(0) before it judges; a repaired copy must need no cleaning).
Usage:
  geos_judge.py judge FILE... Prints one JSON object:
    invalid: units GEOS finds invalid (is_valid), with its reason;
    invalid_edges: units with invalid edges (CoverageValidator, gap width 0);
    overlaps: [i, j, area_m2] for each pair of valid units whose intersection has area;
    holes: [area_m2, x, y] for each hole of the valid units' union;
    empty: units without area.
  geos_judge.py make-valid IN OURS: for each feature of IN, GEOS's make_valid
    (method "structure") against the same feature of OURS: prints
    [[i, symmetric difference area / area, ours valid, GEOS's parts, our parts]].
Units are numbered across the files in order; areas on the Earth's sphere,
by the formula build/coverage/measure.ts uses."""
import json
import os
import sys

import shapely

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "coverage"))
sys.argv, argv = sys.argv[:1], sys.argv  # geos_oracle reads its own argv when imported
from geos_oracle import area_m2  # noqa: E402

EMPTY = '{"type":"Polygon","coordinates":[]}'


def read(paths):
    features = []
    for path in paths:
        with open(path, encoding="utf-8") as f:
            features += json.load(f)["features"]
    return shapely.from_geojson([json.dumps(ft["geometry"]) if ft["geometry"] else EMPTY for ft in features])


def judge(paths):
    geoms = read(paths)
    valid = shapely.is_valid(geoms)
    edges = shapely.coverage_invalid_edges(geoms, gap_width=0.0)
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    keep = (left < right) & valid[left] & valid[right]  # GEOS cannot overlay an invalid unit
    overlaps = []
    for i, j in zip(left[keep], right[keep]):
        piece = shapely.intersection(geoms[i], geoms[j])
        if piece.area > 0:
            overlaps.append([int(i), int(j), area_m2(piece)])
    holes = []
    for part in shapely.get_parts(shapely.union_all(geoms[valid])):
        for ring in part.interiors:
            hole = shapely.Polygon(ring)
            p = hole.point_on_surface()
            holes.append([area_m2(hole), p.x, p.y])
    return {
        "invalid": [[i, shapely.is_valid_reason(g)] for i, g in enumerate(geoms) if not valid[i]],
        "invalid_edges": [i for i, g in enumerate(edges) if g is not None and not g.is_empty],
        "overlaps": overlaps,
        "holes": holes,
        "empty": [i for i, g in enumerate(geoms) if g.area == 0],
    }


def make_valid(path, ours_path):
    given, ours = read([path]), read([ours_path])
    out = []
    for i, (g, o) in enumerate(zip(given, ours)):
        fixed = shapely.make_valid(g, method="structure", keep_collapsed=False)
        differ = shapely.symmetric_difference(fixed, o).area
        out.append([i, differ / fixed.area if fixed.area else differ, bool(o.is_valid),
                    len(shapely.get_parts(fixed)), len(shapely.get_parts(o))])
    return out


if __name__ == "__main__":
    mode, rest = argv[1], argv[2:]
    print(json.dumps(judge(rest) if mode == "judge" else make_valid(*rest)))
