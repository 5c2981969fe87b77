"""bench:geometry's baseline: GEOS's own is_valid (shapely 1.8, Debian's python3-shapely).

Usage: geometry_shapely.py FILE... [--best-of R]

Loads every feature of the GeoJSON files with json + shapely.geometry.shape
(not timed), then times only `g.is_valid` over all of them, R times (default
1). Prints one JSON line with the fastest run's wall and CPU time:
{"features": N, "invalid": K, "seconds": S, "cpu_seconds": C, "load_seconds": L}.
"""
import json
import sys
import time

from shapely.geometry import shape

args = sys.argv[1:]
repeats = 1
if "--best-of" in args:
    at = args.index("--best-of")
    repeats = int(args[at + 1])
    del args[at : at + 2]
started = time.perf_counter()
geometries = []
for path in args:
    with open(path, encoding="utf-8") as f:
        geometries.extend(shape(feature["geometry"]) for feature in json.load(f)["features"])
loaded = time.perf_counter()
best = cpu_best = float("inf")
for _ in range(repeats):
    wall = time.perf_counter()
    cpu = time.process_time()
    invalid = 0
    for g in geometries:
        if not g.is_valid:
            invalid += 1
    best = min(best, time.perf_counter() - wall)
    cpu_best = min(cpu_best, time.process_time() - cpu)
print(
    json.dumps(
        {
            "features": len(geometries),
            "invalid": invalid,
            "seconds": best,
            "cpu_seconds": cpu_best,
            "load_seconds": loaded - started,
        }
    )
)
