import { localCorners, type FacedBox } from '../../geometry/faced-box.ts';
import { frameFromFront, toTable } from '../../geometry/frame.ts';
import { quarterOfPoint, type QuarterName } from '../../geometry/quarters.ts';
import { sweepContact, type SweepContact } from '../../geometry/sweep.ts';
import { degToRad } from '../../geometry/angle.ts';
import { add, normalize, rotate, scale, sub, type Vec2 } from '../../geometry/vec.ts';
import { friendsOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy, failingReasons } from '../engine/composite.ts';
import { unitCentroid, possessive } from '../engine/measure.ts';
import { pick } from '../engine/options.ts';
import { quarterTooClose } from '../engine/quarter-call.ts';
import { epsilonFor } from '../engine/threshold.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { unitSeparation } from '../unit-distance.ts';
import { d3Verdict, inches, inStr, lengthVerdict, mmOf, moveOf, troopOf, type D3Context } from './context.ts';
import { CHARGE_TURN_DEG, FLANK_REAR_BONUS_HITS } from './tables.ts';

/** The unit's box turned by `deg` (counter-clockwise positive) about a pivot. */
export function turnedBox(box: FacedBox, deg: number, pivot: Vec2): FacedBox {
  const a = degToRad(deg);
  const origin = add(pivot, rotate(sub(box.frame.origin, pivot), a));
  return { frame: frameFromFront(origin, rotate(box.frame.front, a)), width: box.width, depth: box.depth };
}

/** The pivot for a turn of `deg`: the front corner on the side turned toward, or the box centre. */
export function pivotFor(ctx: D3Context, box: FacedBox, deg: number): Vec2 {
  if (ctx.options.chargePivot === 'centre') return toTable(box.frame, { x: 0, y: -box.depth / 2 });
  const c = localCorners(box);
  return toTable(box.frame, deg >= 0 ? c.frontLeft : c.frontRight);
}

export interface ChargeLine {
  readonly turnDeg: number;
  readonly contact: SweepContact;
}

/**
 * The shortest straight charge after one turn of at most 45°: for each turn, how far the turned
 * unit must go straight ahead to touch the target; the turn needing least movement wins.
 */
export function bestChargeLine(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
): ChargeLine | undefined {
  let best: ChargeLine | undefined;
  const tryTurn = (deg: number) => {
    const box = turnedBox(charger.box, deg, pivotFor(ctx, charger.box, deg));
    const c = sweepContact(box, target.bodyPolygons);
    if (
      c &&
      (!best ||
        c.distance < best.contact.distance - 1e-9 ||
        (Math.abs(c.distance - best.contact.distance) <= 1e-9 && Math.abs(deg) < Math.abs(best.turnDeg)))
    )
      best = { turnDeg: deg, contact: c };
  };
  for (let d = -CHARGE_TURN_DEG; d <= CHARGE_TURN_DEG + 1e-9; d += 0.5) tryTurn(Math.round(d * 2) / 2);
  if (best) {
    // Refine around the best sample.
    let lo = Math.max(-CHARGE_TURN_DEG, best.turnDeg - 0.5);
    let hi = Math.min(CHARGE_TURN_DEG, best.turnDeg + 0.5);
    for (let i = 0; i < 30; i++) {
      const m1 = lo + (hi - lo) / 3;
      const m2 = hi - (hi - lo) / 3;
      const box1 = turnedBox(charger.box, m1, pivotFor(ctx, charger.box, m1));
      const box2 = turnedBox(charger.box, m2, pivotFor(ctx, charger.box, m2));
      const c1 = sweepContact(box1, target.bodyPolygons)?.distance ?? Infinity;
      const c2 = sweepContact(box2, target.bodyPolygons)?.distance ?? Infinity;
      if (c1 <= c2) hi = m2;
      else lo = m1;
    }
    tryTurn((lo + hi) / 2);
  }
  return best;
}

/**
 * "Can C charge T?": only cavalry and Highlanders charge; one turn of up to 45° at the start, then
 * straight ahead into contact within one move; only one attacker per defender.
 */
export function chargeVerdict(ctx: D3Context, charger: TableUnit, target: TableUnit): Verdict {
  const troop = troopOf(charger);
  const problems: string[] = [];
  if (troop !== 'cavalry' && troop !== 'highlander') problems.push('only cavalry and Highlanders may charge');
  if (charger.side === target.side) problems.push(`${target.name} is a friend`);
  const touching = friendsOf(ctx.state, charger).filter(
    (f) => unitSeparation(f.bases, target.bases).distance <= 1,
  );
  if (touching.length)
    problems.push(`${touching[0]?.name} is already engaging ${target.name}: one attacker per defender`);
  const may = d3Verdict({
    question: 'mayCharge',
    asked: `may ${charger.name} charge ${target.name}?`,
    answer: problems.length ? 'no' : 'yes',
    reasons: problems.length ? problems : [`${charger.name} may charge`],
  });
  const move = moveOf(charger);
  const line = bestChargeLine(ctx, charger, target);
  const checks: Verdict[] = [may];
  if (!line)
    checks.push(
      d3Verdict({
        question: 'reach',
        asked: `can ${charger.name} reach ${target.name} straight ahead after one turn of up to ${CHARGE_TURN_DEG}°?`,
        answer: 'no',
        reasons: [`no turn of up to ${CHARGE_TURN_DEG}° lines ${charger.name} up on ${target.name}`],
        options: pick(ctx.options, 'chargePivot'),
      }),
    );
  else
    checks.push(
      lengthVerdict(
        ctx,
        {
          question: 'reach',
          asked: `can ${charger.name} reach ${target.name} straight ahead after one turn of up to ${CHARGE_TURN_DEG}°?`,
          reasons: [
            `turning ${Math.abs(line.turnDeg).toFixed(1)}° ${line.turnDeg >= 0 ? 'left' : 'right'}, then ${inStr(line.contact.distance)} straight ahead to contact; one move is ${move}"`,
          ],
          options: pick(ctx.options, 'chargePivot'),
          facts: { turnDeg: line.turnDeg },
        },
        {
          mm: line.contact.distance,
          sigmaMm: Math.hypot(charger.sigmaMm, target.sigmaMm),
          from: line.contact.from,
          to: line.contact.at,
        },
        'atMost',
        move,
      ),
    );
  const { answer, lean } = allOf(checks);
  const reach = checks[1] as Verdict;
  return d3Verdict({
    question: 'charge',
    asked: `can ${charger.name} charge ${target.name}?`,
    answer,
    lean,
    ...measuredBy(reach),
    reasons: answer === 'yes' ? reach.reasons : failingReasons(checks, 'notYes'),
    options: pick(ctx.options, 'chargePivot'),
    facts: {
      ...(line ? { turnDeg: line.turnDeg, straightIn: inches(line.contact.distance) } : {}),
      face: attackFace(ctx, charger, target),
    },
    checks,
  });
}

/** Face of the defender the attacker strikes (its front centre's quarter); flank or rear earns +2 hits. */
export function attackFace(ctx: D3Context, attacker: TableUnit, defender: TableUnit): QuarterName {
  const q = quarterOfPoint(defender.box, attacker.leader, ctx.options.quarterReading);
  return q.quarter === 'inside' ? 'front' : q.quarter;
}

export function attackFaceVerdict(ctx: D3Context, attacker: TableUnit, defender: TableUnit): Verdict {
  const q = quarterOfPoint(defender.box, attacker.leader, ctx.options.quarterReading);
  const face = q.quarter === 'inside' ? 'front' : q.quarter;
  const d = inches(q.rayDistance);
  const close = quarterTooClose(
    q,
    d,
    epsilonFor(ctx.policy, inches(Math.hypot(attacker.sigmaMm, defender.sigmaMm))),
  );
  return d3Verdict({
    question: 'attackFace',
    asked: `which face of ${defender.name} does ${attacker.name} attack?`,
    answer: close ? 'borderline' : 'yes',
    value: d,
    unit: 'in',
    reasons: [
      `${attacker.name} is in ${possessive(defender.name)} ${face} quarter${face !== 'front' ? `: +${FLANK_REAR_BONUS_HITS} hits` : ''}`,
    ],
    options: pick(ctx.options, 'quarterReading'),
    facts: { face, bonusHits: face === 'front' ? 0 : FLANK_REAR_BONUS_HITS },
  });
}

/**
 * After a melee that did not rout the enemy, the attacker retreats half its move (straight back,
 * or directly away from the target, by option) and ends facing the target.
 */
export function meleeRetreat(
  ctx: D3Context,
  attacker: TableUnit,
  target: TableUnit,
): { distanceIn: number; move: Vec2; facing: Vec2 } {
  const troop = troopOf(attacker);
  const column = attacker.formationInUse === 'attackColumn' || attacker.formationInUse === 'marchColumn';
  const full =
    troop === 'infantry' && column && ctx.options.columnRetreat === 'lineMove' ? 6 : moveOf(attacker);
  const distanceIn = full / 2;
  const away =
    ctx.options.retreatDirection === 'awayFromTarget'
      ? normalize(sub(unitCentroid(attacker), unitCentroid(target)))
      : scale(attacker.facing, -1);
  const move = scale(away, mmOf(distanceIn));
  const facing = normalize(sub(unitCentroid(target), add(unitCentroid(attacker), move)));
  return { distanceIn, move, facing };
}

/** After routing the enemy, the attacker must advance a full move straight ahead. */
export const meleeAdvance = (attacker: TableUnit): { distanceIn: number; move: Vec2 } => ({
  distanceIn: moveOf(attacker),
  move: scale(attacker.facing, mmOf(moveOf(attacker))),
});
