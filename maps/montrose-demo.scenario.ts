/**
 * Writes maps/montrose-demo.scenario.json: the Montrose SAMPLE map lying on a table, with the
 * counters of the second example of play (Covenanter turn 8) as 5/8 in counters carrying AprilTags.
 * The map's north runs along the table's +x (its 17 in side along the camera's wide axis).
 * Stacks are fanned so every marker shows; one counter is left on a route, between two spaces.
 * Run: npx tsx maps/montrose-demo.scenario.ts > maps/montrose-demo.scenario.json
 * (Ported from the Python script that first wrote the file; tests/maps checks it still does.)
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

interface MapSpace {
  readonly id: string;
  readonly x: number;
  readonly y: number;
}

const IN = 25.4;
const W = 17 * IN;
const D = 11 * IN; // table = the map sheet, rotated
const COUNTER = 15.875; // 5/8 in
const MARKER = 12.0;
const FAN = 0.37; // map inches from the space centre for stacked counters
const REF = 20;

/** rotationDeg −90, origin (0, D): map (x, y) → table (y, D − x), in mm. */
const toTable = (x: number, y: number): [number, number] => [y * IN, D - x * IN];
const round2 = (x: number) => Number(x.toFixed(2));

// prettier-ignore
const STACKS: Array<[string, Array<[name: string, side: string, troop: string]>]> = [
  ['inveraray', [['Argyll', 'covenanter', 'leader'], ['Campbell Highlanders', 'covenanter', 'highland'], ["Argyll's Highlanders", 'covenanter', 'highland']]],
  ['highland-nw-stirling', [['MacColla', 'royalist', 'leader'], ['Irish 1', 'royalist', 'irish'], ['Irish 2', 'royalist', 'irish']]],
  ['stirling', [['Montrose', 'royalist', 'leader'], ['Royalist Horse', 'royalist', 'cavalry'], ['Royalist Foot', 'royalist', 'lowland']]],
  ['aberdeen', [['Burleigh', 'covenanter', 'leader'], ['Aberdeen Foot 1', 'covenanter', 'lowland'], ['Aberdeen Foot 2', 'covenanter', 'lowland']]],
  ['edinburgh', [['Urry', 'covenanter', 'leader'], ["Urry's Horse", 'covenanter', 'cavalry']]],
  ['newcastle', [['Leslie', 'covenanter', 'leader']]],
];
const MOVEMENT: Record<string, number> = { lowland: 4, cavalry: 6, highland: 4, irish: 5 };

export function montroseDemoScenario(mapPath = 'maps/montrose-sample.json'): Record<string, unknown> {
  const map = JSON.parse(readFileSync(mapPath, 'utf8')) as { spaces: MapSpace[] };
  const sp = new Map(map.spaces.map((s) => [s.id, s]));
  const base = (marker: number, x: number, y: number) => [
    {
      width: COUNTER,
      depth: COUNTER,
      marker: { id: marker, size: MARKER, height: 2 },
      pose: { x: round2(x), y: round2(y), headingDeg: -90 },
    },
  ];
  const units: Array<Record<string, unknown>> = [];
  let marker = 10;
  for (const [space, stack] of STACKS) {
    const s = sp.get(space)!;
    stack.forEach(([name, side, troop], i) => {
      const a = Math.PI / 2 + (2 * Math.PI * i) / stack.length;
      const [dx, dy] = stack.length === 1 ? [0, 0] : [FAN * Math.cos(a), FAN * Math.sin(a)];
      const [x, y] = toTable(s.x + dx, s.y + dy);
      units.push({
        id: name.toLowerCase().replaceAll(' ', '-').replaceAll("'", ''),
        name,
        side,
        type: troop === 'cavalry' ? 'cavalry' : 'infantry',
        troop,
        bases: base(marker, x, y),
        ...(troop !== 'leader' ? { movement: MOVEMENT[troop], strength: troop === 'irish' ? 3 : 1 } : {}),
        ...(name === 'Leslie' ? { inactive: true } : {}),
      });
      marker++;
    });
  }
  // A stray counter on the route from Edinburgh to the unnamed space toward England, in neither space.
  const a = sp.get('edinburgh')!;
  const b = sp.get('kelso')!;
  const [x, y] = toTable((a.x + b.x) / 2, (a.y + b.y) / 2);
  units.push({
    id: 'stray-foot',
    name: 'Stray Foot',
    side: 'covenanter',
    type: 'infantry',
    troop: 'lowland',
    movement: 4,
    strength: 1,
    bases: base(marker, x, y),
  });
  return {
    name: 'Campaigns of Montrose — example of play 2 on the SAMPLE map',
    description:
      'Counters of the second example of play (Covenanter turn 8) on the sample map (not the printed one), each a 5/8 in counter with a 12 mm AprilTag; the map sheet is the watched table, its north along table +x. Stacks are fanned so every marker shows; one counter sits on the route between Edinburgh and the unnamed space on the road to England.',
    ruleset: 'montrose',
    lengthUnit: 'mm',
    markerDictionary: 'apriltag_36h11',
    table: { width: round2(W), depth: round2(D) },
    referenceMarkers: [
      { id: 0, x: 14, y: 14, size: REF },
      { id: 1, x: round2(W - 14), y: 14, size: REF },
      { id: 2, x: round2(W - 14), y: round2(D - 14), size: REF },
      { id: 3, x: 14, y: round2(D - 14), size: REF },
    ],
    sides: [
      { id: 'royalist', name: 'Royalist', colour: '#d9b226' },
      { id: 'covenanter', name: 'Covenanter', colour: '#2b5aa8' },
    ],
    units,
    board: { map: 'maps/montrose-sample.json', origin: { x: 0, y: round2(D) }, rotationDeg: -90 },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(`${JSON.stringify(montroseDemoScenario(), null, 2)}\n`);
