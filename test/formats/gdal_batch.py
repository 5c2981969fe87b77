# GDAL's own library (Debian's python3-gdal, the libgdal of ogr2ogr and
# ogrinfo) as an oracle, many runs in one process: a GDAL tool costs ~0.12 s
# of CPU to start, and test/formats/crs.test.ts needs about 40 runs,
# world-files.test.ts 8.
#
# Reads one JSON object on stdin:
#   translate: [[destination, source, [ogr2ogr's arguments]]]: each run as
#              `ogr2ogr ARGS DESTINATION SOURCE` (gdal.VectorTranslate is the
#              library function ogr2ogr calls, given the same arguments; the
#              source opened as ogr2ogr opens it, with @NATIVE_DATA=YES, so
#              that GeoJSON's own members such as a feature's "id" carry over);
#   layers:    [path]: each file's "Layer SRS WKT" and axis mapping, the lines
#              `ogrinfo -so -al` prints (WKT2, multi-line, as ogrinfo asks);
#   srs:       [name]: `gdalsrsinfo -o wkt1 --single-line NAME`.
# Prints one JSON object: {"layers": {path: text}, "srs": {name: text}}.
import json
import sys

from osgeo import gdal, osr

gdal.UseExceptions()
osr.UseExceptions()


def layer_srs(path):
    """ogrinfo's text for the one layer of a file: its CRS as WKT2 and how the data's axes map to it."""
    ds = gdal.OpenEx(path, gdal.OF_VECTOR | gdal.OF_READONLY)
    if ds.GetLayerCount() != 1:
        raise SystemExit(f"{path}: {ds.GetLayerCount()} layers, expected 1")
    srs = ds.GetLayer(0).GetSpatialRef()
    if srs is None:
        return "Layer SRS WKT:\n(unknown)"
    wkt = srs.ExportToWkt(["FORMAT=WKT2", "MULTILINE=YES"])
    mapping = ",".join(str(a) for a in srs.GetDataAxisToSRSAxisMapping())
    return f"Layer SRS WKT:\n{wkt}\nData axis to CRS axis mapping: {mapping}"


def srs_wkt1(name):
    """gdalsrsinfo's `-o wkt1 --single-line`: the CRS as GDAL's WKT1, on one line."""
    srs = osr.SpatialReference()
    srs.SetFromUserInput(name)
    return srs.ExportToWkt(["FORMAT=WKT1_GDAL"])


request = json.load(sys.stdin)
for destination, source, args in request.get("translate", []):
    source_ds = gdal.OpenEx(source, gdal.OF_VECTOR, open_options=["@NATIVE_DATA=YES"])
    gdal.VectorTranslate(destination, source_ds, options=args)
    source_ds = None
print(
    json.dumps(
        {
            "layers": {p: layer_srs(p) for p in request.get("layers", [])},
            "srs": {n: srs_wkt1(n) for n in request.get("srs", [])},
        }
    )
)
