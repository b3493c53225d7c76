import type { Vec2 } from '../../geometry/vec.ts';
import { sightScreen, type SightScreen } from '../../geometry/visible-region.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { closedRanks } from './closed-ranks.ts';
import type { RulesKit } from './context.ts';
import { possessive } from './measure.ts';
import { seenShare, seenShareQuantity, type SeenShare } from './sight-share.ts';
import type { SightRule } from './sight-hider.ts';
import type { ThresholdPolicy } from './threshold.ts';
import type { OptionValue, Verdict, VerdictInit } from './verdict.ts';

/**
 * Sight for the rulesets that share one reading of it (D3, O'er the Sea): terrain the rule names
 * hides what lies behind it (not what stands in it), units hide what is behind and under them
 * (bases in contact as one body: `closedRanks`).
 * Exact (polygon visibility), with the uncertainty model's move and band.
 */
export function sightScreensFor(
  state: TableState,
  rule: SightRule,
  exclude: ReadonlySet<string>,
): SightScreen[] {
  const out: SightScreen[] = [];
  for (const t of state.terrain)
    if (t.polygon && rule.terrain(t)) out.push(sightScreen(t.id, t.label, t.polygon, 'screen'));
  if (rule.units) for (const u of state.units) if (!exclude.has(u.id)) out.push(...unitScreens(u));
  return out;
}

/** Each unit's bodies as solid screens, built once per unit (a table state's units never change). */
const screensByUnit = new WeakMap<TableUnit, readonly SightScreen[]>();

function unitScreens(u: TableUnit): readonly SightScreen[] {
  let screens = screensByUnit.get(u);
  if (!screens) {
    screens = closedRanks(u.bases).map((p) => sightScreen(u.id, u.name, p, 'solid'));
    screensByUnit.set(u, screens);
  }
  return screens;
}

/** What an eye of `looker` sees of `target`, exactly. */
export function seenBy<O extends Record<string, OptionValue>>(
  kit: RulesKit<O>,
  ctx: { readonly state: TableState; readonly policy: ThresholdPolicy },
  rule: SightRule,
  eye: Vec2,
  looker: TableUnit,
  target: TableUnit,
): SeenShare {
  const sigmas = new Map(ctx.state.units.map((u) => [u.id, u.sigmaMm]));
  return seenShare(
    {
      eye,
      eyeSigmaMm: looker.sigmaMm,
      target: target.bodyPolygons,
      targetSigmaMm: target.sigmaMm,
      screens: sightScreensFor(ctx.state, rule, new Set([looker.id, target.id])),
      screenSigmaMm: (s) => sigmas.get(s.id) ?? 0,
      screenMoves: (s) => sigmas.has(s.id),
    },
    (sigmaMm) => kit.bandMm(ctx, sigmaMm),
  );
}

/** "Can A see B?" as a threshold verdict: some of B seen (share > 0 %). */
export function sightVerdict<O extends Record<string, OptionValue>>(
  kit: RulesKit<O>,
  ctx: { readonly state: TableState; readonly policy: ThresholdPolicy },
  s: SeenShare,
  init: Omit<
    VerdictInit,
    'ruleset' | 'answer' | 'value' | 'limit' | 'margin' | 'epsilon' | 'unit' | 'moveMm' | 'bandMm'
  >,
  looker: TableUnit,
  target: TableUnit,
): Verdict {
  const share = s.region.share;
  const hidden = s.region.hiddenBy.map((h) => `${(h.share * 100).toFixed(0)}% by ${h.label}`);
  return kit.thresholdVerdict(
    ctx,
    {
      ...init,
      reasons: [
        share > 0
          ? `${(share * 100).toFixed(0)}% of ${target.name} is in sight of ${possessive(looker.name)} front${hidden.length ? ` (hidden: ${hidden.join('; ')})` : ''}`
          : `${target.name} is hidden: ${hidden.join('; ') || 'out of sight'}`,
        ...(init.reasons ?? []),
      ],
      facts: { ...(init.facts ?? {}), visibleShare: share },
    },
    seenShareQuantity(s, 'moreThan', 0, kit.bandMm(ctx, s.sigmaMm)),
    'moreThan',
    0,
  );
}
