"""bench:geometry's baseline: GEOS's own is_valid loop (shapely 1.8, Debian's python3-shapely).

Loads every feature of a GeoJSON file with json + shapely.geometry.shape (not
timed), then times only `g.is_valid` over all of them. Prints one JSON line:
{"features": N, "invalid": K, "seconds": S, "load_seconds": L}.
"""
import json
import sys
import time

from shapely.geometry import shape

started = time.perf_counter()
with open(sys.argv[1], encoding="utf-8") as f:
    geometries = [shape(feature["geometry"]) for feature in json.load(f)["features"]]
loaded = time.perf_counter()
invalid = 0
for g in geometries:
    if not g.is_valid:
        invalid += 1
done = time.perf_counter()
print(json.dumps({"features": len(geometries), "invalid": invalid, "seconds": done - loaded, "load_seconds": loaded - started}))
