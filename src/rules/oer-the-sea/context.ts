import type { Hider } from '../../geometry/visibility.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { rulesKit } from '../engine/context.ts';
import { pairCached } from '../engine/pair-cache.ts';
import { firstHider, type SightRule } from '../engine/sight-hider.ts';
import { seenShareQuantity } from '../engine/sight-share.ts';
import { seenBy } from '../engine/sight-verdict.ts';
import type { RulesContext } from '../engine/ruleset.ts';
import type { Quantity, ThresholdPolicy } from '../engine/threshold.ts';
import { OTS_OPTION_SPECS, type OtsOptions } from './options.ts';
import { FULL_MOVE, type OtsMover } from './tables.ts';

export const RULESET_ID = 'oer-the-sea';
export type OtsContext = RulesContext<OtsOptions>;
/** The spec's suggested band: half a centimetre, or two sigmas of the measurement. */
export const OTS_POLICY: ThresholdPolicy = { floor: 0.5, sigmas: 2 };

/** The O'er the Sea core, and the plumbing every file shares (context, verdicts, centimetres). */
export const OTS = rulesKit<OtsOptions>({
  id: RULESET_ID,
  unit: 'cm',
  optionSpecs: OTS_OPTION_SPECS,
  defaultPolicy: OTS_POLICY,
});
export const {
  context: otsContext,
  verdict: otsVerdict,
  lengthVerdict,
  thresholdVerdict,
  toUnit: cm,
  toMm: mmOfCm,
  lengthStr: cmStr,
} = OTS;

/** Mounted: cavalry (dragoons on foot are infantry), for evading and the mounted melee bonus. */
export const isMounted = (u: Pick<TableUnit, 'type'>): boolean => u.type === 'cavalry';
export const isLightHorse = (u: Pick<TableUnit, 'troop'>): boolean => /light horse/i.test(u.troop ?? '');
export const moverOf = (u: Pick<TableUnit, 'type'>): OtsMover =>
  u.type === 'cavalry' ? 'cavalry' : u.type === 'artillery' ? 'artillery' : 'infantry';
export const fullMoveOf = (u: Pick<TableUnit, 'type'>): number => FULL_MOVE[moverOf(u)];
/** Unit strength: hits that remove one stand (scenario `strength`, default 3). */
export const strengthOf = (u: Pick<TableUnit, 'strength'>): number => u.strength ?? 3;

/** What hides a line of sight, by option sightBlockers: terrain marked as blocking sight; also units. */
export function sightRule(ctx: OtsContext): SightRule {
  const mode = ctx.options.sightBlockers;
  return { terrain: (t) => mode !== 'nothing' && t.blocksSight, units: mode === 'unitsAndTerrain' };
}

/** What hides p from eye (line test, for officers and single sight lines). */
export function sightHider(
  ctx: OtsContext,
  eye: Vec2,
  p: Vec2,
  exclude: ReadonlySet<string>,
): Hider | undefined {
  if (ctx.options.sightBlockers === 'nothing') return undefined;
  return firstHider(ctx.state, eye, p, exclude, sightRule(ctx));
}

export interface UnitSight {
  /** The best share seen from any of the unit's eyes, 0…1. */
  readonly share: number;
  readonly hiddenBy: string[];
  /** "Some of the target is seen" as a threshold quantity (% seen, its move and sigma). */
  readonly quantity: Quantity;
}

/**
 * What a unit sees of `target`, exactly: the best over eyes at its leader and the centre of each
 * of its stands (a unit sees what any of its stands sees). The answer "some is seen" changes when
 * every eye that sees loses sight, or when the first eye that does not gains it: so the move is
 * the largest of the seeing eyes' moves, or the smallest of the others'.
 */
export function seenShare(ctx: OtsContext, looker: TableUnit, target: TableUnit): UnitSight {
  // A shot weighs whether each nearer enemy is in view: a unit's row of shots asks every one of
  // its sights again per target (a 60-unit table's threat view took seconds a unit) unless kept.
  return pairCached(ctx, 'ots.seenShare', looker, target, () => seenShareAfresh(ctx, looker, target));
}

function seenShareAfresh(ctx: OtsContext, looker: TableUnit, target: TableUnit): UnitSight {
  const eyes = [looker.leader, ...looker.bases.map((b) => b.footprint.center)];
  const views = eyes.map((eye) => seenBy(OTS, ctx, sightRule(ctx), eye, looker, target));
  const bestView = views.reduce((a, b) => (b.region.share > a.region.share ? b : a));
  const hidden = new Set<string>();
  for (const v of views) for (const h of v.region.hiddenBy) hidden.add(h.label);
  const quantityOf = (v: (typeof views)[number]): Quantity =>
    seenShareQuantity(v, 'moreThan', 0, OTS.bandMm(ctx, v.sigmaMm));
  const seeing = views.filter((v) => v.region.share > 0).sort((a, b) => b.region.share - a.region.share);
  // Probing is the costly part: a seeing eye that keeps its sight through every move within its
  // band settles the answer as a firm yes, so the others need not be probed.
  let pickQ: Quantity | undefined;
  for (const v of seeing) {
    const q = quantityOf(v);
    if (!pickQ || (q.moveMm ?? 0) > (pickQ.moveMm ?? 0)) pickQ = q;
    if ((q.moveMm ?? 0) >= OTS.bandMm(ctx, v.sigmaMm)) break;
  }
  if (!pickQ)
    pickQ = views.map(quantityOf).reduce((a, b) => ((b.moveMm ?? Infinity) < (a.moveMm ?? Infinity) ? b : a));
  return {
    share: bestView.region.share,
    hiddenBy: [...hidden],
    quantity: { ...pickQ, value: bestView.region.share * 100 },
  };
}
