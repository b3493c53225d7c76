import { polygonSetSeparation } from '../../geometry/distance.ts';
import { normalize, scale, sub, type Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { separation, translatedBases, unitCentroid } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { pointName } from '../engine/parts.ts';
import { unitSeparation } from '../unit-distance.ts';
import {
  cm,
  cmStr,
  fullMoveOf,
  mmOfCm,
  otsVerdict,
  strengthOf,
  thresholdVerdict,
  type OtsContext,
} from './context.ts';
import { CONTACT_MM, DRIVE_BACK_PER_HIT } from './tables.ts';

/** Contact is made only if the start distance plus the drive-back from pre-melee fire is within the charge move. */
export const chargeContacts = (startCm: number, hits: number, chargeMoveCm: number): boolean =>
  startCm + hits * DRIVE_BACK_PER_HIT <= chargeMoveCm + 1e-9;

/** "Can C charge T?" (full move; if the target fires first, `hits` drive the charger back 1 cm each). */
export function chargeVerdict(ctx: OtsContext, charger: TableUnit, target: TableUnit, hits = 0): Verdict {
  const problems: string[] = [];
  if (charger.side === target.side) problems.push(`${target.name} is a friend`);
  if (charger.type === 'artillery') problems.push('artillery does not charge');
  const may = otsVerdict({
    question: 'mayCharge',
    asked: `may ${charger.name} charge?`,
    answer: problems.length ? 'no' : 'yes',
    reasons: problems.length ? problems : [`${charger.name} may charge`],
  });
  const g = separation(charger.bases, target.bases);
  const move = fullMoveOf(charger);
  const needed = cm(g.mm) + hits * DRIVE_BACK_PER_HIT;
  const from = pointName(charger, g.from);
  const to = pointName(target, g.to);
  const reach = thresholdVerdict(
    ctx,
    {
      question: 'contact',
      asked: `does ${charger.name} make contact?`,
      between: [g.from, g.to],
      measured: { from, to },
      reasons: [
        `${cmStr(g.mm)} from ${from} to ${to}${hits ? ` + ${hits} cm driven back by fire` : ''} = ${needed.toFixed(1)} cm against a ${move} cm charge`,
      ],
      facts: { startCm: cm(g.mm), hits },
    },
    { value: needed, unit: 'cm', perMm: 0.1, sigmaMm: g.sigmaMm },
    'atMost',
    move,
  );
  const { answer, lean } = allOf([may, reach]);
  return otsVerdict({
    ...reach,
    question: 'charge',
    asked: `can ${charger.name} charge ${target.name}${hits ? ` through ${hits} hits of fire` : ''}?`,
    answer,
    lean,
    reasons:
      answer === 'no'
        ? [may, reach].filter((v) => v.answer === 'no').flatMap((v) => v.reasons)
        : reach.reasons,
    checks: [may, reach],
  });
}

/** Which way a unit hit by fire is driven (option driveBackFrom). */
export function driveDirection(ctx: OtsContext, unit: TableUnit, firer: TableUnit): Vec2 {
  if (ctx.options.driveBackFrom === 'straightBack') return scale(unit.facing, -1);
  if (ctx.options.driveBackFrom === 'nearestPoints') {
    const s = polygonSetSeparation(firer.allPolygons, unit.allPolygons);
    if (s.distance > 0) return normalize(sub(s.onB, s.onA));
  }
  const d = sub(unitCentroid(unit), unitCentroid(firer));
  return Math.hypot(d.x, d.y) === 0 ? scale(unit.facing, -1) : normalize(d);
}

export interface DriveBack {
  readonly cm: number;
  readonly move: Vec2;
  readonly confused: boolean;
  readonly moraleTest: boolean;
  /** Units the driven unit runs into (it is confused; each of them is confused on a 6). */
  readonly collidesWith: readonly string[];
}

/** Drive-back from fire: 1 cm per hit directly away from the firer; more cm than Strength → confused; more than twice → morale test. */
export function driveBack(ctx: OtsContext, unit: TableUnit, firer: TableUnit, hits: number): DriveBack {
  const dist = hits * DRIVE_BACK_PER_HIT;
  const move = scale(driveDirection(ctx, unit, firer), mmOfCm(dist));
  const moved = translatedBases(unit, move);
  const collidesWith = ctx.state.units
    .filter((u) => u.id !== unit.id && u.id !== firer.id)
    .filter((u) => unitSeparation(moved, u.bases).distance <= CONTACT_MM)
    .map((u) => u.name);
  const s = strengthOf(unit);
  return {
    cm: dist,
    move,
    confused: dist > s || collidesWith.length > 0,
    moraleTest: dist > 2 * s,
    collidesWith,
  };
}

export function driveBackVerdict(ctx: OtsContext, unit: TableUnit, firer: TableUnit, hits: number): Verdict {
  const d = driveBack(ctx, unit, firer, hits);
  const s = strengthOf(unit);
  return otsVerdict({
    question: 'driveBack',
    asked: `how far is ${unit.name} driven back by ${hits} hits from ${firer.name}?`,
    answer: 'yes',
    value: d.cm,
    unit: 'cm',
    between: [unitCentroid(unit), { x: unitCentroid(unit).x + d.move.x, y: unitCentroid(unit).y + d.move.y }],
    reasons: [
      `${d.cm} cm directly away from ${firer.name}`,
      d.cm > s ? `more than its Strength (${s}): confused` : `not more than its Strength (${s})`,
      d.moraleTest ? `more than twice its Strength (${2 * s}): it must test morale` : 'no morale test',
      ...(d.collidesWith.length
        ? [`it runs into ${d.collidesWith.join(', ')}: confused, and each of them is confused on a 6`]
        : []),
    ],
    options: pick(ctx.options, 'driveBackFrom'),
    facts: {
      confused: d.confused,
      moraleTest: d.moraleTest,
      collisions: d.collidesWith.join(', '),
      moveXmm: d.move.x,
      moveYmm: d.move.y,
    },
  });
}

export interface MeleeSide {
  /** Hits this side inflicted. */
  readonly hits: number;
  /** Its supporting stands. */
  readonly supports: number;
}

/**
 * Melee result: each side's total is the hits it inflicted plus its supporting stands; the loser
 * is driven back by the difference (1 cm each); a draw sends both back by the hits each took.
 */
export function meleeResult(
  a: MeleeSide,
  b: MeleeSide,
): { winner: 'a' | 'b' | 'draw'; driveA: number; driveB: number } {
  const ta = a.hits + a.supports;
  const tb = b.hits + b.supports;
  if (ta === tb) return { winner: 'draw', driveA: b.hits, driveB: a.hits };
  return ta > tb ? { winner: 'a', driveA: 0, driveB: ta - tb } : { winner: 'b', driveA: tb - ta, driveB: 0 };
}

/** Stands of `unit` touching `enemy` (they fight). */
export function standsInContact(unit: TableUnit, enemy: TableUnit): number {
  return unit.bases.filter((b) => unitSeparation([b], enemy.bases).distance <= CONTACT_MM).length;
}

/** Stands of `unit` (or of friends given) touching its engaged stands but not the enemy: each takes one hit off. */
export function supportingStands(
  unit: TableUnit,
  enemy: TableUnit,
  friends: readonly TableUnit[] = [],
): number {
  const engaged = unit.bases.filter((b) => unitSeparation([b], enemy.bases).distance <= CONTACT_MM);
  if (engaged.length === 0) return 0;
  const candidates = [
    ...unit.bases.filter((b) => !engaged.includes(b)),
    ...friends.filter((f) => !f.disordered).flatMap((f) => f.bases),
  ];
  return candidates.filter(
    (b) =>
      unitSeparation([b], enemy.bases).distance > CONTACT_MM &&
      unitSeparation([b], engaged).distance <= CONTACT_MM,
  ).length;
}
