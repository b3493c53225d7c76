import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { rulesKit } from '../engine/context.ts';
import type { SightRule } from '../engine/sight-hider.ts';
import type { SeenShare } from '../engine/sight-share.ts';
import { seenBy } from '../engine/sight-verdict.ts';
import { fromPoint, possessive, type Measured } from '../engine/measure.ts';
import { pointName } from '../engine/parts.ts';
import type { RulesContext } from '../engine/ruleset.ts';
import { DEFAULT_POLICY } from '../engine/threshold.ts';
import { D3_OPTION_SPECS, type D3Options } from './options.ts';
import { INFANTRY_COLUMN_MOVE, MOVE, type D3Troop } from './tables.ts';

export const RULESET_ID = 'd3';
export type D3Context = RulesContext<D3Options>;

/** The D3 core, and the plumbing every D3 file shares (context, verdicts, inches). */
export const D3 = rulesKit<D3Options>({
  id: RULESET_ID,
  unit: 'in',
  optionSpecs: D3_OPTION_SPECS,
  defaultPolicy: DEFAULT_POLICY,
});
export const {
  context: d3Context,
  verdict: d3Verdict,
  lengthVerdict,
  thresholdVerdict,
  toUnit: inches,
  toMm: mmOf,
  lengthStr: inStr,
} = D3;

/** The D3 troop type: from the scenario's `troop` (highlander, skirmishers, mortar) or the unit type. */
export function troopOf(u: Pick<TableUnit, 'type' | 'troop' | 'weapon' | 'formationInUse'>): D3Troop {
  const t = `${u.troop ?? ''} ${u.weapon ?? ''}`.toLowerCase();
  if (u.type === 'artillery') return /mortar/.test(t) ? 'mortar' : 'artillery';
  if (u.type === 'cavalry') return 'cavalry';
  if (/highland/.test(t)) return 'highlander';
  if (/skirmish/.test(t) || u.formationInUse === 'skirmish') return 'skirmishers';
  return 'infantry';
}

export const isSeasoned = (u: Pick<TableUnit, 'quality'>): boolean =>
  (u.quality ?? '').toLowerCase() === 'seasoned';

/** One move, inches (infantry in column 9"). */
export function moveOf(u: TableUnit): number {
  const t = troopOf(u);
  if (t === 'infantry' && (u.formationInUse === 'attackColumn' || u.formationInUse === 'marchColumn'))
    return INFANTRY_COLUMN_MOVE;
  return MOVE[t];
}

/** Front centre of a unit: where musket range (and, by default, artillery range) is measured from. */
export const frontCentreOf = (u: TableUnit): Vec2 => u.barrel?.tip ?? u.leader;

/** Distance from the front centre to the nearest part of the target, both ends named. */
export function fromFrontCentre(shooter: TableUnit, target: TableUnit): Measured {
  const m = fromPoint(frontCentreOf(shooter), shooter.sigmaMm, target.bases);
  return {
    ...m,
    fromName: `${possessive(shooter.name)} ${shooter.barrel ? 'muzzle' : 'front centre'}`,
    toName: pointName(target, m.to),
  };
}

/** What hides a line of sight under the option sightBlockers: buildings; also units; also woods. */
export function sightRule(ctx: D3Context): SightRule {
  const kinds = ctx.options.sightBlockers;
  return {
    terrain: (t) => t.kind === 'building' || (kinds === 'buildingsUnitsWoods' && t.kind === 'wood'),
    units: kinds !== 'buildings',
  };
}

/** What the shooter's front centre sees of `target`, exactly. */
export const d3Seen = (ctx: D3Context, looker: TableUnit, target: TableUnit): SeenShare =>
  seenBy(D3, ctx, sightRule(ctx), frontCentreOf(looker), looker, target);
