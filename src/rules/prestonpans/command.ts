import type { Commander } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { pick } from '../engine/options.ts';
import { compare } from '../engine/threshold.ts';
import type { Verdict } from '../engine/verdict.ts';
import { pointToUnit } from '../unit-distance.ts';
import { attachedCommanders, inches, inStr, ppVerdict, type PpContext } from './context.ts';
import { ATTACHED_BONUS, GENERAL_BONUS, GENERAL_RADIUS } from './tables.ts';

/** The commanders who count as "the General" for a side (option generalIs). */
export function generalsOf(ctx: PpContext, side: string): Commander[] {
  const own = ctx.state.commanders.filter((k) => k.side === side);
  return ctx.options.generalIs === 'anyCommander' ? own : own.filter((k) => k.general);
}

/**
 * Leadership bonus of a unit: +2 if the General is within 6" (his base centre to the nearest part
 * of the unit), +1 if a commander is with the unit.
 */
export function leadershipVerdict(ctx: PpContext, unit: TableUnit, general?: Commander): Verdict {
  const candidates = general ? [general] : generalsOf(ctx, unit.side);
  let best:
    | {
        k: Commander;
        mm: number;
        sigma: number;
        from: { x: number; y: number };
        to: { x: number; y: number };
      }
    | undefined;
  for (const k of candidates) {
    const s = pointToUnit(k.head, k.sigmaMm, unit.bases);
    if (!best || s.distance < best.mm) best = { k, mm: s.distance, sigma: s.sigmaMm, from: s.onA, to: s.onB };
  }
  const attached = attachedCommanders(ctx, unit);
  const plusAttached = attached.length > 0 ? ATTACHED_BONUS : 0;
  const reasons: string[] = [];
  let answer: Verdict['answer'] = 'no';
  let lean: 'yes' | 'no' = 'no';
  let plusGeneral = 0;
  let num = {};
  if (best) {
    const c = compare(inches(best.mm), 'atMost', GENERAL_RADIUS, inches(best.sigma), ctx.policy);
    answer = c.answer;
    lean = c.lean;
    plusGeneral = c.lean === 'yes' ? GENERAL_BONUS : 0;
    num = {
      value: inches(best.mm),
      limit: GENERAL_RADIUS,
      margin: c.margin,
      epsilon: c.epsilon,
      unit: 'in',
      between: [best.from, best.to] as const,
    };
    reasons.push(
      `${best.k.name} is ${inStr(best.mm)} from ${unit.name}: ${c.lean === 'yes' ? `+${GENERAL_BONUS}` : 'no bonus'} (the General must be within ${GENERAL_RADIUS}")`,
    );
  } else reasons.push(`no General of ${unit.side} is on the table`);
  reasons.push(
    attached.length
      ? `${attached.map((k) => k.name).join(', ')} is with the unit: +${ATTACHED_BONUS}`
      : 'no commander is with the unit',
  );
  return ppVerdict({
    question: 'leadership',
    asked: `does ${best ? best.k.name : 'the General'} give ${unit.name} a leadership bonus?`,
    answer: plusAttached > 0 && answer === 'no' ? 'yes' : answer,
    lean: plusAttached > 0 ? 'yes' : lean,
    ...num,
    reasons,
    options: pick(ctx.options, 'generalIs', 'attachWithinIn'),
    facts: { generalBonus: plusGeneral, attachedBonus: plusAttached, bonus: plusGeneral + plusAttached },
  });
}
