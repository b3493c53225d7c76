import { pointToUnit } from '../unit-distance.ts';
import { findByName, findUnit, type TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { defineRuleset } from '../engine/define-ruleset.ts';
import { distanceVerdict } from '../engine/distance-verdict.ts';
import { quarterTooClose, standerOf } from '../engine/quarter-call.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { epsilonFor } from '../engine/threshold.ts';
import type { Verdict } from '../engine/verdict.ts';
import { chargeVerdict } from './charge.ts';
import { orderVerdict } from './command.ts';
import { BP, bpVerdict, inches, inStr, type BpContext, poss } from './context.ts';
import { initiativeVerdict } from './proximity.ts';
import { bpQuarterOfPoint } from './quarters.ts';
import { shootVerdict } from './shooting.ts';
import { visibleShare, hiderWords } from './sight.ts';
import { supportVerdict } from './support.ts';

function seeVerdict(ctx: BpContext, a: TableUnit, b: TableUnit): Verdict {
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
  const who = standerOf(ctx.state, whoRef);
  const q = bpQuarterOfPoint(ctx, of, who.leader);
  const d = inches(q.rayDistance);
  const close = !q.allRoundFront && quarterTooClose(q, d, epsilonFor(ctx.policy, inches(of.sigmaMm)));
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

/** Black Powder (Priestley & Johnson, 2016 printing) as a Vedette ruleset: it answers every kind of question. */
export const blackPowder: Ruleset = defineRuleset({
  kit: BP,
  name: 'Black Powder',
  handlers: {
    shoot: (a) => shootVerdict(a.ctx, a.subject(), a.object()),
    charge: (a) => chargeVerdict(a.ctx, a.subject(), a.object()),
    see: (a) => seeVerdict(a.ctx, ...a.pair()),
    distance: (a) =>
      distanceVerdict(BP, a.ctx, ...a.pair(), (m) => ({
        reasons: [`${inStr(m.mm)} edge to edge (± ${inches(m.sigmaMm).toFixed(2)} in, one sigma)`],
        facts: { sigmaIn: inches(m.sigmaMm) },
      })),
    quarter: (a) => quarterVerdict(a.ctx, a.question.subject, a.objectName()),
    support: (a) => supportVerdict(a.ctx, a.subject(), a.object()),
    command: (a) => orderVerdict(a.ctx, a.subjectCommander(), [a.object()]),
    initiative: (a) => initiativeVerdict(a.ctx, a.subject()),
  },
});

registerRuleset(blackPowder);

/** Distance from a commander's head to a unit (for UIs that want the number alone). */
export const commanderDistance = (state: TableState, commander: string, unit: string) => {
  const k = findByName(state.commanders, commander, 'commander');
  return pointToUnit(k.head, k.sigmaMm, findUnit(state, unit).bases);
};
