"""bench:releases' baseline: identity matching with GEOS (shapely 1.8, Debian's python3-shapely, GEOS 3.11).

The same phases and thresholds as build/identity/match.ts: code pairs first (intersection area), then STRtree candidates for
every unsettled unit (intersection areas), name / geometry / merge-split phases, then for every identity pair
whose geometry differs the discrete Hausdorff distance (GEOS DiscreteHausdorffDistance, in degrees).

  /usr/bin/python3 bench/releases_geos.py OLD.geojson NEW.geojson [--code-key src_shape_id] [--full] [--repeat N]

Loading (json + shapely.geometry.shape) is not timed; one JSON line with the timings and counts is printed.
--full: no early exit (every STRtree candidate pair of every unit is intersected), i.e. the plain
"STRtree plus intersection areas" script.
"""
import gc
import warnings
import json
import math
import re
import sys
import time
import unicodedata

from shapely.geometry import MultiPolygon, shape
from shapely.validation import make_valid
from shapely.strtree import STRtree

T = dict(codeShare=0.5, nameShare=0.5, geomIoU=0.9, significant=0.5, settle=0.1, nearM=5000.0, redigitArea=0.01, redigitDistM=2000.0)
M_PER_DEG = 111319.49


def fold(s):
    s = unicodedata.normalize("NFD", s)
    s = "".join(c for c in s if not unicodedata.combining(c)).lower()
    return re.sub(r"[^a-z0-9]+", " ", s).strip()


def polygonal(g):
    if g.geom_type in ("Polygon", "MultiPolygon"):
        return g
    parts = []
    for p in getattr(g, "geoms", []):
        if p.geom_type == "Polygon":
            parts.append(p)
        elif p.geom_type == "MultiPolygon":
            parts.extend(p.geoms)
    return MultiPolygon(parts)


def load(path, code_key):
    with open(path, encoding="utf-8") as f:
        feats = json.load(f)["features"]
    units = []
    for i, f in enumerate(feats):
        p = f["properties"]
        g = shape(f["geometry"]) if f["geometry"] else None
        if g is not None and not g.is_valid:
            g = polygonal(make_valid(g))  # GEOS refuses invalid input; repaired at load, untimed
        if g is not None and g.is_empty:
            g = None
        units.append(dict(index=i, code=str(p.get(code_key) or ""), name=str(p.get("shapeName") or ""), props=p, geom=g,
                          area=g.area if g is not None else 0.0, bounds=g.bounds if g is not None else None))
    return units


def box_gap_m(a, b):
    lat0 = (a[1] + a[3]) / 2
    kx = math.cos(math.radians(lat0)) * M_PER_DEG
    dx = max(0, a[0] - b[2], b[0] - a[2]) * kx
    dy = max(0, a[1] - b[3], b[1] - a[3]) * M_PER_DEG
    return math.hypot(dx, dy)


def match(olds, news, th):
    t0 = time.perf_counter()
    counts = dict(intersections=0, hausdorff=0)
    inter = {}

    def I(o, n):
        k = (o, n)
        v = inter.get(k)
        if v is None:
            a, b = olds[o]["geom"], news[n]["geom"]
            v = a.intersection(b).area if a is not None and b is not None else 0.0
            counts["intersections"] += 1
            inter[k] = v
        return v

    identity, old_taken, how = {}, {}, {}

    def pair(o, n, h):
        identity[n] = o
        old_taken[o] = n
        how[n] = h

    old_by_code = {u["code"]: u["index"] for u in olds if u["code"]}
    settled_old, settled_new = set(), set()
    for nu in news:
        o = old_by_code.get(nu["code"]) if nu["code"] else None
        if o is None or o in old_taken:
            continue
        ou = olds[o]
        same_name = fold(ou["name"]) == fold(nu["name"])
        if ou["geom"] is None or nu["geom"] is None:
            if same_name:
                pair(o, nu["index"], "code")
            continue
        if ou["geom"].equals_exact(nu["geom"], 0):
            i = ou["area"]
            inter[(o, nu["index"])] = i
        else:
            i = I(o, nu["index"])
        share = i / min(ou["area"], nu["area"])
        if share >= th["codeShare"] or (same_name and (i > 0 or box_gap_m(ou["bounds"], nu["bounds"]) <= th["nearM"])):
            pair(o, nu["index"], "code")
            if i >= (1 - th["settle"]) * ou["area"] and i >= (1 - th["settle"]) * nu["area"]:
                settled_old.add(o)
                settled_new.add(nu["index"])
    t_code = time.perf_counter()

    old_geoms = [u["geom"] for u in olds if u["geom"] is not None]
    old_ix = {id(u["geom"]): u["index"] for u in olds if u["geom"] is not None}
    new_geoms = [u["geom"] for u in news if u["geom"] is not None]
    new_ix = {id(u["geom"]): u["index"] for u in news if u["geom"] is not None}
    old_tree, new_tree = STRtree(old_geoms), STRtree(new_geoms)
    cand_new, cand_old = {}, {}

    def link(o, n):
        if I(o, n) <= 0:
            return
        cn = cand_new.setdefault(n, [])
        if o not in cn:
            cn.append(o)
        co = cand_old.setdefault(o, [])
        if n not in co:
            co.append(n)

    for nu in news:
        if nu["index"] in settled_new or nu["geom"] is None:
            continue
        for g in old_tree.query(nu["geom"]):
            link(old_ix[id(g)], nu["index"])
    for ou in olds:
        if ou["index"] in settled_old or ou["geom"] is None:
            continue
        for g in new_tree.query(ou["geom"]):
            link(ou["index"], new_ix[id(g)])
    t_cand = time.perf_counter()

    def area(u):
        return u["area"]

    for nu in news:
        if nu["index"] in identity or nu["geom"] is None:
            continue
        best, best_share = -1, 0.0
        for o in cand_new.get(nu["index"], []):
            if o in old_taken or fold(olds[o]["name"]) != fold(nu["name"]):
                continue
            share = I(o, nu["index"]) / min(area(olds[o]), area(nu))
            if share > best_share:
                best, best_share = o, share
        if best >= 0 and best_share >= th["nameShare"]:
            pair(best, nu["index"], "name")

    def iou(o, n):
        i = I(o, n)
        return i / (area(olds[o]) + area(news[n]) - i)

    for nu in news:
        n = nu["index"]
        if n in identity:
            continue
        cs = [o for o in cand_new.get(n, []) if o not in old_taken]
        if not cs:
            continue
        best = max(cs, key=lambda o: iou(o, n))
        if iou(best, n) < th["geomIoU"]:
            continue
        back = [m for m in cand_old.get(best, []) if m not in identity]
        if back and max(back, key=lambda m: iou(best, m)) == n:
            pair(best, n, "geometry")

    parent = {}

    def find(x):
        while parent.get(x, x) != x:
            parent[x] = parent.get(parent[x], parent[x])
            x = parent[x]
        return x

    def union(a, b):
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[ra] = rb

    involved = set()
    for ou in olds:
        o = ou["index"]
        if o in old_taken or ou["geom"] is None:
            continue
        for n in cand_old.get(o, []):
            if I(o, n) >= th["significant"] * area(ou):
                union(("o", o), ("n", n))
                involved.update([("o", o), ("n", n)])
    for nu in news:
        n = nu["index"]
        if n in identity or nu["geom"] is None:
            continue
        for o in cand_new.get(n, []):
            if I(o, n) >= th["significant"] * area(nu):
                union(("o", o), ("n", n))
                involved.update([("o", o), ("n", n)])
    for side, i in list(involved):
        if side == "o" and i in old_taken:
            union(("o", i), ("n", old_taken[i]))
            involved.add(("n", old_taken[i]))
        if side == "n" and i in identity:
            union(("n", i), ("o", identity[i]))
            involved.add(("o", identity[i]))
    comps = {}
    for key in involved:
        comps.setdefault(find(key), {"o": [], "n": []})[key[0]].append(key[1])
    changes = []
    in_comp = set()
    for c in comps.values():
        if len(c["o"]) < 2 and len(c["n"]) < 2:
            continue
        typ = "merged" if len(c["n"]) == 1 else "split" if len(c["o"]) == 1 else "reorganised"
        changes.append(dict(type=typ, old=sorted(c["o"]), new=sorted(c["n"])))
        for o in c["o"]:
            in_comp.add(("o", o))
            if o in old_taken:
                identity.pop(old_taken.pop(o), None)
        for n in c["n"]:
            in_comp.add(("n", n))
            if n in identity:
                old_taken.pop(identity.pop(n), None)
    t_phases = time.perf_counter()

    for ou in olds:
        if ou["index"] not in old_taken and ("o", ou["index"]) not in in_comp:
            changes.append(dict(type="removed", old=ou["index"]))
    for nu in news:
        if nu["index"] not in identity and ("n", nu["index"]) not in in_comp:
            changes.append(dict(type="added", new=nu["index"]))
    for n, o in sorted(identity.items()):
        ou, nu = olds[o], news[n]
        if ou["name"] != nu["name"]:
            changes.append(dict(type="renamed", old=o, new=n))
        if ou["code"] != nu["code"]:
            changes.append(dict(type="recoded", old=o, new=n))
        if ou["geom"] is None or nu["geom"] is None or ou["geom"].equals_exact(nu["geom"], 0):
            continue
        i = I(o, n)
        h = ou["geom"].hausdorff_distance(nu["geom"])  # degrees
        counts["hausdorff"] += 1
        lat0 = (ou["bounds"][1] + ou["bounds"][3]) / 2
        h_m = h * M_PER_DEG * math.cos(math.radians(lat0))  # rough: the TS prototype scales x and y separately
        rel = abs(nu["area"] - ou["area"]) / ou["area"]
        kind = "redigitised" if rel <= th["redigitArea"] and h_m <= th["redigitDistM"] else "boundary"
        changes.append(dict(type="geometry", old=o, new=n, kind=kind))
    t_end = time.perf_counter()
    counts["settled"] = len(settled_old)
    counts["identity"] = len(identity)
    timings = dict(code=t_code - t0, candidates=t_cand - t_code, phases=t_phases - t_cand, classify=t_end - t_phases, total=t_end - t0)
    return changes, timings, counts


def main():
    warnings.filterwarnings("ignore")
    args = sys.argv[1:]
    code_key = args[args.index("--code-key") + 1] if "--code-key" in args else "src_shape_id"
    repeat = int(args[args.index("--repeat") + 1]) if "--repeat" in args else 1
    paths = [a for i, a in enumerate(args) if not a.startswith("--") and (i == 0 or args[i - 1] not in ("--code-key", "--repeat"))]
    th = dict(T)
    if "--full" in args:
        th["settle"] = -1
    t = time.perf_counter()
    olds, news = load(paths[0], code_key), load(paths[1], code_key)
    load_s = time.perf_counter() - t
    best = None
    for _ in range(repeat):
        gc.collect()
        c0 = time.process_time()
        res = match(olds, news, th)
        res[1]["cpu"] = (time.process_time() - c0) * 1000
        if best is None or res[1]["cpu"] < best[1]["cpu"]:
            best = res
    changes, timings, counts = best
    by_type = {}
    for c in changes:
        k = c["type"] + (":" + c["kind"] if c["type"] == "geometry" else "")
        by_type[k] = by_type.get(k, 0) + 1
    notable = []
    for c in changes:
        if c["type"] in ("merged", "split", "reorganised"):
            notable.append("%s %s -> %s" % (c["type"], [olds[o]["code"] for o in c["old"]], [news[n]["code"] for n in c["new"]]))
        elif c["type"] in ("added", "renamed", "recoded", "removed"):
            notable.append("%s %s" % (c["type"], olds[c["old"]]["code"] if "old" in c else news[c["new"]]["code"]))
    print(json.dumps(dict(old=paths[0], new=paths[1], units=[len(olds), len(news)], load_s=round(load_s, 3),
                          match_ms={k: round(v if k == "cpu" else v * 1000, 1) for k, v in timings.items()}, counts=counts, byType=by_type, notable=notable)))


if __name__ == "__main__":
    main()
