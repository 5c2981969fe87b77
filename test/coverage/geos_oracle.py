"""The coverage oracle (test/coverage/oracle.test.ts): GEOS via shapely >= 2.1
on one level, read from a GeoJSON file. Units GEOS cannot overlay (invalid)
are made valid first (buffer(0)) and the level so cleaned is written to
OUT, so that both sides judge the same geometry. Usage:
  geos_oracle.py IN OUT [RADIUS_M [GAP_WIDTH_DEGREES]] Prints one JSON object:
  invalid: units with invalid edges (CoverageValidator, gap width GAP_WIDTH degrees);
  overlaps: [i, j, area_m2] for each pair of units whose intersection has area;
  holes: [area_m2, x, y] for each hole of the union (x, y: a point inside it);
areas on a sphere of radius R (m), by the formula build/coverage/measure.ts uses."""
import json
import math
import sys

import shapely

R = float(sys.argv[3]) if len(sys.argv) > 3 else 6371008.8
GAP_WIDTH = float(sys.argv[4]) if len(sys.argv) > 4 else 0.0  # degrees


def ring_area(coords):
    s = 0.0
    for (x1, y1), (x2, y2) in zip(coords, coords[1:]):
        s += math.radians(x2 - x1) * (2 + math.sin(math.radians(y1)) + math.sin(math.radians(y2)))
    return s / 2


def area_m2(geom):
    total = 0.0
    for part in shapely.get_parts(geom):
        if part.geom_type != "Polygon":
            continue
        a = abs(ring_area(list(part.exterior.coords)))
        for hole in part.interiors:
            a -= abs(ring_area(list(hole.coords)))
        total += a
    return total * R * R


def main(path, out):
    with open(path, encoding="utf-8") as f:
        fc = json.load(f)
    empty = '{"type":"Polygon","coordinates":[]}'
    geoms = shapely.from_geojson([json.dumps(ft["geometry"]) if ft["geometry"] else empty for ft in fc["features"]])
    bad = ~shapely.is_valid(geoms)
    geoms[bad] = shapely.buffer(geoms[bad], 0)
    for ft, g in zip(fc["features"], geoms):
        # A unit made valid to nothing keeps its own geometry, which has no area either
        # (the reader refuses null and empty geometries).
        if not g.is_empty:
            ft["geometry"] = json.loads(shapely.to_geojson(g))
    with open(out, "w", encoding="utf-8") as f:
        json.dump(fc, f)
    invalid = shapely.coverage_invalid_edges(geoms, gap_width=GAP_WIDTH)
    tree = shapely.STRtree(geoms)
    left, right = tree.query(geoms, predicate="intersects")
    keep = left < right
    overlaps = []
    for i, j in zip(left[keep], right[keep]):
        piece = shapely.intersection(geoms[i], geoms[j])
        if piece.area > 0:
            overlaps.append([int(i), int(j), area_m2(piece)])
    holes = []
    for part in shapely.get_parts(shapely.union_all(geoms)):
        for ring in part.interiors:
            hole = shapely.Polygon(ring)
            p = hole.point_on_surface()
            holes.append([area_m2(hole), p.x, p.y])
    print(
        json.dumps(
            {
                "invalid": [i for i, g in enumerate(invalid) if g is not None and not g.is_empty],
                "overlaps": overlaps,
                "holes": holes,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
