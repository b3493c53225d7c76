"""Writes maps/montrose-demo.scenario.json: the Montrose SAMPLE map lying on a table, with the
counters of the second example of play (Covenanter turn 8) as 5/8 in counters carrying AprilTags.
The map's north runs along the table's +x (its 17 in side along the camera's wide axis).
Stacks are fanned so every marker shows; one counter is left on a route, between two spaces.
Run: python3 maps/montrose-demo.scenario.py > maps/montrose-demo.scenario.json
"""
import json, math

MAP = json.load(open("maps/montrose-sample.json"))
SP = {s["id"]: s for s in MAP["spaces"]}
IN = 25.4
W, D = 17 * IN, 11 * IN  # table = the map sheet, rotated
COUNTER = 15.875  # 5/8 in
MARKER = 12.0
FAN = 0.37  # map inches from the space centre for stacked counters

def to_table(x, y):
    # rotationDeg -90, origin (0, D): map (x, y) -> table (y, D - x), in mm
    return (y * IN, D - x * IN)

STACKS = [
    ("inveraray", [("Argyll", "covenanter", "leader"), ("Campbell Highlanders", "covenanter", "highland"), ("Argyll's Highlanders", "covenanter", "highland")]),
    ("highland-nw-stirling", [("MacColla", "royalist", "leader"), ("Irish 1", "royalist", "irish"), ("Irish 2", "royalist", "irish")]),
    ("stirling", [("Montrose", "royalist", "leader"), ("Royalist Horse", "royalist", "cavalry"), ("Royalist Foot", "royalist", "lowland")]),
    ("aberdeen", [("Burleigh", "covenanter", "leader"), ("Aberdeen Foot 1", "covenanter", "lowland"), ("Aberdeen Foot 2", "covenanter", "lowland")]),
    ("edinburgh", [("Urry", "covenanter", "leader"), ("Urry's Horse", "covenanter", "cavalry")]),
    ("newcastle", [("Leslie", "covenanter", "leader")]),
]
MOVEMENT = {"lowland": 4, "cavalry": 6, "highland": 4, "irish": 5}

units = []
marker = 10
for space, stack in STACKS:
    s = SP[space]
    n = len(stack)
    for i, (name, side, troop) in enumerate(stack):
        if n == 1:
            dx = dy = 0.0
        else:
            a = math.pi / 2 + 2 * math.pi * i / n
            dx, dy = FAN * math.cos(a), FAN * math.sin(a)
        x, y = to_table(s["x"] + dx, s["y"] + dy)
        u = {
            "id": name.lower().replace(" ", "-").replace("'", ""),
            "name": name,
            "side": side,
            "type": "cavalry" if troop == "cavalry" else "infantry",
            "troop": troop,
            "bases": [{"width": COUNTER, "depth": COUNTER, "marker": {"id": marker, "size": MARKER, "height": 2}, "pose": {"x": round(x, 2), "y": round(y, 2), "headingDeg": -90}}],
        }
        if troop != "leader":
            u["movement"] = MOVEMENT[troop]
            u["strength"] = 3 if troop == "irish" else 1
        if name == "Leslie":
            u["inactive"] = True
        units.append(u)
        marker += 1

# A stray counter on the route from Edinburgh to the unnamed space toward England, in neither space.
a, b = SP["edinburgh"], SP["kelso"]
x, y = to_table((a["x"] + b["x"]) / 2, (a["y"] + b["y"]) / 2)
units.append({"id": "stray-foot", "name": "Stray Foot", "side": "covenanter", "type": "infantry", "troop": "lowland", "movement": 4, "strength": 1,
              "bases": [{"width": COUNTER, "depth": COUNTER, "marker": {"id": marker, "size": MARKER, "height": 2}, "pose": {"x": round(x, 2), "y": round(y, 2), "headingDeg": -90}}]})

REF = 20
scenario = {
    "name": "Campaigns of Montrose — example of play 2 on the SAMPLE map",
    "description": "Counters of the second example of play (Covenanter turn 8) on the sample map (not the printed one), each a 5/8 in counter with a 12 mm AprilTag; the map sheet is the watched table, its north along table +x. Stacks are fanned so every marker shows; one counter sits on the route between Edinburgh and the unnamed space on the road to England.",
    "ruleset": "montrose",
    "lengthUnit": "mm",
    "markerDictionary": "apriltag_36h11",
    "table": {"width": round(W, 2), "depth": round(D, 2)},
    "referenceMarkers": [
        {"id": 0, "x": 14, "y": 14, "size": REF},
        {"id": 1, "x": round(W - 14, 2), "y": 14, "size": REF},
        {"id": 2, "x": round(W - 14, 2), "y": round(D - 14, 2), "size": REF},
        {"id": 3, "x": 14, "y": round(D - 14, 2), "size": REF},
    ],
    "sides": [
        {"id": "royalist", "name": "Royalist", "colour": "#d9b226"},
        {"id": "covenanter", "name": "Covenanter", "colour": "#2b5aa8"},
    ],
    "units": units,
    "board": {"map": "maps/montrose-sample.json", "origin": {"x": 0, "y": round(D, 2)}, "rotationDeg": -90},
}
print(json.dumps(scenario, indent=2, ensure_ascii=False))
