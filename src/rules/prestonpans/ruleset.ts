import { findByName, findUnit, type TableState } from '../../table/table-state.ts';
import { quarterOfPoint } from '../../geometry/quarters.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { QuestionError, type Question } from '../engine/question.ts';
import { DEFAULT_POLICY, epsilonFor, type ThresholdPolicy } from '../engine/threshold.ts';
import type { OptionValue, Verdict } from '../engine/verdict.ts';
import { separation, possessive } from '../engine/measure.ts';
import { chargeVerdict } from './charge.ts';
import { leadershipVerdict } from './command.ts';
import { inches, inStr, ppContext, ppVerdict, RULESET_ID, type PpContext } from './context.ts';
import { marchVerdict } from './movement.ts';
import { PP_OPTION_SPECS } from './options.ts';
import { shootVerdict } from './shooting.ts';

function distanceVerdict(ctx: PpContext, aRef: string, bRef: string): Verdict {
  const a = findUnit(ctx.state, aRef);
  const b = findUnit(ctx.state, bRef);
  const m = separation(a.bases, b.bases);
  return ppVerdict({
    question: 'distance',
    asked: `distance between ${a.name} and ${b.name}`,
    answer: 'yes',
    value: inches(m.mm),
    unit: 'in',
    epsilon: epsilonFor(ctx.policy, inches(m.sigmaMm)),
    between: [m.from, m.to],
    reasons: [
      `${inStr(m.mm)} base edge to base edge`,
      'note: a charge distance may not be measured before the charge is declared',
    ],
  });
}

function quarterVerdict(ctx: PpContext, whoRef: string, ofRef: string): Verdict {
  const of = findUnit(ctx.state, ofRef);
  const everyone = [...ctx.state.units, ...ctx.state.commanders.map((c) => ({ ...c, leader: c.head }))];
  const who = findByName(everyone, whoRef);
  const q = quarterOfPoint(of.box, who.leader, ctx.options.quarterReading);
  const d = inches(q.rayDistance);
  const close = q.quarter !== 'inside' && (q.onBoundary || d < epsilonFor(ctx.policy, inches(of.sigmaMm)));
  return ppVerdict({
    question: 'quarter',
    asked: `which quarter of ${of.name} is ${who.name} in?`,
    answer: close ? 'borderline' : 'yes',
    value: d,
    unit: 'in',
    reasons: [
      `${possessive(who.name)} front centre is in ${possessive(of.name)} ${q.quarter} quarter, ${d.toFixed(2)} in from the ${q.across}`,
    ],
    options: { quarterReading: ctx.options.quarterReading },
    facts: { quarter: q.quarter, across: q.across },
  });
}

/** "Hey Johnnie Cope" — the Prestonpans 1745 battlegame — as a Vedette ruleset. */
export const prestonpans: Ruleset = {
  id: RULESET_ID,
  name: 'Prestonpans 1745 battlegame ("Hey Johnnie Cope")',
  unit: 'in',
  optionSpecs: PP_OPTION_SPECS,
  defaultPolicy: DEFAULT_POLICY,
  answers: ['shoot', 'charge', 'distance', 'quarter', 'command', 'initiative'],
  ask(
    state: TableState,
    q: Question,
    options: Readonly<Record<string, OptionValue>> = {},
    policy: ThresholdPolicy = DEFAULT_POLICY,
  ): Verdict {
    const ctx = ppContext(state, options, policy);
    const need = (): string => {
      if (!q.object) throw new QuestionError(`"${q.text}" needs two names`);
      return q.object;
    };
    switch (q.kind) {
      case 'shoot':
        return shootVerdict(ctx, findUnit(state, q.subject), findUnit(state, need()));
      case 'charge':
        return chargeVerdict(ctx, findUnit(state, q.subject), findUnit(state, need()), q.declared ?? false);
      case 'distance':
        return distanceVerdict(ctx, q.subject, need());
      case 'quarter':
        return quarterVerdict(ctx, q.subject, need());
      case 'command': {
        const k = findByName(state.commanders, q.subject, 'commander');
        return leadershipVerdict(ctx, findUnit(state, need()), k);
      }
      case 'initiative':
        // The nearest thing to initiative here: the march move, free only with no enemy within 8".
        return marchVerdict(ctx, findUnit(state, q.subject));
      default:
        throw new QuestionError(
          `the Prestonpans battlegame has no rule for "${q.kind}" questions (it has no sight, support or terrain rules)`,
        );
    }
  },
};

registerRuleset(prestonpans);
