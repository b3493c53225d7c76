import { polygonSetSeparation } from '../../geometry/distance.ts';
import { quarterOfPoint, type QuarterName } from '../../geometry/quarters.ts';
import { normalize, sub, type Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { separation, translatedBases, unitCentroid, type Measured, possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { quarterQuantity } from '../engine/quarter-call.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import {
  facePoint,
  inches,
  inStr,
  lengthVerdict,
  mmOf,
  movesOf,
  PP,
  ppVerdict,
  troopOf,
  unitGap,
  type PpContext,
} from './context.ts';
import { APPROACH_LIMIT, FLANK_FIGHTERS, REAR_FIGHTERS } from './tables.ts';

/** Who may charge at all, and whom: reasons it may not (empty when it may). */
function chargeProblems(charger: TableUnit, target: TableUnit): string[] {
  const p: string[] = [];
  if (charger.side === target.side) p.push(`${target.name} is a friend`);
  if (troopOf(charger) === 'cannon') p.push('cannons cannot move, so never charge');
  if (charger.engaged) p.push(`${charger.name} is already in a melee`);
  return p;
}

/** Which face of `target` a charge strikes: the target quarter holding the charger's face point. */
export function attackFaceVerdict(ctx: PpContext, charger: TableUnit, target: TableUnit): Verdict {
  const p = facePoint(ctx, charger);
  const q = quarterOfPoint(target.box, p, ctx.options.quarterReading);
  const face: QuarterName = q.quarter === 'inside' ? 'front' : q.quarter;
  const quantity = quarterQuantity(q, 25.4, 'in', charger.sigmaMm, target, p);
  const j = PP.judge(ctx, quantity, 'moreThan', 0);
  const d = quantity.value;
  const close = q.quarter !== 'inside' && (j.answer === 'borderline' || q.onBoundary);
  const fighting =
    face === 'front'
      ? 'all its bases'
      : face === 'rear'
        ? `${REAR_FIGHTERS} bases`
        : `${FLANK_FIGHTERS} bases`;
  return ppVerdict({
    question: 'attackFace',
    asked: `which face of ${target.name} does ${charger.name} strike?`,
    answer: close ? 'borderline' : 'yes',
    value: d,
    unit: 'in',
    moveMm: j.moveMm,
    bandMm: j.bandMm,
    epsilon: j.epsilon,
    reasons: [
      `${charger.name} strikes ${possessive(target.name)} ${face === 'left' || face === 'right' ? `${face} flank` : face}${close ? ` (only ${d.toFixed(2)} in from its ${q.across}: too close to call)` : ''}`,
      `in the first round of melee ${target.name} fights back with ${fighting}`,
    ],
    options: pick(ctx.options, 'quarterReading', 'faceFrom'),
    facts: {
      face,
      across: q.across,
      fightingBasesFirstRound:
        face === 'front'
          ? target.bases.length
          : face === 'rear'
            ? REAR_FIGHTERS
            : Math.min(FLANK_FIGHTERS, target.bases.length),
    },
  });
}

/**
 * "Can C charge T?" Players may not measure before declaring a charge, so until `declared` the
 * verdict says only whether the charge may be declared, with the distance withheld
 * (`hiddenUntilDeclared`). Once declared: the charge reaches when the gap is within the charge
 * move; a failed charge becomes a normal move that stops 1" short of the enemy.
 */
export function chargeVerdict(
  ctx: PpContext,
  charger: TableUnit,
  target: TableUnit,
  declared = false,
): Verdict {
  const C = charger.name;
  const T = target.name;
  const problems = chargeProblems(charger, target);
  const moves = movesOf(ctx, troopOf(charger));
  const may = ppVerdict({
    question: 'mayCharge',
    asked: `may ${C} charge ${T}?`,
    answer: problems.length ? 'no' : 'yes',
    reasons: problems.length ? problems : [`${C} may declare a charge on ${T}`],
  });
  if (!declared) {
    return ppVerdict({
      question: 'charge',
      asked: `may ${C} declare a charge on ${T}?`,
      answer: may.answer,
      lean: may.lean,
      limit: moves.charge,
      unit: 'in',
      hiddenUntilDeclared: true,
      reasons: [
        ...may.reasons,
        `players may not measure before declaring a charge: the distance is withheld until the charge is declared (${possessive(C)} charge move is ${moves.charge}")`,
      ],
      options: pick(ctx.options, 'movementTable'),
      facts: { declared: false, chargeMoveIn: moves.charge },
      checks: [may],
    });
  }
  const gap = unitGap(ctx, charger, target);
  const reach = lengthVerdict(
    ctx,
    {
      question: 'reach',
      asked: `can ${C} reach ${T} with its charge move?`,
      reasons: [
        `${inStr(gap.mm)} from ${gap.fromName} to ${gap.toName}; ${possessive(C)} charge move is ${moves.charge}"`,
      ],
      options: pick(ctx.options, 'movementTable', 'measureFrom'),
    },
    gap,
    'atMost',
    moves.charge,
  );
  const face = attackFaceVerdict(ctx, charger, target);
  const checks = [may, reach];
  const { answer, lean } = allOf(checks);
  const gapIn = inches(gap.mm);
  const failedEndGap = Math.max(gapIn - moves.normal, APPROACH_LIMIT);
  return ppVerdict({
    question: 'charge',
    asked: `can ${C} charge ${T}?`,
    answer,
    lean,
    ...measuredBy(reach),
    reasons: [
      ...(answer === 'yes'
        ? [`${C} reaches ${T}: ${inStr(gap.mm)} within its ${moves.charge}" charge`]
        : failingReasons(checks, 'notYes')),
      ...(lean === 'no' && problems.length === 0
        ? [
            `a failed charge: ${C} makes a normal ${moves.normal}" move instead and must stop at least ${APPROACH_LIMIT}" short, ending ${failedEndGap.toFixed(1)} in from ${T}`,
          ]
        : []),
      ...(lean === 'yes' ? face.reasons : []),
    ],
    options: pick(ctx.options, 'movementTable', 'measureFrom', 'quarterReading'),
    facts: {
      declared: true,
      chargeMoveIn: moves.charge,
      face: face.facts.face as string,
      ...(lean === 'no' ? { failedMoveIn: moves.normal, failedEndGapIn: failedEndGap } : {}),
    },
    checks: [...checks, face],
  });
}

/** Unit direction "directly away" from `from` for the fleeing unit (option fleeDirection). */
export function awayDirection(ctx: PpContext, from: TableUnit, fleeing: TableUnit): Vec2 {
  if (ctx.options.fleeDirection === 'nearestPoints') {
    const s = polygonSetSeparation(from.allPolygons, fleeing.allPolygons);
    if (s.distance > 0) return normalize(sub(s.onB, s.onA));
  }
  const d = sub(unitCentroid(fleeing), unitCentroid(from));
  return Math.hypot(d.x, d.y) === 0 ? fleeing.facing : normalize(d);
}

export interface FleeResult {
  /** Translation of the fleeing unit, table mm. */
  readonly move: Vec2;
  /** Gap from the enemy to the unit after the flee. */
  readonly gapAfter: Measured;
}

/** The fleeing unit moved `rollIn` inches directly away from `from`, and the gap left. */
export function fleeMove(ctx: PpContext, from: TableUnit, fleeing: TableUnit, rollIn: number): FleeResult {
  const dir = awayDirection(ctx, from, fleeing);
  const move = { x: dir.x * mmOf(rollIn), y: dir.y * mmOf(rollIn) };
  return { move, gapAfter: separation(from.bases, translatedBases(fleeing, move)) };
}

/**
 * A charged unit flees 2D6" directly away. If the chargers can still reach it, it is destroyed;
 * otherwise the charge fails and the chargers make a normal move.
 */
export function fleeFromChargeVerdict(
  ctx: PpContext,
  charger: TableUnit,
  fleeing: TableUnit,
  fleeRollIn: number,
): Verdict {
  const f = fleeMove(ctx, charger, fleeing, fleeRollIn);
  const moves = movesOf(ctx, troopOf(charger));
  const reach = lengthVerdict(
    ctx,
    {
      question: 'catchFleeing',
      asked: `can ${charger.name} still reach ${fleeing.name} after it flees ${fleeRollIn}"?`,
      reasons: [
        `after fleeing ${fleeRollIn}" ${fleeing.name} is ${inStr(f.gapAfter.mm)} from ${charger.name}, whose charge move is ${moves.charge}"`,
      ],
      options: pick(ctx.options, 'movementTable', 'fleeDirection'),
    },
    f.gapAfter,
    'atMost',
    moves.charge,
  );
  return ppVerdict({
    ...reach,
    question: 'fleeFromCharge',
    reasons: [
      ...reach.reasons,
      reach.lean === 'yes'
        ? `${fleeing.name} is caught and destroyed`
        : `the charge fails: ${charger.name} makes a normal ${moves.normal}" move instead`,
    ],
    facts: { destroyed: reach.lean === 'yes', moveXmm: f.move.x, moveYmm: f.move.y },
    checks: [reach],
  });
}

/**
 * Pursuit after a flee: as written, caught when the pursuit roll is greater than the flee roll;
 * by the `gap` reading, when the pursuit roll reaches the gap actually left.
 */
export function pursuitVerdict(
  ctx: PpContext,
  fleeRollIn: number,
  pursueRollIn: number,
  gapAfterFleeIn?: number,
): Verdict {
  const useGap = ctx.options.pursuitCatch === 'gap' && gapAfterFleeIn !== undefined;
  const limit = useGap ? (gapAfterFleeIn as number) : fleeRollIn;
  const caught = useGap ? pursueRollIn >= limit : pursueRollIn > limit;
  return ppVerdict({
    question: 'pursuit',
    asked: `does a ${pursueRollIn}" pursuit catch a unit that fled ${fleeRollIn}"?`,
    answer: caught ? 'yes' : 'no',
    value: pursueRollIn,
    limit,
    margin: pursueRollIn - limit,
    unit: 'in',
    reasons: [
      useGap
        ? `the pursuit covers ${pursueRollIn}" against a ${limit.toFixed(1)} in gap`
        : `the pursuit roll ${pursueRollIn} must be greater than the flee roll ${fleeRollIn}`,
      caught ? 'caught and destroyed' : 'not caught',
    ],
    options: pick(ctx.options, 'pursuitCatch'),
  });
}
