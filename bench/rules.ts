/**
 * Rules benchmark: a 60-unit Black Powder table with terrain; all ordered pairs asked for range
 * (leader base edge to target edge, with uncertainty), the quarter of the shooter holding the
 * target's leader, and line of sight from the leader to the target's nearest point.
 * Prints figures and a ratio against a fixed reference workload run in the same process;
 * it never fails on time. Run: npx tsx bench/rules.ts
 */
import { performance } from 'node:perf_hooks';
import { closestPointOnSegment } from '../src/geometry/distance.ts';
import { quarterOfPoint } from '../src/geometry/quarters.ts';
import { bpContext } from '../src/rules/black-powder/context.ts';
import { shootVerdict } from '../src/rules/black-powder/shooting.ts';
import { sightBlocker } from '../src/rules/black-powder/sight.ts';
import { unitSeparation } from '../src/rules/unit-distance.ts';
import type { BaseSpec, Scenario, TerrainSpec, UnitSpec } from '../src/table/scenario.ts';
import { buildTableState } from '../src/table/table-state.ts';

const IN = 25.4;

/** Deterministic pseudo-random numbers (mulberry32), so every run builds the same table. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function benchScenario(units = 60, seed = 7): Scenario {
  const r = rng(seed);
  let marker = 10;
  const specs: UnitSpec[] = [];
  for (let i = 0; i < units; i++) {
    const side = i % 2 === 0 ? 'red' : 'blue';
    const row = Math.floor(i / 2) % 5;
    const col = Math.floor(i / 10);
    const heading = side === 'red' ? (r() - 0.5) * 30 : 180 + (r() - 0.5) * 30;
    const cx = (8 + col * 22 + r() * 6) * IN;
    const cy = (side === 'red' ? 6 + row * 5 : 66 - row * 5) * IN;
    const n = 4 + Math.floor(r() * 3);
    const a = (heading * Math.PI) / 180;
    const right = { x: Math.cos(a), y: Math.sin(a) };
    const bases: BaseSpec[] = Array.from({ length: n }, (_, k) => {
      const off = (k - (n - 1) / 2) * 40;
      return {
        widthMm: 40,
        depthMm: 40,
        marker: { id: marker++, sizeMm: 30, heightMm: 3, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 },
        pose: { x: cx + right.x * off, y: cy + right.y * off, headingDeg: heading },
      };
    });
    specs.push({ id: `u${i}`, name: `Unit ${i}`, side, type: i % 7 === 3 ? 'cavalry' : 'infantry', bases });
  }
  const rect = (x0: number, x1: number, y0: number, y1: number) => [
    { x: x0 * IN, y: y0 * IN },
    { x: x1 * IN, y: y0 * IN },
    { x: x1 * IN, y: y1 * IN },
    { x: x0 * IN, y: y1 * IN },
  ];
  const terrain: TerrainSpec[] = [
    { id: 'wood', name: 'the wood', kind: 'wood', polygon: rect(20, 32, 32, 40) },
    { id: 'hill', name: 'the hill', kind: 'hill', heightMm: 50, polygon: rect(70, 90, 30, 42) },
    { id: 'house', name: 'the farm', kind: 'building', polygon: rect(50, 54, 34, 38) },
    { id: 'wall', name: 'the wall', kind: 'obstacle', line: [{ x: 100 * IN, y: 36 * IN }, { x: 120 * IN, y: 36 * IN }] },
    { id: 'road', name: 'the road', kind: 'road', line: [{ x: 0, y: 36 * IN }, { x: 144 * IN, y: 36 * IN }], widthMm: 50 },
  ];
  return {
    name: 'bench',
    ruleset: 'black-powder',
    markerDictionary: 'apriltag_36h11',
    table: { widthMm: 144 * IN, depthMm: 72 * IN },
    referenceMarkers: [],
    sides: [
      { id: 'red', name: 'Red', colour: '#f00' },
      { id: 'blue', name: 'Blue', colour: '#00f' },
    ],
    units: specs,
    terrain,
  };
}

function time(label: string, runs: number, fn: () => number): number {
  fn();
  const times: number[] = [];
  let check = 0;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    check += fn();
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)] as number;
  console.log(`${label.padEnd(48)} median ${median.toFixed(2)} ms  (min ${(times[0] as number).toFixed(2)}, ${runs} runs, checksum ${check.toFixed(0)})`);
  return median;
}

const state = buildTableState(benchScenario());
const ctx = bpContext(state);
const units = state.units;
const pairs = units.length * (units.length - 1);

/** Reference: 200 000 point-to-segment projections, a fixed amount of plain arithmetic. */
const reference = time('reference (200k point-segment projections)', 15, () => {
  let s = 0;
  for (let i = 0; i < 200_000; i++) {
    const p = closestPointOnSegment({ x: i % 97, y: i % 89 }, { x: 0, y: 0 }, { x: 50, y: 13 });
    s += p.x;
  }
  return s;
});

const allPairs = time(`all pairs (${pairs}): range + quarter + LOS`, 15, () => {
  let n = 0;
  for (const a of units) {
    for (const b of units) {
      if (a === b) continue;
      const sep = unitSeparation([a.leaderBase], b.body);
      const q = quarterOfPoint(a.box, b.leader, 'bisector');
      const blocked = sightBlocker(ctx, a.leader, sep.onB, { exclude: new Set([a.id, b.id]) });
      n += sep.distance > 0 ? 1 : 0;
      n += q.quarter === 'front' ? 1 : 0;
      n += blocked ? 0 : 1;
    }
  }
  return n;
});

const rangeOnly = time(`all pairs (${pairs}): range only`, 15, () => {
  let n = 0;
  for (const a of units) for (const b of units) if (a !== b) n += unitSeparation([a.leaderBase], b.body).distance > 0 ? 1 : 0;
  return n;
});

const shooter = units[0];
const shootAll = shooter
  ? time(`full "can shoot?" verdicts from one unit (${units.length - 1})`, 5, () => {
      let n = 0;
      for (const b of units) if (b !== shooter) n += shootVerdict(ctx, shooter, b).answer === 'yes' ? 1 : 0;
      return n;
    })
  : 0;

console.log('');
console.log(`units ${units.length}, bases ${units.reduce((s, u) => s + u.bases.length, 0)}, terrain ${state.terrain.length}`);
console.log(`all pairs: ${allPairs.toFixed(2)} ms (target ≤ 10 ms), ${((allPairs * 1000) / pairs).toFixed(2)} µs per pair`);
console.log(`ratio all-pairs / reference: ${(allPairs / reference).toFixed(2)}; range-only / reference: ${(rangeOnly / reference).toFixed(2)}; shoot verdicts / reference: ${(shootAll / reference).toFixed(2)}`);
