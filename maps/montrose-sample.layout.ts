/**
 * Lays out maps/montrose-sample.json from approximate real positions (latitude, longitude).
 *
 * A SAMPLE for development and tests, not the printed map: positions are geography scaled so that
 * Inverness → Newcastle is 12 map inches (the rules' stated scale), routes and frontiers are
 * plausible guesses consistent with every route fact in the rules' examples. Match spaces, routes
 * and regions to the printed Decision Games map before using it for a real game.
 * Run: npx tsx maps/montrose-sample.layout.ts > maps/montrose-sample.json
 * (Ported from the Python script that first wrote the file; tests/maps checks it still does.)
 */
import { fileURLToPath } from 'node:url';

const LAT0 = 56.4;
const KX = 111.32 * Math.cos((LAT0 * Math.PI) / 180); // km per degree of longitude
const KY = 111.2; // km per degree of latitude

type SpaceRow = [
  id: string,
  name: string | null,
  aliases: string[],
  kind: string,
  named: boolean,
  region: string,
  lat: number,
  lon: number,
  note: string,
];

// prettier-ignore
const SPACES: SpaceRow[] = [
  ['inverness', 'Inverness', [], 'open', true, 'highlands', 57.477, -4.224, 'scale end point; region assumed'],
  ['blair-atholl', 'Blair Atholl', [], 'open', true, 'highlands', 56.766, -3.845, 'Royalist set-up; a Burgh only under optional 18.7'],
  ['inverlochy', 'Inverlochy', ['Inverlochry', 'Inverlochburgh'], 'burgh', true, 'highlands', 56.83, -5.09, ''],
  ['inveraray', 'Inveraray', ['Iveraray'], 'burgh', true, 'highlands', 56.231, -5.073, ''],
  ['aberdeen', 'Aberdeen', [], 'burgh', true, 'northernLowlands', 57.149, -2.094, 'type and region assumed'],
  ['perth', 'Perth', [], 'burgh', true, 'northernLowlands', 56.396, -3.437, 'half of the Lowlands assumed'],
  ['stirling', 'Stirling', [], 'open', true, 'northernLowlands', 56.117, -3.936, 'half of the Lowlands implied only (A-MON-2)'],
  ['linlithgow', 'Linlithgow', [], 'open', true, 'southernLowlands', 55.977, -3.6, ''],
  ['edinburgh', 'Edinburgh', [], 'burgh', true, 'southernLowlands', 55.953, -3.188, ''],
  ['glasgow', 'Glasgow', [], 'burgh', true, 'southernLowlands', 55.861, -4.251, 'type and region assumed'],
  ['forfar', 'Forfar', [], 'open', true, 'northernLowlands', 56.643, -2.889, 'type and region assumed'],
  ['brechin', 'Brechin', [], 'open', true, 'northernLowlands', 56.73, -2.656, ''],
  ['montrose', 'Montrose', ['Burgh of Montrose'], 'burgh', true, 'northernLowlands', 56.708, -2.467, ''],
  ['newcastle', 'Newcastle', [], 'open', true, 'england', 54.978, -1.613, ''],
  ['highland-nw-stirling', null, [], 'open', false, 'highlands', 56.385, -4.29, 'the Highland space immediately north-west of Stirling'],
  ['highland-west', null, [], 'open', false, 'highlands', 56.39, -4.62, 'a mountain route from Inveraray'],
  ['lennox', null, [], 'open', false, 'highlands', 56.2, -4.6, "west of Stirling: the second mountain step of Argyll's march in example 2, which avoids the space north-west of Stirling"],
  ['highland-glen', null, [], 'open', false, 'highlands', 57.15, -4.68, 'on the way from Inverlochy to Inverness'],
  ['tay-crossing', null, [], 'open', false, 'northernLowlands', 56.546, -3.27, 'the unnamed space between Perth and Forfar (A-MON-3)'],
  ['dunkeld', null, [], 'open', false, 'highlands', 56.6, -3.6, 'between Blair Atholl and Perth'],
  ['stonehaven', null, [], 'open', false, 'northernLowlands', 56.963, -2.211, 'between Aberdeen and Montrose'],
  ['strathbogie', null, [], 'open', false, 'northernLowlands', 57.446, -2.788, 'between Inverness and Aberdeen'],
  ['kelso', null, [], 'open', false, 'southernLowlands', 55.598, -2.433, 'on the road to England'],
  ['clydesdale', null, [], 'open', false, 'southernLowlands', 55.67, -3.78, 'south of Glasgow'],
];

// prettier-ignore
const ROUTES: Array<[string, string, 'land' | 'mountain']> = [
  ['inveraray', 'highland-west', 'mountain'], ['highland-west', 'highland-nw-stirling', 'mountain'],
  ['highland-west', 'lennox', 'mountain'], ['lennox', 'stirling', 'land'],
  ['highland-nw-stirling', 'stirling', 'land'], ['highland-nw-stirling', 'perth', 'land'],
  ['inverlochy', 'highland-west', 'mountain'], ['inverlochy', 'highland-glen', 'land'],
  ['highland-glen', 'inverness', 'land'], ['inverlochy', 'blair-atholl', 'mountain'],
  ['blair-atholl', 'inverness', 'mountain'], ['blair-atholl', 'dunkeld', 'land'],
  ['dunkeld', 'perth', 'land'], ['perth', 'stirling', 'land'], ['perth', 'tay-crossing', 'land'],
  ['tay-crossing', 'forfar', 'land'], ['forfar', 'brechin', 'land'], ['brechin', 'montrose', 'land'],
  ['montrose', 'stonehaven', 'land'], ['stonehaven', 'aberdeen', 'land'], ['aberdeen', 'strathbogie', 'land'],
  ['strathbogie', 'inverness', 'land'], ['stirling', 'linlithgow', 'land'], ['stirling', 'glasgow', 'land'],
  ['linlithgow', 'edinburgh', 'land'], ['glasgow', 'linlithgow', 'land'], ['glasgow', 'clydesdale', 'land'],
  ['clydesdale', 'kelso', 'land'], ['edinburgh', 'kelso', 'land'], ['kelso', 'newcastle', 'land'],
];

/** Frontier polylines, as (lat, lon) points. */
// prettier-ignore
const FRONTIERS: Record<string, Array<[number, number]>> = {
  englishBoundary: [[54.95, -3.3], [55.35, -2.6], [55.77, -2.0]],
  highlandLine: [[55.95, -4.95], [56.18, -4.4], [56.32, -4.05], [56.52, -3.45], [56.64, -3.2], [56.81, -2.7], [57.25, -3.05], [57.65, -3.55]],
  royalistLimit: [[56.117, -4.55], [56.07, -4.0], [56.05, -3.75], [56.04, -3.0], [56.1, -2.4]],
};

type P = readonly [number, number];
const km = (lat: number, lon: number): P => [(lon - -3.5) * KX, (lat - LAT0) * KY];
const dist = (a: P, b: P) => Math.hypot(a[0] - b[0], a[1] - b[1]);
/** Rounded to n decimals (as the file is written). */
const round = (x: number, n: number) => Number(x.toFixed(n));

export function montroseSampleMap(): Record<string, unknown> {
  const scale = 12 / dist(km(57.477, -4.224), km(54.978, -1.613)); // map inches per km
  const pts = new Map<string, P>(SPACES.map((s) => [s[0], km(s[6], s[7])]));
  const all = [...pts.values(), ...Object.values(FRONTIERS).flatMap((f) => f.map(([a, b]) => km(a, b)))];
  const minx = Math.min(...all.map((p) => p[0]));
  const miny = Math.min(...all.map((p) => p[1]));
  const OX = 1.0;
  const OY = 1.5; // margins, map inches

  // Printed maps are schematic: nudge spaces at least MIN_GAP apart (map inches, so that a fanned
  // stack of counters fits), keeping the two scale end points fixed.
  const MIN_GAP = 0.9;
  const fixed = new Set(['inverness', 'newcastle']);
  for (let round_ = 0; round_ < 200; round_++) {
    let moved = false;
    const ids = [...pts.keys()];
    for (let i = 0; i < ids.length; i++)
      for (let j = i + 1; j < ids.length; j++) {
        const a = ids[i]!;
        const b = ids[j]!;
        const [ax, ay] = pts.get(a)!;
        const [bx, by] = pts.get(b)!;
        const d = dist([ax, ay], [bx, by]) * scale;
        if (d < MIN_GAP - 1e-9) {
          const push = (MIN_GAP - d) / scale / 2 + 1e-6;
          const ux = (bx - ax) / (d / scale);
          const uy = (by - ay) / (d / scale);
          const wa = fixed.has(a) ? 0 : (fixed.has(b) ? 1 : 0.5) * 2;
          const wb = fixed.has(b) ? 0 : (fixed.has(a) ? 1 : 0.5) * 2;
          pts.set(a, [ax - ux * push * wa, ay - uy * push * wa]);
          pts.set(b, [bx + ux * push * wb, by + uy * push * wb]);
          moved = true;
        }
      }
    if (!moved) break;
  }
  const mp = (p: P) => ({ x: round((p[0] - minx) * scale + OX, 3), y: round((p[1] - miny) * scale + OY, 3) });

  return {
    name: 'Campaigns of Montrose — SAMPLE map (not the printed map)',
    sample: true,
    note: "A development sample laid out from real geography at the rules' scale (Inverness to Newcastle = 12 in), spaces nudged at least 0.9 in apart as on a schematic printed map. Spaces, routes, types, regions and frontiers marked 'assumed' or unnamed are guesses consistent with the rules' examples; match them to the printed 11 x 17 in map before real play.",
    unit: 'in',
    size: { width: 11, height: 17 },
    scale: { from: 'inverness', to: 'newcastle', inches: 12, miles: 145, km: 230 },
    costs: { land: 1, mountain: 2 },
    spaces: SPACES.map((s) => ({
      id: s[0],
      ...(s[1] ? { name: s[1] } : {}),
      ...(s[2].length ? { aliases: s[2] } : {}),
      kind: s[3],
      named: s[4],
      region: s[5],
      ...mp(pts.get(s[0])!),
      radius: 0.25,
      geo: { lat: s[6], lon: s[7] },
      ...(s[8] ? { note: s[8] } : {}),
    })),
    routes: ROUTES.map(([from, to, kind]) => ({ from, to, kind })),
    frontiers: Object.entries(FRONTIERS).map(([id, line]) => ({
      id,
      line: line.map(([a, b]) => mp(km(a, b))),
    })),
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url))
  process.stdout.write(`${JSON.stringify(montroseSampleMap(), null, 2)}\n`);
