import { visibleFractionBy, type Hider } from '../../geometry/visibility.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { rulesKit } from '../engine/context.ts';
import { firstHider } from '../engine/sight-hider.ts';
import type { RulesContext } from '../engine/ruleset.ts';
import type { ThresholdPolicy } from '../engine/threshold.ts';
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

/** What hides p from eye, by option sightBlockers (terrain marked as blocking sight; also units). */
export function sightHider(
  ctx: OtsContext,
  eye: Vec2,
  p: Vec2,
  exclude: ReadonlySet<string>,
): Hider | undefined {
  const mode = ctx.options.sightBlockers;
  if (mode === 'nothing') return undefined;
  return firstHider(ctx.state, eye, p, exclude, {
    terrain: (t) => t.blocksSight,
    units: mode === 'unitsAndTerrain',
  });
}

/**
 * Share of `target` a unit sees: the best over eyes at the front centre of each of its stands
 * (a unit sees what any of its stands sees).
 */
export function seenShare(
  ctx: OtsContext,
  looker: TableUnit,
  target: TableUnit,
): { share: number; hiddenBy: string[] } {
  const exclude = new Set([looker.id, target.id]);
  let best = 0;
  const hidden = new Set<string>();
  const eyes = [looker.leader, ...looker.bases.map((b) => b.footprint.center)];
  for (const eye of eyes) {
    const v = visibleFractionBy(eye, target.bodyPolygons, (e, p) => sightHider(ctx, e, p, exclude), 3);
    v.hiddenBy.forEach((h) => hidden.add(h.hider.label));
    if (v.fraction > best) best = v.fraction;
    if (best >= 1) break;
  }
  return { share: best, hiddenBy: [...hidden] };
}
