"""GEOS (shapely >= 2.1) as the oracle for geoshelf's simplified coverages.

  simplify_oracle.py time ORIGINAL TOLERANCE_M RUNS
      GEOS coverage_simplify of ORIGINAL (a GeoJSON FeatureCollection in
      lon/lat, projected to a sinusoidal, equal-area grid in metres so that
      the tolerance means what it means to geoshelf: the square root of a
      corner's area), RUNS times; prints one JSON line: each run's CPU
      seconds (this process's, as the machine is shared), and the positions
      of the input and the result.
  simplify_oracle.py check ORIGINAL SIMPLIFIED TOLERANCE_M
      Judges SIMPLIFIED against ORIGINAL; prints one JSON line with every
      failure found (an empty list passes): same features, every geometry
      valid and not empty, the coverage's edges matching
      (coverage_invalid_edges), no overlap (the union's area equals the sum
      of the areas), no gap (the union has the original union's holes), and
      each unit's Hausdorff distance to its original within the tolerance
      (measured in an azimuthal equidistant projection centred on the unit).

Run by bench/simplify.ts and test/simplify/oracle.test.ts with the venv's
python (.venv-oracle, made by .ci/run).
"""

import json
import math
import sys
import time

import numpy as np
import pyproj
import shapely

RADIUS = 6371008.8  # the Earth's mean radius, as build/core/shared/manifest.ts
K = RADIUS * math.pi / 180
DENSIFY_DEGREES = 0.05  # about 5 km: a parallel strays from such a chord by about a metre


def load(path):
    with open(path, encoding="utf-8") as f:
        features = json.load(f)["features"]
    return np.array([shapely.from_geojson(json.dumps(ft["geometry"])) for ft in features])


def sinusoidal(geoms, lon0):
    def project(xy):
        lat = xy[:, 1]
        return np.column_stack(((xy[:, 0] - lon0) * np.cos(np.radians(lat)) * K, lat * K))

    return shapely.transform(geoms, project)


def centre(geoms):
    x0, y0, x1, y1 = shapely.total_bounds(geoms)
    return (x0 + x1) / 2


def time_geos(original, tolerance, runs):
    plain = load(original)
    geoms = sinusoidal(plain, centre(plain))
    seconds = []
    result = None
    for _ in range(runs):
        start = time.process_time()
        result = shapely.coverage_simplify(geoms, tolerance)
        seconds.append(time.process_time() - start)
    positions = int(shapely.get_num_coordinates(result).sum())
    return {"seconds": seconds, "positions": positions, "input_positions": int(shapely.get_num_coordinates(geoms).sum())}


def holes(geom):
    parts = shapely.get_parts(geom)
    return sum(shapely.get_num_interior_rings(p) for p in parts)


def local_hausdorff(a, b):
    """Hausdorff distance in metres between two unit geometries, polygon by polygon, each in an
    azimuthal equidistant projection at its own centre (a county of the Aleutians has parts on
    both sides of the antimeridian: one centre for all would lie on the far side of the Earth)."""
    parts_a = shapely.get_parts(a)
    parts_b = shapely.get_parts(b)
    if len(parts_a) != len(parts_b):
        return math.inf
    worst = 0.0
    for pa, pb in zip(parts_a, parts_b):
        x0, y0, x1, y1 = shapely.bounds(pa)
        proj = pyproj.Proj(proj="aeqd", lat_0=(y0 + y1) / 2, lon_0=(x0 + x1) / 2, R=RADIUS)

        def project(xy):
            x, y = proj(xy[:, 0], xy[:, 1])
            return np.column_stack((x, y))

        # GeoJSON's segments are straight in longitude and latitude (RFC 7946 §3.1.1), so both are
        # densified there first: a long segment along a parallel then stays a parallel once projected.
        la = shapely.transform(shapely.segmentize(shapely.boundary(pa), DENSIFY_DEGREES), project)
        lb = shapely.transform(shapely.segmentize(shapely.boundary(pb), DENSIFY_DEGREES), project)
        worst = max(worst, shapely.hausdorff_distance(la, lb))
    return worst


def flagged(geoms):
    """Indexes of the features whose edges do not match their neighbours' (GEOS CoverageValidator)."""
    edges = shapely.coverage_invalid_edges(geoms)
    return set(int(i) for i in np.nonzero(~shapely.is_empty(edges))[0])


def check(original, simplified, tolerance):
    """Judges the simplification where the original is sound: a feature GEOS finds invalid, or
    whose edges already mismatch a neighbour's, is left out of the validity and coverage checks
    (real data has a few, e.g. us-atlas's quantised counties), but never out of the Hausdorff one."""
    failures = []
    a = load(original)
    b = load(simplified)
    if len(a) != len(b):
        return {"failures": [f"{len(b)} features, the original has {len(a)}"]}
    valid = shapely.is_valid(a)
    for i in np.nonzero(valid & ~shapely.is_valid(b))[0]:
        failures.append(f"feature {i}: not valid: {shapely.is_valid_reason(b[i])}")
    for i in np.nonzero(shapely.is_empty(b) & ~shapely.is_empty(a))[0]:
        failures.append(f"feature {i}: empty")
    lon0 = centre(a)
    index = np.nonzero(valid)[0]
    pa = sinusoidal(a[index], lon0)
    pb = sinusoidal(b[index], lon0)
    before = set(int(index[i]) for i in flagged(pa))
    after = set(int(index[i]) for i in flagged(pb))
    if after - before:
        failures.append(f"edges that no longer match: features {sorted(after - before)[:10]}")
    sound = np.array([i for i in range(len(index)) if int(index[i]) not in before], dtype=int)
    union = shapely.union_all(pb[sound])
    total = float(shapely.area(pb[sound]).sum())
    if abs(shapely.area(union) - total) > 1e-9 * total:
        failures.append(f"overlap: the union is {shapely.area(union):.1f} m², the units add up to {total:.1f} m²")
    holes_before = holes(shapely.union_all(pa[sound]))
    if holes(union) != holes_before:
        failures.append(f"gap: the union has {holes(union)} holes, the original's {holes_before}")
    worst = 0.0
    for i in np.nonzero(~shapely.is_empty(a))[0]:
        d = local_hausdorff(a[i], b[i])
        worst = max(worst, d)
        if d > tolerance * 1.005:  # the projections' own error, well under 0.5 % at a county's size
            failures.append(f"feature {i}: Hausdorff distance {d:.1f} m > {tolerance} m")
    return {
        "failures": failures,
        "hausdorff_m": worst,
        "positions": int(shapely.get_num_coordinates(b).sum()),
        "judged": len(sound),
    }


def main():
    command = sys.argv[1]
    if command == "time":
        print(json.dumps(time_geos(sys.argv[2], float(sys.argv[3]), int(sys.argv[4]))))
    elif command == "check":
        print(json.dumps(check(sys.argv[2], sys.argv[3], float(sys.argv[4]))))
    else:
        sys.exit(f"unknown command {command}")


if __name__ == "__main__":
    main()
