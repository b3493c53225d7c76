"""Lays out maps/montrose-sample.json from approximate real positions (latitude, longitude).

A SAMPLE for development and tests, not the printed map: positions are geography scaled so that
Inverness -> Newcastle is 12 map inches (the rules' stated scale), routes and frontiers are
plausible guesses consistent with every route fact in the rules' examples. Match spaces, routes
and regions to the printed Decision Games map before using it for a real game.
Run: python3 maps/montrose-sample.layout.py > maps/montrose-sample.json
"""
import json, math

LAT0 = 56.4
KX = 111.32 * math.cos(math.radians(LAT0))  # km per degree of longitude
KY = 111.2  # km per degree of latitude

# id, name or None, aliases, kind, named, region, lat, lon, note
SPACES = [
    ("inverness", "Inverness", [], "open", True, "highlands", 57.477, -4.224, "scale end point; region assumed"),
    ("blair-atholl", "Blair Atholl", [], "open", True, "highlands", 56.766, -3.845, "Royalist set-up; a Burgh only under optional 18.7"),
    ("inverlochy", "Inverlochy", ["Inverlochry", "Inverlochburgh"], "burgh", True, "highlands", 56.830, -5.090, ""),
    ("inveraray", "Inveraray", ["Iveraray"], "burgh", True, "highlands", 56.231, -5.073, ""),
    ("aberdeen", "Aberdeen", [], "burgh", True, "northernLowlands", 57.149, -2.094, "type and region assumed"),
    ("perth", "Perth", [], "burgh", True, "northernLowlands", 56.396, -3.437, "half of the Lowlands assumed"),
    ("stirling", "Stirling", [], "open", True, "northernLowlands", 56.117, -3.936, "half of the Lowlands implied only (A-MON-2)"),
    ("linlithgow", "Linlithgow", [], "open", True, "southernLowlands", 55.977, -3.600, ""),
    ("edinburgh", "Edinburgh", [], "burgh", True, "southernLowlands", 55.953, -3.188, ""),
    ("glasgow", "Glasgow", [], "burgh", True, "southernLowlands", 55.861, -4.251, "type and region assumed"),
    ("forfar", "Forfar", [], "open", True, "northernLowlands", 56.643, -2.889, "type and region assumed"),
    ("brechin", "Brechin", [], "open", True, "northernLowlands", 56.730, -2.656, ""),
    ("montrose", "Montrose", ["Burgh of Montrose"], "burgh", True, "northernLowlands", 56.708, -2.467, ""),
    ("newcastle", "Newcastle", [], "open", True, "england", 54.978, -1.613, ""),
    ("highland-nw-stirling", None, [], "open", False, "highlands", 56.385, -4.290, "the Highland space immediately north-west of Stirling"),
    ("highland-west", None, [], "open", False, "highlands", 56.390, -4.620, "a mountain route from Inveraray"),
    ("lennox", None, [], "open", False, "highlands", 56.200, -4.600, "west of Stirling: the second mountain step of Argyll's march in example 2, which avoids the space north-west of Stirling"),
    ("highland-glen", None, [], "open", False, "highlands", 57.150, -4.680, "on the way from Inverlochy to Inverness"),
    ("tay-crossing", None, [], "open", False, "northernLowlands", 56.546, -3.270, "the unnamed space between Perth and Forfar (A-MON-3)"),
    ("dunkeld", None, [], "open", False, "highlands", 56.600, -3.600, "between Blair Atholl and Perth"),
    ("stonehaven", None, [], "open", False, "northernLowlands", 56.963, -2.211, "between Aberdeen and Montrose"),
    ("strathbogie", None, [], "open", False, "northernLowlands", 57.446, -2.788, "between Inverness and Aberdeen"),
    ("kelso", None, [], "open", False, "southernLowlands", 55.598, -2.433, "on the road to England"),
    ("clydesdale", None, [], "open", False, "southernLowlands", 55.670, -3.780, "south of Glasgow"),
]

ROUTES = [
    ("inveraray", "highland-west", "mountain"),
    ("highland-west", "highland-nw-stirling", "mountain"),
    ("highland-west", "lennox", "mountain"),
    ("lennox", "stirling", "land"),
    ("highland-nw-stirling", "stirling", "land"),
    ("highland-nw-stirling", "perth", "land"),
    ("inverlochy", "highland-west", "mountain"),
    ("inverlochy", "highland-glen", "land"),
    ("highland-glen", "inverness", "land"),
    ("inverlochy", "blair-atholl", "mountain"),
    ("blair-atholl", "inverness", "mountain"),
    ("blair-atholl", "dunkeld", "land"),
    ("dunkeld", "perth", "land"),
    ("perth", "stirling", "land"),
    ("perth", "tay-crossing", "land"),
    ("tay-crossing", "forfar", "land"),
    ("forfar", "brechin", "land"),
    ("brechin", "montrose", "land"),
    ("montrose", "stonehaven", "land"),
    ("stonehaven", "aberdeen", "land"),
    ("aberdeen", "strathbogie", "land"),
    ("strathbogie", "inverness", "land"),
    ("stirling", "linlithgow", "land"),
    ("stirling", "glasgow", "land"),
    ("linlithgow", "edinburgh", "land"),
    ("glasgow", "linlithgow", "land"),
    ("glasgow", "clydesdale", "land"),
    ("clydesdale", "kelso", "land"),
    ("edinburgh", "kelso", "land"),
    ("kelso", "newcastle", "land"),
]

# Frontier polylines, as (lat, lon) points.
FRONTIERS = {
    "englishBoundary": [(54.95, -3.30), (55.35, -2.60), (55.77, -2.00)],
    "highlandLine": [(55.95, -4.95), (56.18, -4.40), (56.32, -4.05), (56.52, -3.45), (56.64, -3.20), (56.81, -2.70), (57.25, -3.05), (57.65, -3.55)],
    "royalistLimit": [(56.117, -4.55), (56.07, -4.00), (56.05, -3.75), (56.04, -3.00), (56.10, -2.40)],
}

def km(lat, lon):
    return ((lon - (-3.5)) * KX, (lat - LAT0) * KY)

inv = km(57.477, -4.224)
ncl = km(54.978, -1.613)
scale = 12 / math.dist(inv, ncl)  # map inches per km
pts = {s[0]: km(s[6], s[7]) for s in SPACES}
all_pts = list(pts.values()) + [km(*p) for f in FRONTIERS.values() for p in f]
minx = min(p[0] for p in all_pts); miny = min(p[1] for p in all_pts)
OX, OY = 1.0, 1.5  # margins, map inches

# Printed maps are schematic: nudge spaces at least MIN_GAP apart (in map inches, so that a fanned
# stack of counters fits), keeping the two scale end points fixed.
MIN_GAP = 0.9
fixed = {"inverness", "newcastle"}
for _ in range(200):
    moved = False
    ids = list(pts)
    for i in range(len(ids)):
        for j in range(i + 1, len(ids)):
            a, b = ids[i], ids[j]
            (ax, ay), (bx, by) = pts[a], pts[b]
            d = math.dist((ax, ay), (bx, by)) * scale
            if d < MIN_GAP - 1e-9:
                push = (MIN_GAP - d) / scale / 2 + 1e-6
                ux, uy = (bx - ax) / (d / scale), (by - ay) / (d / scale)
                wa = 0 if a in fixed else (1 if b in fixed else 0.5) * 2
                wb = 0 if b in fixed else (1 if a in fixed else 0.5) * 2
                pts[a] = (ax - ux * push * wa, ay - uy * push * wa)
                pts[b] = (bx + ux * push * wb, by + uy * push * wb)
                moved = True
    if not moved:
        break

def mp(p):
    return {"x": round((p[0] - minx) * scale + OX, 3), "y": round((p[1] - miny) * scale + OY, 3)}

out = {
    "name": "Campaigns of Montrose — SAMPLE map (not the printed map)",
    "sample": True,
    "note": "A development sample laid out from real geography at the rules' scale (Inverness to Newcastle = 12 in), spaces nudged at least 0.9 in apart as on a schematic printed map. Spaces, routes, types, regions and frontiers marked 'assumed' or unnamed are guesses consistent with the rules' examples; match them to the printed 11 x 17 in map before real play.",
    "unit": "in",
    "size": {"width": 11, "height": 17},
    "scale": {"from": "inverness", "to": "newcastle", "inches": 12, "miles": 145, "km": 230},
    "costs": {"land": 1, "mountain": 2},
    "spaces": [
        {
            "id": s[0],
            **({"name": s[1]} if s[1] else {}),
            **({"aliases": s[2]} if s[2] else {}),
            "kind": s[3],
            "named": s[4],
            "region": s[5],
            **mp(pts[s[0]]),
            "radius": 0.25,
            "geo": {"lat": s[6], "lon": s[7]},
            **({"note": s[8]} if s[8] else {}),
        }
        for s in SPACES
    ],
    "routes": [{"from": a, "to": b, "kind": k} for a, b, k in ROUTES],
    "frontiers": [{"id": k, "line": [mp(km(*p)) for p in v]} for k, v in FRONTIERS.items()],
}
print(json.dumps(out, indent=2, ensure_ascii=False))
