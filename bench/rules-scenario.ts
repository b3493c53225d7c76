/**
 * The rules benchmark's table: 60 Black Powder units (alternate sides, 4–6 bases each, headings
 * jittered ±15°) in six columns of five rows per side, with a wood, a hill, a farm, a wall and a
 * road. Deterministic (seeded), so every run and every test builds the same table.
 */
import type { BaseSpec, Scenario, TerrainSpec, UnitSpec } from '../src/table/scenario.ts';
import { IN, twoSidedScenario } from '../tests/rules/fixtures.ts';

/** Deterministic pseudo-random numbers (mulberry32), so every run builds the same table. */
export function rng(seed: number): () => number {
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
    {
      id: 'wall',
      name: 'the wall',
      kind: 'obstacle',
      line: [
        { x: 100 * IN, y: 36 * IN },
        { x: 120 * IN, y: 36 * IN },
      ],
    },
    {
      id: 'road',
      name: 'the road',
      kind: 'road',
      line: [
        { x: 0, y: 36 * IN },
        { x: 144 * IN, y: 36 * IN },
      ],
      widthMm: 50,
    },
  ];
  return twoSidedScenario('bench', 'black-powder', { widthMm: 144 * IN, depthMm: 72 * IN }, specs, terrain);
}

/**
 * The scenario with one unit moved rigidly: every base turned `turnDeg` about the unit's centre
 * and shifted (dx, dy) mm, as a player's hand would move it.
 */
export function movedUnit(scenario: Scenario, unitId: string, dx: number, dy: number, turnDeg = 0): Scenario {
  const a = (turnDeg * Math.PI) / 180;
  return {
    ...scenario,
    units: scenario.units.map((u) => {
      if (u.id !== unitId) return u;
      const posed = u.bases.flatMap((b) => (b.pose ? [b.pose] : []));
      const cx = posed.reduce((s, p) => s + p.x, 0) / (posed.length || 1);
      const cy = posed.reduce((s, p) => s + p.y, 0) / (posed.length || 1);
      return {
        ...u,
        bases: u.bases.map((b) => {
          if (!b.pose) return b;
          const rx = b.pose.x - cx;
          const ry = b.pose.y - cy;
          return {
            ...b,
            pose: {
              x: cx + rx * Math.cos(a) - ry * Math.sin(a) + dx,
              y: cy + rx * Math.sin(a) + ry * Math.cos(a) + dy,
              headingDeg: b.pose.headingDeg + turnDeg,
            },
          };
        }),
      };
    }),
  };
}

/**
 * A bench scenario as a tabletop ruleset reads it (D3's Highlanders, who charge: every third foot),
 * with blue `blueNearerIn` inches nearer red: 0 as deployed (the armies 20" or more apart), 15 on
 * the bench table engaged (front lines 5" apart: shots and charges in reach, charges a few inches
 * short searched in full).
 */
export function rulesetScenario(scenario: Scenario, ruleset: string, blueNearerIn = 0): Scenario {
  return {
    ...scenario,
    ruleset,
    units: scenario.units.map((u, i) => {
      const unit =
        ruleset === 'd3' && u.type === 'infantry' && i % 3 === 0 ? { ...u, troop: 'Highland foot' } : u;
      if (blueNearerIn === 0 || u.side !== 'blue') return unit;
      return {
        ...unit,
        bases: unit.bases.map((b) =>
          b.pose ? { ...b, pose: { ...b.pose, y: b.pose.y - blueNearerIn * IN } } : b,
        ),
      };
    }),
  };
}
