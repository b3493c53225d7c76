import { polygonSetSeparation } from '../../geometry/distance.ts';
import { toLocal, toTable } from '../../geometry/frame.ts';
import { containsPoint } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { Commander } from '../../table/table-state.ts';
import type { TableBase, TableUnit } from '../../table/table-unit.ts';
import { failingReasons, measuredBy } from '../engine/composite.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { overhangMeasure, tableOverhang } from '../engine/overhang.ts';
import { pointName } from '../engine/parts.ts';
import { pointToUnit } from '../unit-distance.ts';
import {
  bpVerdict,
  inches,
  inStr,
  isDeployedArtillery,
  lengthVerdict,
  mmOf,
  type BpContext,
  poss,
} from './context.ts';
import { LIMBER_BEHIND, MIXED_AHEAD, MIXED_SPACING, MOVE, ROCKET_DISORDER_RADIUS } from './tables.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * Mixed order: each skirmisher base within 2" of another skirmisher or of the formed body, and
 * none more than 6" ahead of the body (option mixedSpacing: or the body no more than 2" behind
 * the screen).
 */
export function mixedOrderVerdict(ctx: BpContext, unit: TableUnit): Verdict {
  const screen = unit.bases.filter((b) => b.role === 'skirmisher');
  const asked = `is ${poss(unit.name)} mixed order properly formed?`;
  if (screen.length === 0)
    return bpVerdict({
      question: 'mixedOrder',
      asked,
      answer: 'no',
      reasons: ['no skirmisher bases marked'],
    });
  const frame = unit.box.frame;
  const front = (p: Vec2): Vec2 => toTable(frame, { x: toLocal(frame, p).x, y: 0 });
  const sigma = (b: TableBase) => hypot(b.sigmaMm, unit.sigmaMm);
  // The screen's farthest point ahead of the body's front, and its nearest.
  let far = { y: -Infinity, p: unit.leader, b: screen[0] as TableBase };
  let near = { y: Infinity, p: unit.leader, b: screen[0] as TableBase };
  for (const b of screen)
    for (const p of b.polygon) {
      const y = toLocal(frame, p).y;
      if (y > far.y) far = { y, p, b };
      if (y < near.y) near = { y, p, b };
    }
  const checks: Verdict[] = [];
  let main: Verdict;
  if (ctx.options.mixedSpacing === 'advanced') {
    // The skirmisher farthest from any other skirmisher or the body decides the 2" rule.
    let worst: { d: number; from: Vec2; to: Vec2; b: TableBase } | undefined;
    for (const b of screen) {
      const others = [
        ...screen.filter((o) => o !== b).map((o) => o.polygon),
        ...unit.body.map((o) => o.polygon),
      ];
      if (others.length === 0) continue;
      const sep = polygonSetSeparation([b.polygon], others);
      if (!worst || sep.distance > worst.d) worst = { d: sep.distance, from: sep.onA, to: sep.onB, b };
    }
    if (worst)
      checks.push(
        lengthVerdict(
          ctx,
          {
            question: 'screenSpacing',
            asked: `is every skirmisher of ${unit.name} within 2" of another or of the body?`,
            reasons: [
              `the loneliest skirmisher stands ${inStr(worst.d)} from its nearest neighbour; 2" allowed`,
            ],
          },
          { mm: worst.d, sigmaMm: sigma(worst.b), from: worst.from, to: worst.to },
          'atMost',
          MIXED_SPACING,
        ),
      );
    main = lengthVerdict(
      ctx,
      {
        question: 'screenAhead',
        asked: `is ${poss(unit.name)} screen within 6" ahead of the body?`,
        reasons: [`the screen reaches ${inStr(far.y)} ahead of the body; 6" allowed`],
      },
      { mm: far.y, sigmaMm: sigma(far.b), from: front(far.p), to: far.p },
      'atMost',
      MIXED_AHEAD,
    );
  } else
    main = lengthVerdict(
      ctx,
      {
        question: 'screenBehind',
        asked: `is ${poss(unit.name)} body within 2" behind its skirmishers?`,
        reasons: [`the body is ${inStr(Math.max(0, near.y))} behind its skirmishers; 2" allowed`],
      },
      { mm: near.y, sigmaMm: sigma(near.b), from: front(near.p), to: near.p },
      'atMost',
      MIXED_SPACING,
    );
  checks.push(main);
  const { answer, lean } = allOf(checks);
  return bpVerdict({
    question: 'mixedOrder',
    asked,
    answer,
    lean,
    ...measuredBy(main),
    reasons:
      answer === 'no'
        ? failingReasons(checks)
        : [`the screen is ${inStr(far.y)} ahead and keeps together`, ...failingReasons(checks, 'notYes')],
    options: { mixedSpacing: ctx.options.mixedSpacing },
    checks,
  });
}

/** Skirmish order spacing: neighbouring bases 1–2 base widths apart (models 1"–2" apart). */
export function skirmishSpacing(unit: TableUnit): { ok: boolean; gapsInBaseWidths: number[] } {
  const bases = unit.bases;
  const gaps = bases.map((b, i) => {
    const others = bases.filter((_, j) => j !== i).map((o) => o.polygon);
    return others.length ? polygonSetSeparation([b.polygon], others).distance / b.footprint.width : 1;
  });
  return { ok: gaps.every((g) => g >= 1 - 1e-9 && g <= 2 + 1e-9), gapsInBaseWidths: gaps };
}

/** Deployed artillery: limber and team no more than 3" behind the gun (or removed). */
export function limberVerdict(ctx: BpContext, gun: TableUnit): Verdict {
  const limbers = gun.bases.filter((b) => b.role === 'limber' || b.role === 'team');
  if (limbers.length === 0)
    return bpVerdict({
      question: 'limber',
      asked: `is ${poss(gun.name)} limber placed properly?`,
      answer: 'yes',
      reasons: ['no limber on the table'],
    });
  const s = polygonSetSeparation(
    limbers.map((l) => l.polygon),
    gun.body.map((b) => b.polygon),
  );
  return lengthVerdict(
    ctx,
    {
      question: 'limber',
      asked: `is ${poss(gun.name)} limber within 3" behind the gun?`,
      reasons: [`the limber is ${inStr(s.distance)} from the gun; it may stand ${LIMBER_BEHIND}" behind`],
    },
    { mm: s.distance, sigmaMm: gun.sigmaMm, from: s.onA, to: s.onB },
    'atMost',
    LIMBER_BEHIND,
  );
}

/**
 * The bases a unit leaves the table by: every base, except a deployed battery under the option
 * deployedArtilleryFootprint = gunOnly, which is judged by its gun model (crew and limber ignored,
 * as for targeting and quarters).
 */
export function tableFootprint(ctx: BpContext, unit: TableUnit): readonly TableBase[] {
  const gunOnly = ctx.options.deployedArtilleryFootprint === 'gunOnly' && isDeployedArtillery(unit);
  return gunOnly ? unit.body : unit.bases;
}

/**
 * How far a unit overhangs the table edge (mm; negative: how far inside it stays), by the option
 * leftTable: any base's farthest corner past an edge, or a base's centre past it.
 */
export function overhang(
  ctx: BpContext,
  unit: TableUnit,
): { mm: number; at: Vec2; edge: Vec2; sigmaMm: number } {
  const by = ctx.options.leftTable === 'anyOverhang' ? 'corners' : 'centres';
  return (
    tableOverhang(ctx.state.table, tableFootprint(ctx, unit), by) ?? {
      mm: -Infinity,
      at: unit.leader,
      edge: unit.leader,
      sigmaMm: 0,
    }
  );
}

/** Has the unit left the table (option leftTable)? */
export function leftTable(ctx: BpContext, unit: TableUnit): boolean {
  return overhang(ctx, unit).mm > 0;
}

/** "Has A left the table?": the overhang past the edge, with its margin and band. */
export function leftTableVerdict(ctx: BpContext, unit: TableUnit): Verdict {
  const o = overhang(ctx, unit);
  const what = ctx.options.leftTable === 'anyOverhang' ? 'farthest corner' : 'farthest base centre';
  const gunOnly = tableFootprint(ctx, unit) !== unit.bases;
  const past = o.mm > 0;
  return lengthVerdict(
    ctx,
    {
      question: 'leftTable',
      asked: `has ${unit.name} left the table?`,
      reasons: [
        `${gunOnly ? `${poss(unit.name)} gun model's` : `${poss(unit.name)}`} ${what} is ${inStr(Math.abs(o.mm))} ${past ? 'past' : 'inside'} the table edge`,
      ],
      options: {
        leftTable: ctx.options.leftTable,
        deployedArtilleryFootprint: ctx.options.deployedArtilleryFootprint,
      },
      facts: { overhangIn: inches(o.mm) },
    },
    overhangMeasure(unit, o),
    'moreThan',
    0,
  );
}

/**
 * A stray rocket lands `rollIn` inches (2D6) from its aiming point in the scatter direction: a
 * unit it lands on takes a hit; units within 3" may be disordered (on a 6).
 */
export function rocketStray(
  ctx: BpContext,
  aim: Vec2,
  rollIn: number,
  directionDeg: number,
): { landing: Vec2; hit?: string; disorderChecks: string[] } {
  const a = (directionDeg * Math.PI) / 180;
  const landing = { x: aim.x - Math.sin(a) * mmOf(rollIn), y: aim.y + Math.cos(a) * mmOf(rollIn) };
  const hit = ctx.state.units.find((u) => u.bases.some((b) => containsPoint(b.polygon, landing)))?.name;
  const disorderChecks = ctx.state.units
    .filter(
      (u) =>
        !u.disordered && pointToUnit(landing, 0, u.bases).distance <= mmOf(ROCKET_DISORDER_RADIUS) + 1e-9,
    )
    .map((u) => u.name);
  return { landing, ...(hit ? { hit } : {}), disorderChecks };
}

/** A displaced commander must reach a friendly unit within his normal move (36" on foot, 48" mounted) or is lost. */
export function commanderSafeVerdict(ctx: BpContext, k: Commander): Verdict {
  const move = k.mounted ? MOVE.commanderMounted : MOVE.commanderFoot;
  const friends = ctx.state.units.filter((u) => u.side === k.side);
  let best: { u: TableUnit; d: number; s: number; a: Vec2; b: Vec2 } | undefined;
  for (const u of friends) {
    const s = pointToUnit(k.head, k.sigmaMm, u.bases);
    if (!best || s.distance < best.d) best = { u, d: s.distance, s: s.sigmaMm, a: s.onA, b: s.onB };
  }
  if (!best)
    return bpVerdict({
      question: 'commanderSafe',
      asked: `can ${k.name} reach a friendly unit?`,
      answer: 'no',
      reasons: ['no friendly unit on the table'],
    });
  return lengthVerdict(
    ctx,
    {
      question: 'commanderSafe',
      asked: `can ${k.name} reach a friendly unit?`,
      reasons: [
        `${best.u.name} is ${inStr(best.d)} away; ${k.mounted ? 'mounted' : 'on foot'} he moves ${move}"`,
        best.d <= mmOf(move) ? 'he joins it' : 'he is lost',
      ],
    },
    {
      mm: best.d,
      sigmaMm: best.s,
      from: best.a,
      to: best.b,
      fromName: `${poss(k.name)} head`,
      toName: pointName(best.u, best.b),
    },
    'atMost',
    move,
  );
}

/** Skirmishers firing with part of the unit: of 3 shots, 1 if up to a third can fire, 2 up to two thirds, none below a sixth. */
export function skirmisherShots(shareAble: number, shots = 3): number {
  if (shareAble < 1 / 6) return 0;
  if (shareAble <= 1 / 3) return Math.min(1, shots);
  if (shareAble <= 2 / 3) return Math.min(2, shots);
  return shots;
}

/** Cover save bonus: +1 light, +2 buildings/fortifications, only when at least half of the target is covered. */
export function coverSaveBonus(coveredShare: number, kind: 'light' | 'heavy'): number {
  if (coveredShare < 0.5) return 0;
  return kind === 'heavy' ? 2 : 1;
}
