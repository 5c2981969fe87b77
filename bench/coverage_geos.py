"""bench:coverage's reference: what GEOS (shapely >= 2.1) takes to find the
same defects in a level read from a GeoJSON file: coverage_invalid_edges
(CoverageValidator), then the overlaps (the intersection of each pair of
units an STRtree finds meeting) and the holes of the union (union_all).
Prints one JSON object: seconds per step (the fastest of --repeats) and
what each found."""
import json
import sys
import time

import shapely


def main(path, repeats):
    with open(path, encoding="utf-8") as f:
        fc = json.load(f)
    empty = '{"type":"Polygon","coordinates":[]}'
    geoms = shapely.from_geojson([json.dumps(ft["geometry"]) if ft["geometry"] else empty for ft in fc["features"]])
    # GEOS's overlay refuses invalid input (us-atlas has a few quantised self-touching rings):
    # those are made valid first (buffer(0)), outside the timings.
    invalid_input = ~shapely.is_valid(geoms)
    geoms[invalid_input] = shapely.buffer(geoms[invalid_input], 0)
    best = {}

    def timed(name, fn):
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            out = fn()
            times.append(time.perf_counter() - t)
        best[name] = min(times)
        return out

    invalid = timed("invalid_edges", lambda: shapely.coverage_invalid_edges(geoms, gap_width=0.0))

    def overlaps():
        tree = shapely.STRtree(geoms)
        left, right = tree.query(geoms, predicate="intersects")
        keep = left < right
        left, right = left[keep], right[keep]
        areas = shapely.area(shapely.intersection(geoms[left], geoms[right], grid_size=None))
        return [(int(a), int(b), float(x)) for a, b, x in zip(left, right, areas) if x > 0]

    found = timed("overlaps", overlaps)

    def holes():
        union = shapely.union_all(geoms)
        parts = shapely.get_parts(union)
        return [ring for part in parts for ring in part.interiors]

    rings = timed("union_holes", holes)
    print(
        json.dumps(
            {
                "seconds": best,
                "total": sum(best.values()),
                "invalid_units": int(sum(1 for g in invalid if g is not None and not g.is_empty)),
                "overlaps": len(found),
                "holes": len(rings),
                "made_valid": int(invalid_input.sum()),
                "geos": shapely.geos_version_string,
                "shapely": shapely.__version__,
            }
        )
    )


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 3)
