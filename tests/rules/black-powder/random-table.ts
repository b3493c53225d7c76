import type { BaseSpec, Scenario, TerrainSpec, UnitSpec } from '../../../src/table/scenario.ts';
import { buildTableState, type TableState } from '../../../src/table/table-state.ts';
import { rng } from '../../../bench/rules-scenario.ts';
import { IN, twoSidedScenario } from '../fixtures.ts';

/**
 * A random Black Powder table from a seed: `units` units of 1–6 bases anywhere on a 72" × 48"
 * table at any heading (lines, columns, a few skirmishers, squares and guns), and a few woods,
 * buildings and hills. Units may overlap each other and terrain: the point is to catch the
 * accelerated code disagreeing with the plain code, not to look like a game.
 */
export function randomTable(seed: number, units = 24): TableState {
  return buildTableState(randomScenario(seed, units));
}

/** The scenario of `randomTable` (to move a unit and build the table again). */
export function randomScenario(seed: number, units = 24): Scenario {
  const r = rng(seed);
  const between = (a: number, b: number) => a + (b - a) * r();
  let marker = 1;
  const mk = () => ({ id: marker++, sizeMm: 20, heightMm: 3, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 });
  const specs: UnitSpec[] = [];
  for (let i = 0; i < units; i++) {
    const heading = between(-180, 180);
    const a = (heading * Math.PI) / 180;
    const right = { x: Math.cos(a), y: Math.sin(a) };
    const front = { x: -Math.sin(a), y: Math.cos(a) };
    const cx = between(4, 68) * IN;
    const cy = between(4, 44) * IN;
    const kind = r();
    const side = i % 2 === 0 ? 'red' : 'blue';
    if (kind < 0.1) {
      // A gun with its crew behind.
      const gun: BaseSpec = {
        widthMm: 40,
        depthMm: 60,
        marker: mk(),
        role: 'gun',
        pose: { x: cx, y: cy, headingDeg: heading },
      };
      const crew: BaseSpec = {
        widthMm: 50,
        depthMm: 30,
        marker: mk(),
        role: 'crew',
        pose: { x: cx - front.x * 50, y: cy - front.y * 50, headingDeg: heading },
      };
      specs.push({ id: `g${i}`, name: `Gun ${i}`, side, type: 'artillery', bases: [gun, crew] });
      continue;
    }
    const n = 1 + Math.floor(r() * 6);
    const w = between(20, 60);
    const d = between(15, 50);
    const spread = kind < 0.2 ? between(1.5, 3) : 1;
    const deep = kind > 0.85;
    const bases: BaseSpec[] = Array.from({ length: n }, (_, k) => {
      const off = (k - (n - 1) / 2) * w * spread;
      const along = deep ? { x: front.x * off, y: front.y * off } : { x: right.x * off, y: right.y * off };
      return {
        widthMm: w,
        depthMm: d,
        marker: mk(),
        pose: { x: cx + along.x, y: cy + along.y, headingDeg: heading },
      };
    });
    const square = kind > 0.95;
    specs.push({
      id: `u${i}`,
      name: `Unit ${i}`,
      side,
      type: r() < 0.3 ? 'cavalry' : 'infantry',
      bases,
      ...(kind < 0.2 ? { formation: 'skirmish' as const } : square ? { formation: 'square' as const } : {}),
    });
  }
  const terrain: TerrainSpec[] = [];
  const kinds = ['wood', 'building', 'hill'] as const;
  const pieces = Math.floor(r() * 5);
  for (let t = 0; t < pieces; t++) {
    const kind = kinds[Math.floor(r() * 3)] as (typeof kinds)[number];
    const cx = between(6, 66) * IN;
    const cy = between(6, 42) * IN;
    const rx = between(2, 8) * IN;
    const ry = between(2, 6) * IN;
    const sides = kind === 'building' ? 4 : 5 + Math.floor(r() * 4);
    const turn = r() * Math.PI;
    const polygon = Array.from({ length: sides }, (_, k) => {
      const a = turn + (2 * Math.PI * k) / sides;
      return { x: cx + Math.cos(a) * rx, y: cy + Math.sin(a) * ry };
    });
    terrain.push({
      id: `t${t}`,
      name: `${kind} ${t}`,
      kind,
      polygon,
      ...(kind === 'hill' ? { heightMm: 40 } : {}),
    });
  }
  return twoSidedScenario(
    `random ${seed}`,
    'black-powder',
    { widthMm: 72 * IN, depthMm: 48 * IN },
    specs,
    terrain,
  );
}

/**
 * The scenario with every unit drawn `share` of the way to the table's centre (its bases moved
 * together): charges and shots within a move or a range are then common, not only far ones.
 */
export function drawnToCentre(s: Scenario, share: number): Scenario {
  const cx = s.table.widthMm / 2;
  const cy = s.table.depthMm / 2;
  return {
    ...s,
    units: s.units.map((u) => {
      const mx = u.bases.reduce((a, b) => a + (b.pose?.x ?? 0), 0) / u.bases.length;
      const my = u.bases.reduce((a, b) => a + (b.pose?.y ?? 0), 0) / u.bases.length;
      const dx = (cx - mx) * share;
      const dy = (cy - my) * share;
      return {
        ...u,
        bases: u.bases.map((b) =>
          b.pose ? { ...b, pose: { ...b.pose, x: b.pose.x + dx, y: b.pose.y + dy } } : b,
        ),
      };
    }),
  };
}
