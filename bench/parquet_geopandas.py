# bench:parquet's reference: GeoPandas writes the same level as GeoParquet
# (to_parquet with the bbox covering column, its default snappy). Prints,
# for each round, the CPU seconds (user + sys, every thread: process_time)
# and wall seconds of read_file + to_parquet (GeoJSON file to GeoParquet
# file, as the build does it) and of to_parquet alone, as JSON.
# Usage: python parquet_geopandas.py SOURCE.geojson OUT.parquet ROUNDS
import json
import sys
import time

import geopandas

source, out, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
geopandas.read_file(source).to_parquet(out, write_covering_bbox=True)  # warm-up: drivers, imports
runs = []
for _ in range(rounds):
    cpu0, wall0 = time.process_time(), time.perf_counter()
    frame = geopandas.read_file(source)
    cpu1, wall1 = time.process_time(), time.perf_counter()
    frame.to_parquet(out, write_covering_bbox=True)
    cpu2, wall2 = time.process_time(), time.perf_counter()
    runs.append({"cpu": cpu2 - cpu0, "wall": wall2 - wall0, "write_cpu": cpu2 - cpu1, "write_wall": wall2 - wall1})
print(json.dumps(runs))
