import type { TableUnit } from '../../table/table-unit.ts';
import { defineRuleset } from '../engine/define-ruleset.ts';
import { distanceVerdict } from '../engine/distance-verdict.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { Verdict } from '../engine/verdict.ts';
import { chargeVerdict } from './charge.ts';
import { cmStr, OTS, type OtsContext } from './context.ts';
import { aheadVerdict, seeCheck, shootVerdict } from './fire.ts';
import { initiativeVerdict } from './initiative.ts';
import { leftTableVerdict } from './table-edge.ts';

function seeVerdict(ctx: OtsContext, a: TableUnit, b: TableUnit): Verdict {
  return { ...seeCheck(ctx, a, b, 'see'), asked: `does ${a.name} see ${b.name}?` };
}

/** O'er the Sea v3.20 (metric) as a Vedette ruleset. */
export const oerTheSea: Ruleset = defineRuleset({
  kit: OTS,
  name: "O'er the Sea v3.20",
  handlers: {
    shoot: (a) => shootVerdict(a.ctx, a.subject(), a.object()),
    charge: (a) => chargeVerdict(a.ctx, a.subject(), a.object()),
    see: (a) => seeVerdict(a.ctx, ...a.pair()),
    distance: (a) =>
      distanceVerdict(OTS, a.ctx, a.question, ...a.pair(), (m) => ({
        reasons: [`${cmStr(m.mm)} stand edge to stand edge, from ${m.fromName} to ${m.toName}`],
      })),
    initiative: (a) => initiativeVerdict(a.ctx, a.subject()),
    ahead: (a) => aheadVerdict(a.ctx, ...a.pair()),
    leftTable: (a) => leftTableVerdict(a.ctx, a.subject()),
  },
  noRule: (kind) => `O'er the Sea has no rule for "${kind}" questions here`,
});

registerRuleset(oerTheSea);
