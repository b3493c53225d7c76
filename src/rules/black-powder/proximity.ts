import { toLocal } from '../../geometry/frame.ts';
import { corners, type OrientedRect } from '../../geometry/oriented-rect.ts';
import { quarterOfPoint } from '../../geometry/quarters.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { measuredBy } from '../engine/composite.ts';
import { nearestEnemy } from '../engine/measure.ts';
import { allOf, type Verdict } from '../engine/verdict.ts';
import { BP, bpVerdict, inStr, lengthVerdict, type BpContext } from './context.ts';
import { quarterBox } from './quarters.ts';
import { PROXIMITY } from './tables.ts';
import { hypot } from '../../geometry/hypot.ts';

/** Is an enemy unit within 12" (the proximity rule, initiative, and the "enemy close by" command penalty)? */
export function enemyWithin12Verdict(
  ctx: BpContext,
  unit: TableUnit,
  filter: (u: TableUnit) => boolean = () => true,
  what = 'enemy unit',
): Verdict {
  // Commanders never count: they are not units.
  const n = nearestEnemy(ctx.state, unit, filter);
  if (!n)
    return bpVerdict({
      question: 'enemyWithin12',
      asked: `is any ${what} within 12" of ${unit.name}?`,
      answer: 'no',
      reasons: [`there is no ${what} on the table`],
    });
  return lengthVerdict(
    ctx,
    {
      question: 'enemyWithin12',
      asked: `is any ${what} within 12" of ${unit.name}?`,
      reasons: [`the nearest ${what} is ${n.enemy.name}, ${inStr(n.mm)} away`],
      facts: { nearest: n.enemy.name },
    },
    n,
    'atMost',
    PROXIMITY,
  );
}

/** Initiative: an enemy unit within 12" at the start of the Command phase, and not disordered. */
export function initiativeVerdict(ctx: BpContext, unit: TableUnit): Verdict {
  const near = enemyWithin12Verdict(ctx, unit);
  const ordered = bpVerdict({
    question: 'ordered',
    asked: `is ${unit.name} free of disorder?`,
    answer: unit.disordered ? 'no' : 'yes',
    reasons: [
      unit.disordered
        ? `${unit.name} is disordered and cannot use initiative`
        : `${unit.name} is not disordered`,
    ],
  });
  const { answer, lean } = allOf([near, ordered]);
  return bpVerdict({
    question: 'initiative',
    asked: `does ${unit.name} have the initiative?`,
    answer,
    lean,
    ...measuredBy(near),
    reasons: [
      ...near.reasons,
      ...(unit.disordered ? ordered.reasons : []),
      answer === 'yes' ? 'it may make one move without an order' : '',
    ].filter(Boolean),
    checks: [near, ordered],
  });
}

/**
 * The proximity rule: within 12" of an enemy, all movement must stay inside the unit's own front
 * or rear quarter (of its position at the start of the move). `moved` gives the bases' final
 * footprints, in the same order as unit.bases; straight-line motion from start to end is checked.
 */
export function proximityMoveVerdict(
  ctx: BpContext,
  unit: TableUnit,
  moved: readonly OrientedRect[],
): Verdict {
  const near = enemyWithin12Verdict(ctx, unit);
  const asked = `may ${unit.name} make this move?`;
  if (near.lean === 'no' && near.answer === 'no')
    return bpVerdict({
      question: 'proximityMove',
      asked,
      answer: 'yes',
      reasons: ['no enemy within 12": free to move in any direction'],
      checks: [near],
    });
  const box = quarterBox(ctx, unit);
  const steps = 8;
  let worst: { p: Vec2; quarter: string; d: number } | undefined;
  const tracks: Array<[Vec2, Vec2]> = [];
  if (ctx.options.proximityCheck === 'leaderOnly') {
    const a = unit.bases.map((b) => b.footprint);
    const lead = unit.leader;
    // The leader moves with the base that holds it.
    const i = unit.bases.indexOf(unit.leaderBase);
    const from = a[i] as OrientedRect;
    const to = moved[i] as OrientedRect;
    tracks.push([lead, { x: lead.x + to.center.x - from.center.x, y: lead.y + to.center.y - from.center.y }]);
  } else {
    unit.bases.forEach((b, i) => {
      const to = moved[i];
      if (!to) return;
      const c0 = corners(b.footprint);
      const c1 = corners(to);
      c0.forEach((p, k) => tracks.push([p, c1[k] as Vec2]));
    });
  }
  // Each track point at fraction t of its way moves t × as far as the destination does relative
  // to the unit (whose pose, and so its quarters and the tracks' starts, carry the uncertainty):
  // a point d into a flank quarter needs the destination moved d / t to come out, one d clear
  // of it d / t to go in. The move changes answer at the worst point in, or the nearest point out.
  let inMove = 0;
  let outMove = Infinity;
  for (const [a, b] of tracks) {
    for (let s = 1; s <= steps; s++) {
      const t = s / steps;
      const p = { x: a.x + (b.x - a.x) * t, y: a.y + (b.y - a.y) * t };
      const q = quarterOfPoint(box, p, ctx.options.quarterReading, 1e-6);
      if (q.quarter === 'left' || q.quarter === 'right') {
        const l = toLocal(box.frame, p);
        const d = q.rayDistance;
        if (!worst || d > worst.d) worst = { p: l, quarter: q.quarter, d };
        if (d >= 1e-6) inMove = Math.max(inMove, d / t);
      } else if (q.quarter !== 'inside' && (q.across === 'left' || q.across === 'right'))
        outMove = Math.min(outMove, q.rayDistance / t);
    }
  }
  const ok = !worst || worst.d < 1e-6;
  const lever = Math.max(
    0,
    ...tracks.map(([, b]) => hypot(b.x - box.frame.origin.x, b.y - box.frame.origin.y)),
  );
  const sidestep = BP.judge(
    ctx,
    {
      value: (ok ? -Math.min(outMove, 1e6) : (worst?.d ?? 0)) / 25.4,
      unit: 'in',
      perMm: 1 / 25.4,
      // The quarters turn with the unit's heading: the lever is out to the farthest destination.
      sigmaMm: hypot(unit.sigmaMm, lever * ((unit.sigmaHeadingDeg * Math.PI) / 180)),
      moveMm: ok ? outMove : inMove,
    },
    'atMost',
    0,
  );
  const lean = ok || near.lean === 'no' ? 'yes' : 'no';
  const answer = sidestep.answer === 'yes' ? 'yes' : near.answer === 'yes' ? sidestep.answer : 'borderline';
  return bpVerdict({
    question: 'proximityMove',
    asked,
    answer,
    lean,
    ...(Number.isFinite(sidestep.moveMm) ? { moveMm: sidestep.moveMm, bandMm: sidestep.bandMm } : {}),
    reasons: [
      ...near.reasons,
      ok
        ? 'the move stays inside its front and rear quarters'
        : `within 12" of the enemy the unit may not sidestep: part of the move enters its ${worst?.quarter} flank quarter (${inStr(worst?.d ?? 0)} into it)`,
      ...(sidestep.answer === 'borderline'
        ? [`whether the move enters a flank quarter is too close to call`]
        : []),
    ],
    options: { proximityCheck: ctx.options.proximityCheck, quarterReading: ctx.options.quarterReading },
    checks: [near],
  });
}

/** A square may not move at all while enemy cavalry is within 12". */
export const squareMayMoveVerdict = (ctx: BpContext, square: TableUnit): Verdict => {
  const v = enemyWithin12Verdict(ctx, square, (u) => u.type === 'cavalry', 'enemy cavalry');
  return bpVerdict({
    question: 'squareMayMove',
    asked: `may the square ${square.name} move?`,
    answer: v.answer === 'yes' ? 'no' : v.answer === 'no' ? 'yes' : 'borderline',
    lean: v.lean === 'yes' ? 'no' : 'yes',
    reasons: [
      ...v.reasons,
      v.lean === 'yes'
        ? 'a square cannot move with enemy cavalry within 12"'
        : 'it may move once, at most 6", toward its own lines',
    ],
    checks: [v],
  });
};
