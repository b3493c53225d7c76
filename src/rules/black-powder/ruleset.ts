import { pointToUnit, unitSeparation } from '../unit-distance.ts';
import { findByName, findUnit, type TableState } from '../../table/table-state.ts';
import { DEFAULT_POLICY, type ThresholdPolicy } from '../engine/threshold.ts';
import type { Question } from '../engine/question.ts';
import { QuestionError } from '../engine/question.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { OptionValue, Verdict } from '../engine/verdict.ts';
import { chargeVerdict } from './charge.ts';
import { orderVerdict } from './command.ts';
import { bpContext, bpVerdict, inches, inStr, RULESET_ID, type BpContext, poss } from './context.ts';
import { BP_OPTION_SPECS } from './options.ts';
import { initiativeVerdict } from './proximity.ts';
import { bpQuarterOfPoint } from './quarters.ts';
import { shootVerdict } from './shooting.ts';
import { visibleShare, hiderWords } from './sight.ts';
import { supportVerdict } from './support.ts';

function distanceVerdict(ctx: BpContext, aRef: string, bRef: string): Verdict {
  const a = findUnit(ctx.state, aRef);
  const b = findUnit(ctx.state, bRef);
  const s = unitSeparation(a.bases, b.bases);
  return bpVerdict({
    question: 'distance',
    asked: `distance between ${a.name} and ${b.name}`,
    answer: 'yes',
    value: inches(s.distance),
    unit: 'in',
    epsilon: Math.max(ctx.policy.floor, ctx.policy.sigmas * inches(s.sigmaMm)),
    between: [s.onA, s.onB],
    reasons: [`${inStr(s.distance)} edge to edge (± ${inches(s.sigmaMm).toFixed(2)} in, one sigma)`],
    facts: { sigmaIn: inches(s.sigmaMm) },
  });
}

function seeVerdict(ctx: BpContext, aRef: string, bRef: string): Verdict {
  const a = findUnit(ctx.state, aRef);
  const b = findUnit(ctx.state, bRef);
  const eye = a.barrel?.tip ?? a.leader;
  const v = visibleShare(ctx, eye, a, b);
  return bpVerdict({
    question: 'see',
    asked: `does ${a.name} see ${b.name}?`,
    answer: v.fraction > 0 ? 'yes' : 'no',
    value: v.fraction,
    reasons: [
      `${(v.fraction * 100).toFixed(0)}% of ${b.name} is visible from ${poss(a.name)} ${a.barrel ? 'gun' : 'leader'}`,
      ...v.hiddenBy.map((h) => `${(h.share * 100).toFixed(0)}% ${hiderWords(h.hider)}`),
    ],
    options: { woodsSightDepthIn: ctx.options.woodsSightDepthIn },
    facts: { visibleShare: v.fraction },
    ...(v.nearestVisible ? { between: [eye, v.nearestVisible] as const } : {}),
  });
}

/** Which quarter of `of` is `who` in: a unit's leader, or a commander's head. */
function quarterVerdict(ctx: BpContext, whoRef: string, ofRef: string): Verdict {
  const of = findUnit(ctx.state, ofRef);
  const everyone = [...ctx.state.units, ...ctx.state.commanders.map((c) => ({ ...c, leader: c.head }))];
  const who = findByName(everyone, whoRef);
  const q = bpQuarterOfPoint(ctx, of, who.leader);
  const eps = Math.max(ctx.policy.floor, ctx.policy.sigmas * inches(of.sigmaMm));
  const d = inches(q.rayDistance);
  const close = !q.allRoundFront && q.quarter !== 'inside' && (q.onBoundary || d < eps);
  return bpVerdict({
    question: 'quarter',
    asked: `which quarter of ${of.name} is ${who.name} in?`,
    answer: close ? 'borderline' : 'yes',
    value: Number.isFinite(d) ? d : 0,
    unit: 'in',
    reasons: [
      q.allRoundFront
        ? `${of.name} has no flanks or rear: ${who.name} is to its front`
        : q.quarter === 'inside'
          ? `${poss(who.name)} leader is inside ${poss(of.name)} footprint`
          : `${poss(who.name)} leader is in ${poss(of.name)} ${q.quarter} quarter, ${d.toFixed(2)} in from the ${q.across} quarter${close ? ' (too close to call: roll a D6)' : ''}`,
    ],
    options: { quarterReading: ctx.options.quarterReading },
    facts: { quarter: q.quarter, across: q.across },
  });
}

/** Black Powder (Priestley & Johnson, 2016 printing) as a Vedette ruleset. */
export const blackPowder: Ruleset = {
  id: RULESET_ID,
  name: 'Black Powder',
  unit: 'in',
  optionSpecs: BP_OPTION_SPECS,
  defaultPolicy: DEFAULT_POLICY,
  answers: ['shoot', 'charge', 'see', 'distance', 'quarter', 'support', 'command', 'initiative'],
  ask(state: TableState, q: Question, options: Readonly<Record<string, OptionValue>> = {}, policy: ThresholdPolicy = DEFAULT_POLICY): Verdict {
    const ctx = bpContext(state, options, policy);
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
        return quarterVerdict(ctx, q.subject, need());
      case 'support':
        return supportVerdict(ctx, findUnit(state, q.subject), findUnit(state, need()));
      case 'command': {
        const k = findByName(state.commanders, q.subject, 'commander');
        return orderVerdict(ctx, k, [findUnit(state, need())]);
      }
      case 'initiative':
        return initiativeVerdict(ctx, findUnit(state, q.subject));
    }
  },
};

registerRuleset(blackPowder);

/** Distance from a commander's head to a unit (for UIs that want the number alone). */
export const commanderDistance = (state: TableState, commander: string, unit: string) => {
  const k = findByName(state.commanders, commander, 'commander');
  return pointToUnit(k.head, k.sigmaMm, findUnit(state, unit).bases);
};
