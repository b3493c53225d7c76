import type { TableUnit } from '../../table/table-unit.ts';
import { defineRuleset } from '../engine/define-ruleset.ts';
import { distanceVerdict } from '../engine/distance-verdict.ts';
import { registerRuleset } from '../engine/registry.ts';
import type { Ruleset } from '../engine/ruleset.ts';
import type { Verdict } from '../engine/verdict.ts';
import { attackFaceVerdict, chargeVerdict } from './charge.ts';
import { joinVerdict } from './command.ts';
import { sightVerdict } from '../engine/sight-verdict.ts';
import { D3, d3Seen, frontCentreOf, inStr, type D3Context } from './context.ts';
import { shootVerdict } from './fire.ts';

function seeVerdict(ctx: D3Context, a: TableUnit, b: TableUnit): Verdict {
  const s = d3Seen(ctx, a, b);
  return sightVerdict(
    D3,
    ctx,
    s,
    {
      question: 'see',
      asked: `does ${a.name} see ${b.name}?`,
      options: { sightBlockers: ctx.options.sightBlockers },
      ...(s.region.nearest ? { between: [frontCentreOf(a), s.region.nearest] as const } : {}),
    },
    a,
    b,
  );
}

/** D3 Jacobite Rebellion rules (after One-Hour Wargames) as a Vedette ruleset. */
export const d3: Ruleset = defineRuleset({
  kit: D3,
  name: 'D3 Jacobite Rebellion',
  handlers: {
    shoot: (a) => shootVerdict(a.ctx, a.subject(), a.object()),
    charge: (a) => chargeVerdict(a.ctx, a.subject(), a.object()),
    see: (a) => seeVerdict(a.ctx, ...a.pair()),
    distance: (a) =>
      distanceVerdict(D3, a.ctx, a.question, ...a.pair(), (m) => ({
        reasons: [
          `${inStr(m.mm)} edge to edge, from ${m.fromName} to ${m.toName} (musket range is measured from the front centre instead)`,
        ],
      })),
    quarter: (a) => attackFaceVerdict(a.ctx, a.subject(), a.object()),
    command: (a) => joinVerdict(a.ctx, a.subjectCommander(), a.object()),
  },
  noRule: (kind) => `D3 has no rule for "${kind}" questions`,
});

registerRuleset(d3);
