# The area oracle of test/geo/geodesic-area.test.ts: pyproj's geodesic area
# (GeographicLib) of every feature of a GeoJSON file on the WGS 84 ellipsoid,
# in m², one number per feature, as JSON.
import json
import sys

from pyproj import Geod
from shapely.geometry import shape

geod = Geod(ellps="WGS84")
with open(sys.argv[1], encoding="utf-8") as f:
    features = json.load(f)["features"]
areas = []
for feature in features:
    geom = shape(feature["geometry"])
    parts = getattr(geom, "geoms", [geom])
    total = 0.0
    for poly in parts:
        # Each ring on its own: orientation-free, holes subtract.
        outer = abs(geod.polygon_area_perimeter(*poly.exterior.coords.xy)[0])
        holes = sum(abs(geod.polygon_area_perimeter(*r.coords.xy)[0]) for r in poly.interiors)
        # abs: an invalid polygon whose holes outmeasure its shell (world-atlas's
        # Antarctica, a cap round the pole with the coast as its hole) counts
        # as the difference, as geoshelf measures it (build/geo/geodesic-area.ts).
        total += abs(outer - holes)
    areas.append(total)
print(json.dumps(areas))
