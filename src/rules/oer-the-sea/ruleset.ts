import { findUnit, type TableState } from '../../table/table-state.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { QuestionError, type Question } from '../engine/question.ts';
import { epsilonFor, type ThresholdPolicy } from '../engine/threshold.ts';
import type { OptionValue, Verdict } from '../engine/verdict.ts';
import { separation } from '../engine/measure.ts';
import { chargeVerdict } from './charge.ts';
import {
  cm,
  cmStr,
  OTS_POLICY,
  otsContext,
  otsVerdict,
  RULESET_ID,
  seenShare,
  type OtsContext,
} from './context.ts';
import { shootVerdict } from './fire.ts';
import { initiativeVerdict } from './initiative.ts';
import { OTS_OPTION_SPECS } from './options.ts';

function distanceVerdict(ctx: OtsContext, aRef: string, bRef: string): Verdict {
  const a = findUnit(ctx.state, aRef);
  const b = findUnit(ctx.state, bRef);
  const m = separation(a.bases, b.bases);
  return otsVerdict({
    question: 'distance',
    asked: `distance between ${a.name} and ${b.name}`,
    answer: 'yes',
    value: cm(m.mm),
    unit: 'cm',
    epsilon: epsilonFor(ctx.policy, cm(m.sigmaMm)),
    between: [m.from, m.to],
    reasons: [`${cmStr(m.mm)} stand edge to stand edge`],
  });
}

function seeVerdict(ctx: OtsContext, aRef: string, bRef: string): Verdict {
  const a = findUnit(ctx.state, aRef);
  const b = findUnit(ctx.state, bRef);
  const s = seenShare(ctx, a, b);
  return otsVerdict({
    question: 'see',
    asked: `does ${a.name} see ${b.name}?`,
    answer: s.share > 0 ? 'yes' : 'no',
    value: s.share,
    reasons: [
      `${(s.share * 100).toFixed(0)}% of ${b.name} in sight${s.hiddenBy.length ? ` (partly hidden by ${s.hiddenBy.join(', ')})` : ''}`,
    ],
    options: { sightBlockers: ctx.options.sightBlockers },
  });
}

/** O'er the Sea v3.20 (metric) as a Vedette ruleset. */
export const oerTheSea: Ruleset = {
  id: RULESET_ID,
  name: "O'er the Sea v3.20",
  unit: 'cm',
  optionSpecs: OTS_OPTION_SPECS,
  defaultPolicy: OTS_POLICY,
  answers: ['shoot', 'charge', 'see', 'distance', 'initiative'],
  ask(
    state: TableState,
    q: Question,
    options: Readonly<Record<string, OptionValue>> = {},
    policy: ThresholdPolicy = OTS_POLICY,
  ): Verdict {
    const ctx = otsContext(state, options, policy);
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
      case 'initiative':
        return initiativeVerdict(ctx, findUnit(state, q.subject));
      default:
        throw new QuestionError(`O'er the Sea has no rule for "${q.kind}" questions here`);
    }
  },
};

registerRuleset(oerTheSea);
