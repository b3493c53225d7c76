import { findByName, findUnit, type TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { defineRuleset } from '../engine/define-ruleset.ts';
import { distanceVerdict } from '../engine/distance-verdict.ts';
import { quarterQuantity, standerOf } from '../engine/quarter-call.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import { flatString } from '../engine/flat-string.ts';
import { copyOf, type Verdict } from '../engine/verdict.ts';
import { pointToUnit } from '../unit-distance.ts';
import { chargeVerdict } from './charge.ts';
import { orderVerdict } from './command.ts';
import { BP, bpVerdict, inches, inStr, type BpContext, poss } from './context.ts';
import { initiativeVerdict } from './proximity.ts';
import { bpQuarterOfPoint } from './quarters.ts';
import { visibleCheck } from './shot-checks.ts';
import { eyeSigma, shootVerdict } from './shooting.ts';
import { seen } from './sight.ts';
import { leftTableVerdict } from './specials.ts';
import { supportVerdict } from './support.ts';

/** "Does A see B?": the share of B seen from A's leader (a gun's barrel), exact. */
function seeVerdict(ctx: BpContext, a: TableUnit, b: TableUnit): Verdict {
  const eye = a.barrel?.tip ?? a.leader;
  // The sight shoot or charge worked out for this pair, or one not kept: nothing asks it after see.
  const view = seen(ctx, eye, eyeSigma(a), b, { exclude: new Set([a.id, b.id]), keep: false });
  const any = visibleCheck(ctx, view, `${poss(a.name)} ${a.barrel ? 'gun' : 'leader'}`, b);
  // { ...any, question, asked, between? }, copied without the spread (copyOf).
  const v = copyOf(any);
  v.question = 'see';
  v.asked = flatString(`does ${a.name} see ${b.name}?`);
  if (view.region.nearest) v.between = [eye, view.region.nearest] as const;
  return v as unknown as Verdict;
}

/** Which quarter of `of` is `who` in: a unit's leader, or a commander's head. */
function quarterVerdict(ctx: BpContext, whoRef: string, ofRef: string): Verdict {
  const of = findUnit(ctx.state, ofRef);
  const who = standerOf(ctx.state, whoRef);
  const q = bpQuarterOfPoint(ctx, of, who.leader);
  const asked = `which quarter of ${of.name} is ${who.name} in?`;
  const options = { quarterReading: ctx.options.quarterReading };
  const facts = { quarter: q.quarter, across: q.across };
  if (q.allRoundFront || q.quarter === 'inside')
    return bpVerdict({
      question: 'quarter',
      asked,
      answer: 'yes',
      reasons: [
        q.allRoundFront
          ? `${of.name} has no flanks or rear: ${who.name} is to its front`
          : `${poss(who.name)} leader is inside ${poss(of.name)} footprint`,
      ],
      options,
      facts,
    });
  const quantity = quarterQuantity(q, 25.4, 'in', who.sigmaMm, of, who.leader);
  const j = BP.judge(ctx, quantity, 'moreThan', 0);
  const close = j.answer === 'borderline' || q.onBoundary;
  return bpVerdict({
    question: 'quarter',
    asked,
    answer: close ? 'borderline' : 'yes',
    value: quantity.value,
    unit: 'in',
    moveMm: j.moveMm,
    bandMm: j.bandMm,
    epsilon: j.epsilon,
    reasons: [
      `${poss(who.name)} leader is in ${poss(of.name)} ${q.quarter} quarter, ${inStr(q.rayDistance)} from the ${q.across} quarter${close ? ' (too close to call: roll a D6)' : ''}`,
    ],
    options,
    facts,
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
      distanceVerdict(BP, a.ctx, a.question, ...a.pair(), (m) => ({
        reasons: [
          `${inStr(m.mm)} edge to edge, from ${m.fromName} to ${m.toName} (± ${inches(m.sigmaMm).toFixed(2)} in, one sigma)`,
        ],
        facts: { sigmaIn: inches(m.sigmaMm) },
      })),
    quarter: (a) => quarterVerdict(a.ctx, a.question.subject, a.objectName()),
    support: (a) => supportVerdict(a.ctx, a.subject(), a.object()),
    command: (a) => orderVerdict(a.ctx, a.subjectCommander(), [a.object()]),
    initiative: (a) => initiativeVerdict(a.ctx, a.subject()),
    leftTable: (a) => leftTableVerdict(a.ctx, a.subject()),
  },
});

registerRuleset(blackPowder);

/** Distance from a commander's head to a unit (for UIs that want the number alone). */
export const commanderDistance = (state: TableState, commander: string, unit: string) => {
  const k = findByName(state.commanders, commander, 'commander');
  return pointToUnit(k.head, k.sigmaMm, findUnit(state, unit).bases);
};
