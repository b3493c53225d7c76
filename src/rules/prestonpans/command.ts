import type { Commander } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { pick } from '../engine/options.ts';
import { pointName } from '../engine/parts.ts';
import type { Answer, Verdict } from '../engine/verdict.ts';
import { pointToUnit } from '../unit-distance.ts';
import { inStr, lengthVerdict, ppVerdict, type PpContext } from './context.ts';
import { possessive } from '../engine/measure.ts';
import { ATTACHED_BONUS, GENERAL_BONUS, GENERAL_RADIUS } from './tables.ts';

/** The commanders who count as "the General" for a side (option generalIs). */
export function generalsOf(ctx: PpContext, side: string): Commander[] {
  const own = ctx.state.commanders.filter((k) => k.side === side);
  return ctx.options.generalIs === 'anyCommander' ? own : own.filter((k) => k.general);
}

/** The nearest of some commanders to a unit (head to the nearest part of it), as a measured length. */
function nearest(unit: TableUnit, ks: readonly Commander[]) {
  let best: { k: Commander; s: ReturnType<typeof pointToUnit> } | undefined;
  for (const k of ks) {
    const s = pointToUnit(k.head, k.sigmaMm, unit.bases);
    if (!best || s.distance < best.s.distance) best = { k, s };
  }
  return best
    ? {
        k: best.k,
        m: {
          mm: best.s.distance,
          sigmaMm: best.s.sigmaMm,
          from: best.s.onA,
          to: best.s.onB,
          fromName: `${possessive(best.k.name)} base centre`,
          toName: pointName(unit, best.s.onB),
        },
      }
    : undefined;
}

const or = (a: Verdict, b: Verdict | undefined): Answer => {
  if (a.answer === 'yes' || b?.answer === 'yes') return 'yes';
  if (a.answer === 'borderline' || b?.answer === 'borderline') return 'borderline';
  return 'no';
};

/**
 * Leadership bonus of a unit: +2 if the General is within 6" (his base centre to the nearest part
 * of the unit), +1 if a commander is with the unit (his base centre within attachWithinIn of it).
 * Both are distances against limits, so either may be too close to call.
 */
export function leadershipVerdict(ctx: PpContext, unit: TableUnit, general?: Commander): Verdict {
  const g = nearest(unit, general ? [general] : generalsOf(ctx, unit.side));
  const own = nearest(
    unit,
    ctx.state.commanders.filter((k) => k.side === unit.side),
  );
  const checks: Verdict[] = [];
  const generalCheck = g
    ? lengthVerdict(
        ctx,
        {
          question: 'generalWithin6',
          asked: `is ${g.k.name} within ${GENERAL_RADIUS}" of ${unit.name}?`,
          reasons: [
            `${inStr(g.m.mm)} from ${g.m.fromName} to ${g.m.toName}; the General must be within ${GENERAL_RADIUS}" for +${GENERAL_BONUS}`,
          ],
          options: pick(ctx.options, 'generalIs'),
        },
        g.m,
        'atMost',
        GENERAL_RADIUS,
      )
    : ppVerdict({
        question: 'generalWithin6',
        asked: `is the General within ${GENERAL_RADIUS}" of ${unit.name}?`,
        answer: 'no',
        reasons: [`no General of ${unit.side} is on the table`],
      });
  checks.push(generalCheck);
  const attachedCheck = own
    ? lengthVerdict(
        ctx,
        {
          question: 'commanderWithUnit',
          asked: `is a commander with ${unit.name}?`,
          reasons: [
            `${own.k.name} is ${inStr(own.m.mm)} from ${unit.name}; within ${ctx.options.attachWithinIn}" he is with the unit (+${ATTACHED_BONUS})`,
          ],
          options: pick(ctx.options, 'attachWithinIn'),
        },
        own.m,
        'atMost',
        ctx.options.attachWithinIn,
      )
    : undefined;
  if (attachedCheck) checks.push(attachedCheck);
  const plusGeneral = generalCheck.lean === 'yes' ? GENERAL_BONUS : 0;
  const plusAttached = attachedCheck?.lean === 'yes' ? ATTACHED_BONUS : 0;
  const answer = or(generalCheck, attachedCheck);
  return ppVerdict({
    question: 'leadership',
    asked: `does ${g ? g.k.name : 'the General'} give ${unit.name} a leadership bonus?`,
    answer,
    lean: plusGeneral + plusAttached > 0 ? 'yes' : 'no',
    ...(g
      ? {
          value: generalCheck.value,
          limit: generalCheck.limit,
          margin: generalCheck.margin,
          epsilon: generalCheck.epsilon,
          moveMm: generalCheck.moveMm,
          bandMm: generalCheck.bandMm,
          unit: 'in',
          between: [g.m.from, g.m.to] as const,
          measured: { from: g.m.fromName, to: g.m.toName },
        }
      : {}),
    reasons: [
      ...generalCheck.reasons,
      plusAttached ? `${own?.k.name} is with the unit: +${ATTACHED_BONUS}` : 'no commander is with the unit',
    ],
    options: pick(ctx.options, 'generalIs', 'attachWithinIn'),
    facts: { generalBonus: plusGeneral, attachedBonus: plusAttached, bonus: plusGeneral + plusAttached },
    checks,
  });
}
