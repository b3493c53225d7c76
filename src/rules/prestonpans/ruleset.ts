import { findUnit } from '../../table/table-state.ts';
import { quarterOfPoint } from '../../geometry/quarters.ts';
import { defineRuleset } from '../engine/define-ruleset.ts';
import { distanceVerdict } from '../engine/distance-verdict.ts';
import { possessive } from '../engine/measure.ts';
import { quarterQuantity, standerOf } from '../engine/quarter-call.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { Verdict } from '../engine/verdict.ts';
import { chargeVerdict } from './charge.ts';
import { leadershipVerdict } from './command.ts';
import { inStr, PP, ppVerdict, type PpContext } from './context.ts';
import { marchVerdict } from './movement.ts';
import { shootVerdict } from './shooting.ts';

function quarterVerdict(ctx: PpContext, whoRef: string, ofRef: string): Verdict {
  const of = findUnit(ctx.state, ofRef);
  const who = standerOf(ctx.state, whoRef);
  const q = quarterOfPoint(of.box, who.leader, ctx.options.quarterReading);
  const quantity = quarterQuantity(q, 25.4, 'in', who.sigmaMm, of, who.leader);
  const j = PP.judge(ctx, quantity, 'moreThan', 0);
  const close = q.quarter !== 'inside' && (j.answer === 'borderline' || q.onBoundary);
  return ppVerdict({
    question: 'quarter',
    asked: `which quarter of ${of.name} is ${who.name} in?`,
    answer: close ? 'borderline' : 'yes',
    value: quantity.value,
    unit: 'in',
    moveMm: j.moveMm,
    bandMm: j.bandMm,
    epsilon: j.epsilon,
    reasons: [
      `${possessive(who.name)} front centre is in ${possessive(of.name)} ${q.quarter} quarter, ${inStr(q.rayDistance)} from the ${q.across}${close ? ' (too close to call)' : ''}`,
    ],
    options: { quarterReading: ctx.options.quarterReading },
    facts: { quarter: q.quarter, across: q.across },
  });
}

/** "Hey Johnnie Cope" — the Prestonpans 1745 battlegame — as a Vedette ruleset. */
export const prestonpans: Ruleset = defineRuleset({
  kit: PP,
  name: 'Prestonpans 1745 battlegame ("Hey Johnnie Cope")',
  handlers: {
    shoot: (a) => shootVerdict(a.ctx, a.subject(), a.object()),
    // Measuring before the charge is declared is forbidden here, so the declaration matters.
    charge: (a) => chargeVerdict(a.ctx, a.subject(), a.object(), a.question.declared ?? false),
    distance: (a) =>
      distanceVerdict(PP, a.ctx, a.question, ...a.pair(), (m) => ({
        reasons: [
          `${inStr(m.mm)} base edge to base edge`,
          'note: a charge distance may not be measured before the charge is declared',
        ],
      })),
    quarter: (a) => quarterVerdict(a.ctx, a.question.subject, a.objectName()),
    command: (a) => {
      const k = a.subjectCommander();
      return leadershipVerdict(a.ctx, a.object(), k);
    },
    // The nearest thing to initiative here: the march move, free only with no enemy within 8".
    initiative: (a) => marchVerdict(a.ctx, a.subject()),
  },
  noRule: (kind) =>
    `the Prestonpans battlegame has no rule for "${kind}" questions (it has no sight, support or terrain rules)`,
});

registerRuleset(prestonpans);
