import { sampleBoardMap } from '../../../src/board/board-map.ts';
import type { BaseSpec, Formation, Scenario, TerrainSpec, UnitSpec } from '../../../src/table/scenario.ts';
import { rng } from '../../../bench/rules-scenario.ts';
import { twoSidedScenario } from '../fixtures.ts';
import { intersectionArea } from '../../../src/geometry/boolean.ts';
import type { TableUnit } from '../../../src/table/table-unit.ts';
import { reportedPoses, tableOf, type Sigmas } from './perturb.ts';

/**
 * Random tables for the perturbation property test, one recipe per ruleset. Each table puts a
 * subject A and an object B at a gap close to one of the ruleset's own thresholds (a range, a
 * move, a command radius) and at a bearing close to an arc edge half the time, with friends,
 * blockers between them, commanders near their radii, and terrain on the line between: the
 * places where players argue. Every base gets its own pose sigma (0.5–3 mm, 0.2–1.5°), as a
 * camera would report. Formations are declared: recognising a formation is the tracker's call,
 * not a threshold of the rules.
 */
export interface RandomTable {
  readonly scenario: Scenario;
  readonly sigmas: Sigmas;
  readonly questions: readonly string[];
}

export interface Recipe {
  readonly ruleset: string;
  /** Millimetres per unit of the ruleset's lengths. */
  readonly unitMm: number;
  /** Gaps (ruleset unit) the subject and object are set near. */
  readonly gaps: readonly number[];
  /** Radii (ruleset unit) commanders are set near. */
  readonly commandRadii: readonly number[];
  readonly formations: readonly Formation[];
  /** Troop words to sprinkle (D3 Highlanders, O'er the Sea Light Horse…). */
  readonly troops: readonly (string | undefined)[];
  readonly gunWeapons: readonly (string | undefined)[];
  /**
   * Extra questions in the ruleset's own phrasing, with A, B, F, K for the units; options in
   * brackets after a question ("[supportPoint=anyPart]") are set for it.
   */
  readonly extra: readonly string[];
}

const IN = 25.4;

export const RECIPES: Readonly<Record<string, Recipe>> = {
  'black-powder': {
    ruleset: 'black-powder',
    unitMm: IN,
    gaps: [0.25, 6, 12, 18, 24, 3],
    commandRadii: [12, 24],
    formations: ['line', 'line', 'attackColumn', 'marchColumn', 'skirmish', 'square', 'mixed'],
    troops: [undefined],
    gunWeapons: ['smoothbore foot artillery', 'smoothbore field howitzer', 'light smoothbore artillery'],
    extra: [
      "has 'A' left the table?",
      "is 'A' within 12 in of 'B'?",
      "does 'F' support 'A'? [supportPoint=anyPart]",
      "does 'F' support 'A'? [supportPoint=majority]",
    ],
  },
  prestonpans: {
    ruleset: 'prestonpans',
    unitMm: IN,
    gaps: [1, 3, 6, 8, 12, 18, 24],
    commandRadii: [6, 1],
    formations: ['line', 'line'],
    troops: [undefined],
    gunWeapons: [undefined],
    extra: ["'A' declares a charge on 'B'", "is 'A' within 8 in of 'B'?"],
  },
  d3: {
    ruleset: 'd3',
    unitMm: IN,
    gaps: [12, 6, 9, 18, 1],
    commandRadii: [12],
    formations: ['line', 'line', 'attackColumn'],
    troops: [undefined, 'highlander', 'skirmishers', undefined],
    gunWeapons: [undefined, 'mortar'],
    extra: ["is 'A' within 12 in of 'B'?"],
  },
  'oer-the-sea': {
    ruleset: 'oer-the-sea',
    unitMm: 10,
    gaps: [15, 30, 20, 40, 50, 5],
    commandRadii: [30],
    formations: ['line', 'line', 'attackColumn'],
    troops: [undefined, 'light horse', undefined],
    gunWeapons: ['light gun', 'medium gun', 'light mortar'],
    extra: ["is 'B' directly ahead of 'A'?", "is 'A' within 30 cm of 'B'?", "has 'A' left the table?"],
  },
};

/** Questions every tabletop table is asked (those the ruleset does not answer are skipped). */
const COMMON = [
  "can 'A' shoot 'B'?",
  "can 'A' charge 'B'?",
  "does 'A' see 'B'?",
  "distance 'A' 'B'",
  "which quarter of 'A' is 'B' in?",
  "does 'F' support 'A'?",
  "can 'K' order 'A'?",
  "does 'A' have the initiative?",
];

interface Kind {
  readonly type: UnitSpec['type'];
  readonly w: number;
  readonly d: number;
}

export function randomTable(recipe: Recipe, seed: number): RandomTable {
  return drawTable(recipe, seed, rng(seed * 7919 + recipe.ruleset.length));
}

/**
 * A random table as real bases can stand: no base of one unit on top of another unit's (touching
 * is allowed). The plain tables drop blockers and friends anywhere, so more than half of them have
 * units centimetres on top of each other, which the camera can never report; verdicts there are
 * still asked (a detector may err), but flips found only on such tables say nothing about a real
 * table. Tables are drawn from a stream of their own (not the plain table of the same seed) until
 * one stands apart.
 */
export function randomApartTable(recipe: Recipe, seed: number): RandomTable {
  for (let attempt = 1; ; attempt++) {
    const t = drawTable(recipe, seed, rng(seed * 7919 + recipe.ruleset.length + attempt * 1_000_003));
    if (standsApart(t) || attempt >= 200) return t;
  }
}

/** Overlap of two units' bases above this (mm²) is one standing on the other. */
const OVERLAP_MM2 = 1;

/** Whether no base of one unit (commanders included) overlaps another unit's. */
export function standsApart(t: RandomTable): boolean {
  const state = tableOf(t.scenario, reportedPoses(t.scenario, t.sigmas));
  const units = state.units;
  for (let a = 0; a < units.length; a++)
    for (let b = a + 1; b < units.length; b++)
      for (const ba of (units[a] as TableUnit).bases)
        for (const bb of (units[b] as TableUnit).bases)
          if (intersectionArea([ba.polygon], [bb.polygon]) > OVERLAP_MM2) return false;
  return true;
}

function drawTable(recipe: Recipe, seed: number, r: () => number): RandomTable {
  const between = (a: number, b: number) => a + (b - a) * r();
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(r() * xs.length)] as T;
  let marker = 1;
  const sigmas = new Map<number, { mm: number; deg: number }>();
  const mk = () => {
    const id = marker++;
    sigmas.set(id, { mm: between(0.5, 3), deg: between(0.2, 1.5) });
    return { id, sizeMm: 20, heightMm: 3, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 };
  };
  const W = 72 * IN;
  const D = 48 * IN;
  const front = (deg: number) => ({
    x: -Math.sin((deg * Math.PI) / 180),
    y: Math.cos((deg * Math.PI) / 180),
  });
  const right = (deg: number) => ({ x: Math.cos((deg * Math.PI) / 180), y: Math.sin((deg * Math.PI) / 180) });

  /** A unit of n bases in a line (or a column) centred at (cx, cy), facing `heading`. */
  const unit = (
    id: string,
    side: string,
    cx: number,
    cy: number,
    heading: number,
    k: Kind,
    extra: Partial<UnitSpec> = {},
  ): UnitSpec => {
    if (k.type === 'artillery') {
      const f = front(heading);
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
        pose: { x: cx - f.x * 50, y: cy - f.y * 50, headingDeg: heading },
      };
      const weapon = pick(recipe.gunWeapons);
      return {
        id,
        name: id,
        side,
        type: 'artillery',
        bases: [gun, crew],
        formation: 'deployed',
        ...(weapon ? { weapon, troop: weapon } : {}),
        ...extra,
      };
    }
    const formation = pick(recipe.formations);
    const column = formation === 'attackColumn' || formation === 'marchColumn';
    const n = formation === 'square' ? 4 : 1 + Math.floor(r() * 5);
    const spread = formation === 'skirmish' ? between(1.5, 2.5) : 1;
    const bases: BaseSpec[] = [];
    for (let i = 0; i < n; i++) {
      const off = (i - (n - 1) / 2) * (column ? k.d : k.w) * spread;
      const along = column ? front(heading) : right(heading);
      let h = heading;
      let px = cx + along.x * off;
      let py = cy + along.y * off;
      if (formation === 'square') {
        // Four bases facing out round a hollow centre.
        h = heading + 90 * i;
        const f = front(h);
        px = cx + f.x * k.w * 0.75;
        py = cy + f.y * k.w * 0.75;
      }
      bases.push({ widthMm: k.w, depthMm: k.d, marker: mk(), pose: { x: px, y: py, headingDeg: h } });
    }
    if (formation === 'mixed') {
      // A skirmish screen ahead of the line.
      const f = front(heading);
      bases.push({
        widthMm: k.w,
        depthMm: k.d,
        marker: mk(),
        role: 'skirmisher',
        pose: { x: cx + f.x * k.d * 3, y: cy + f.y * k.d * 3, headingDeg: heading },
      });
    }
    const troop = pick(recipe.troops);
    return {
      id,
      name: id,
      side,
      type: k.type,
      bases,
      formation,
      ...(troop ? { troop } : {}),
      ...(r() < 0.25 ? { quality: 'seasoned' } : {}),
      ...extra,
    };
  };
  const kind = (): Kind => {
    const x = r();
    if (x < 0.12) return { type: 'artillery', w: 40, d: 60 };
    if (x < 0.35) return { type: 'cavalry', w: 50, d: 25 };
    return { type: 'infantry', w: pick([20, 40, 40]), d: pick([20, 20, 40]) };
  };

  const units: UnitSpec[] = [];
  const ha = between(-180, 180);
  const ax = between(24, 48) * IN;
  const ay = between(16, 32) * IN;
  const A = unit('A', 'red', ax, ay, ha, kind());
  units.push(A);
  // B near a threshold gap from A's front, at a bearing near an arc edge half the time.
  const gap = pick(recipe.gaps) * recipe.unitMm + between(-12, 12);
  const edge = r() < 0.5;
  const bearing = edge ? (r() < 0.5 ? -1 : 1) * (45 + between(-3, 3)) : between(-80, 80);
  const dir = front(ha + bearing);
  const kb = kind();
  const depthA = 40;
  const bx = ax + (front(ha).x * depthA) / 2 + dir.x * (gap + kb.d * 1.5);
  const by = ay + (front(ha).y * depthA) / 2 + dir.y * (gap + kb.d * 1.5);
  const hb = r() < 0.6 ? ha + 180 + bearing + between(-30, 30) : between(-180, 180);
  units.push(unit('B', 'blue', bx, by, hb, kb));
  // A friend F near A's flank or rear, near 6" (support) or touching.
  const fSide = pick([-1, 1, 0]);
  const fd = (pick([6, 3, 0.3]) * IN + between(-10, 10)) * (recipe.unitMm / IN);
  const fpos =
    fSide === 0
      ? { x: ax - front(ha).x * (fd + 60), y: ay - front(ha).y * (fd + 60) }
      : { x: ax + right(ha).x * fSide * (fd + 120), y: ay + right(ha).y * fSide * (fd + 120) };
  units.push(unit('F', 'red', fpos.x, fpos.y, ha + between(-20, 20), kind()));
  // Blockers and bystanders: some on the line A–B, some anywhere.
  const extras = 1 + Math.floor(r() * 4);
  for (let i = 0; i < extras; i++) {
    const onLine = r() < 0.6;
    const t = between(0.3, 0.7);
    const off = between(-40, 40);
    const p = onLine
      ? {
          x: ax + (bx - ax) * t + right(ha + bearing).x * off,
          y: ay + (by - ay) * t + right(ha + bearing).y * off,
        }
      : { x: between(4, 68) * IN, y: between(4, 44) * IN };
    units.push(unit(`X${i}`, r() < 0.5 ? 'red' : 'blue', p.x, p.y, between(-180, 180), kind()));
  }
  // Commanders near their radii from A.
  const kd = pick(recipe.commandRadii) * recipe.unitMm + between(-12, 12);
  const kdir = front(between(-180, 180));
  const kx = ax + kdir.x * (kd + 60);
  const ky = ay + kdir.y * (kd + 60);
  const kBase: BaseSpec = {
    widthMm: 25,
    depthMm: 25,
    marker: mk(),
    pose: { x: kx, y: ky, headingDeg: 0 },
  };
  units.push({
    id: 'K',
    name: 'K',
    side: 'red',
    type: 'commander',
    bases: [kBase],
    general: r() < 0.5,
    staffRating: 8,
    mounted: r() < 0.5,
  });
  // Terrain: a piece or two across the line A–B, and one anywhere.
  const terrain: TerrainSpec[] = [];
  const pieces = Math.floor(r() * 3);
  for (let t = 0; t < pieces; t++) {
    const tk = pick(['wood', 'building', 'hill', 'obstacle', 'rough'] as const);
    const s = between(0.3, 0.8);
    const cx = ax + (bx - ax) * s + between(-60, 60);
    const cy = ay + (by - ay) * s + between(-60, 60);
    const rx = (tk === 'obstacle' ? between(3, 8) : between(1.5, 5)) * IN;
    const ry = (tk === 'obstacle' ? 0.15 : between(1, 4)) * IN;
    const turn = r() * Math.PI;
    const sides = tk === 'building' || tk === 'obstacle' ? 4 : 5 + Math.floor(r() * 3);
    const polygon = Array.from({ length: sides }, (_, k) => {
      const a = (2 * Math.PI * (k + 0.5)) / sides;
      const px = Math.cos(a) * rx;
      const py = Math.sin(a) * ry;
      return {
        x: cx + px * Math.cos(turn) - py * Math.sin(turn),
        y: cy + px * Math.sin(turn) + py * Math.cos(turn),
      };
    });
    terrain.push({
      id: `t${t}`,
      name: `${tk} ${t}`,
      kind: tk,
      polygon,
      ...(tk === 'hill' ? { heightMm: 40 } : {}),
    });
  }
  // Half the tables put A against the table edge (leaving the table).
  const scenario = twoSidedScenario(
    `perturb ${recipe.ruleset} ${seed}`,
    recipe.ruleset,
    { widthMm: W, depthMm: D },
    units,
    terrain,
  );
  return { scenario, sigmas, questions: [...COMMON, ...recipe.extra] };
}

/** Montrose: counters set near the edges of the sample map's space circles. */
export function randomMontroseTable(seed: number): RandomTable {
  const r = rng(seed * 104729 + 5);
  const between = (a: number, b: number) => a + (b - a) * r();
  const map = sampleBoardMap();
  const sigmas = new Map<number, { mm: number; deg: number }>();
  const units: UnitSpec[] = [];
  const names: string[] = [];
  const count = 3 + Math.floor(r() * 4);
  for (let i = 0; i < count; i++) {
    const space = map.spaces[Math.floor(r() * map.spaces.length)];
    if (!space) continue;
    // Near the circle's edge plus the snapping tolerance (0.25 in by default), or on its centre.
    const at = r() < 0.7 ? space.radius + 0.25 + between(-0.08, 0.08) : between(0, space.radius);
    const a = r() * 2 * Math.PI;
    const id = 900 + i;
    sigmas.set(id, { mm: between(0.5, 2), deg: between(0.2, 1) });
    const name = `C${i}`;
    names.push(name);
    const troop = (['leader', 'highland', 'lowland', 'cavalry', 'irish'] as const)[
      Math.floor(r() * 5)
    ] as string;
    units.push({
      id: name,
      name,
      side: r() < 0.5 ? 'royalist' : 'covenanter',
      type: troop === 'cavalry' ? 'cavalry' : 'infantry',
      troop,
      bases: [
        {
          widthMm: 15.875,
          depthMm: 15.875,
          marker: { id, sizeMm: 12, heightMm: 1, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 },
          pose: { x: (space.x + Math.cos(a) * at) * IN, y: (space.y + Math.sin(a) * at) * IN, headingDeg: 0 },
        },
      ],
    });
  }
  const scenario: Scenario = {
    name: `perturb montrose ${seed}`,
    ruleset: 'montrose',
    markerDictionary: 'apriltag_36h11',
    table: { widthMm: 11 * IN * 2, depthMm: 17 * IN * 2 },
    referenceMarkers: [],
    sides: [
      { id: 'royalist', name: 'Royalist', colour: '#ff0' },
      { id: 'covenanter', name: 'Covenanter', colour: '#00f' },
    ],
    units,
  };
  const questions: string[] = [];
  for (const n of names) questions.push(`where is '${n}'?`);
  for (let i = 0; i + 1 < names.length; i++) questions.push(`distance '${names[i]}' '${names[i + 1]}'`);
  for (const n of names) {
    const s = map.spaces[Math.floor(r() * map.spaces.length)];
    if (s) questions.push(`can '${n}' move to '${s.name ?? s.id}'?`);
  }
  return { scenario, sigmas, questions };
}
