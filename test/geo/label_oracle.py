# The label oracle of test/geo/unit-facts-oracle.test.ts: GEOS (shapely)
# says whether each label point lies within its feature. Input: a GeoJSON
# file and a JSON list of [lon, lat] (or null) per feature. Output: JSON
# {"outside": [indexes], "invalid": [indexes]}, where an invalid feature
# (GEOS's IsValid) is judged on its make_valid repair.
import json
import sys

from shapely.geometry import Point, shape
from shapely.validation import make_valid

with open(sys.argv[1], encoding="utf-8") as f:
    features = json.load(f)["features"]
with open(sys.argv[2], encoding="utf-8") as f:
    labels = json.load(f)
outside, invalid = [], []
for i, (feature, label) in enumerate(zip(features, labels)):
    geom = shape(feature["geometry"])
    if not geom.is_valid:
        invalid.append(i)
        geom = make_valid(geom)
    if label is None or not Point(label).within(geom):
        outside.append(i)
print(json.dumps({"outside": outside, "invalid": invalid}))
