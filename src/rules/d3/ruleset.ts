import { findByName, findUnit, type TableState } from '../../table/table-state.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { QuestionError, type Question } from '../engine/question.ts';
import { DEFAULT_POLICY, epsilonFor, type ThresholdPolicy } from '../engine/threshold.ts';
import type { OptionValue, Verdict } from '../engine/verdict.ts';
import { separation } from '../engine/measure.ts';
import { attackFaceVerdict, chargeVerdict } from './charge.ts';
import { joinVerdict } from './command.ts';
import {
  d3Context,
  d3Verdict,
  frontCentreOf,
  inches,
  inStr,
  RULESET_ID,
  visibility,
  type D3Context,
} from './context.ts';
import { shootVerdict } from './fire.ts';
import { D3_OPTION_SPECS } from './options.ts';

function distanceVerdict(ctx: D3Context, aRef: string, bRef: string): Verdict {
  const a = findUnit(ctx.state, aRef);
  const b = findUnit(ctx.state, bRef);
  const m = separation(a.bases, b.bases);
  return d3Verdict({
    question: 'distance',
    asked: `distance between ${a.name} and ${b.name}`,
    answer: 'yes',
    value: inches(m.mm),
    unit: 'in',
    epsilon: epsilonFor(ctx.policy, inches(m.sigmaMm)),
    between: [m.from, m.to],
    reasons: [`${inStr(m.mm)} edge to edge (musket range is measured from the front centre instead)`],
  });
}

function seeVerdict(ctx: D3Context, aRef: string, bRef: string): Verdict {
  const a = findUnit(ctx.state, aRef);
  const b = findUnit(ctx.state, bRef);
  const v = visibility(ctx, frontCentreOf(a), a, b);
  return d3Verdict({
    question: 'see',
    asked: `does ${a.name} see ${b.name}?`,
    answer: v.fraction > 0 ? 'yes' : 'no',
    value: v.fraction,
    reasons: [
      `${(v.fraction * 100).toFixed(0)}% of ${b.name} is in sight${v.hiddenBy.length ? ` (hidden by ${v.hiddenBy.map((h) => h.hider.label).join(', ')})` : ''}`,
    ],
    options: { sightBlockers: ctx.options.sightBlockers },
  });
}

/** D3 Jacobite Rebellion rules (after One-Hour Wargames) as a Vedette ruleset. */
export const d3: Ruleset = {
  id: RULESET_ID,
  name: 'D3 Jacobite Rebellion',
  unit: 'in',
  optionSpecs: D3_OPTION_SPECS,
  defaultPolicy: DEFAULT_POLICY,
  answers: ['shoot', 'charge', 'see', 'distance', 'quarter', 'command'],
  ask(
    state: TableState,
    q: Question,
    options: Readonly<Record<string, OptionValue>> = {},
    policy: ThresholdPolicy = DEFAULT_POLICY,
  ): Verdict {
    const ctx = d3Context(state, options, policy);
    const need = (): string => {
      if (!q.object) throw new QuestionError(`"${q.text}" needs two names`);
      return q.object;
    };
    switch (q.kind) {
      case 'shoot':
        return shootVerdict(ctx, findUnit(state, q.subject), findUnit(state, need()));
      case 'charge':
        return chargeVerdict(ctx, findUnit(state, q.subject), findUnit(state, need()));
      case 'see':
        return seeVerdict(ctx, q.subject, need());
      case 'distance':
        return distanceVerdict(ctx, q.subject, need());
      case 'quarter':
        return attackFaceVerdict(ctx, findUnit(state, q.subject), findUnit(state, need()));
      case 'command':
        return joinVerdict(
          ctx,
          findByName(state.commanders, q.subject, 'commander'),
          findUnit(state, need()),
        );
      default:
        throw new QuestionError(`D3 has no rule for "${q.kind}" questions`);
    }
  },
};

registerRuleset(d3);
