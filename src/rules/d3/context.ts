import { containsPoint } from '../../geometry/polygon.ts';
import { makeBlocker, sightObstructions } from '../../geometry/line-of-sight.ts';
import { visibleFractionBy, type Hider, type VisibilityResult } from '../../geometry/visibility.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { fromMm, toMm } from '../../table/length-unit.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { lengthVerdict as measureVerdict, type Measured } from '../engine/measure.ts';
import { resolveOptions } from '../engine/options.ts';
import type { RulesContext } from '../engine/ruleset.ts';
import { DEFAULT_POLICY, type Comparison, type ThresholdPolicy } from '../engine/threshold.ts';
import { verdict, type OptionValue, type Verdict, type VerdictInit } from '../engine/verdict.ts';
import { pointToUnit } from '../unit-distance.ts';
import { D3_OPTION_SPECS, type D3Options } from './options.ts';
import { INFANTRY_COLUMN_MOVE, MOVE, type D3Troop } from './tables.ts';

export const RULESET_ID = 'd3';
export type D3Context = RulesContext<D3Options>;

export function d3Context(
  state: TableState,
  options: Readonly<Record<string, OptionValue>> = {},
  policy: ThresholdPolicy = DEFAULT_POLICY,
): D3Context {
  return { state, options: resolveOptions(D3_OPTION_SPECS, options), policy };
}

export const inches = (mm: number): number => fromMm(mm, 'in');
export const mmOf = (v: number): number => toMm(v, 'in');
export const inStr = (mm: number): string => `${inches(mm).toFixed(1)} in`;
export const d3Verdict = (init: Omit<VerdictInit, 'ruleset'>): Verdict =>
  verdict({ ...init, ruleset: RULESET_ID });

export function lengthVerdict(
  ctx: D3Context,
  init: Omit<
    VerdictInit,
    'ruleset' | 'answer' | 'value' | 'limit' | 'margin' | 'epsilon' | 'unit' | 'between'
  >,
  m: Measured,
  comparison: Comparison,
  limitIn: number,
): Verdict {
  return measureVerdict(
    { ruleset: RULESET_ID, unit: 'in', policy: ctx.policy },
    init,
    m,
    comparison,
    limitIn,
  );
}

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

/** Distance from the front centre to the nearest part of the target. */
export function fromFrontCentre(shooter: TableUnit, target: TableUnit): Measured {
  const s = pointToUnit(frontCentreOf(shooter), shooter.sigmaMm, target.bases);
  return { mm: s.distance, sigmaMm: s.sigmaMm, from: s.onA, to: s.onB };
}

/** What hides a point from an eye (option sightBlockers: buildings; also units; also woods). */
export function sightHider(
  ctx: D3Context,
  eye: Vec2,
  p: Vec2,
  exclude: ReadonlySet<string>,
): Hider | undefined {
  const kinds = ctx.options.sightBlockers;
  for (const t of ctx.state.terrain) {
    if (!t.polygon) continue;
    const blocks = t.kind === 'building' || (kinds === 'buildingsUnitsWoods' && t.kind === 'wood');
    if (!blocks || containsPoint(t.polygon, eye) || containsPoint(t.polygon, p)) continue;
    const o = sightObstructions(eye, p, [makeBlocker(t.id, t.label, t.polygon)], true)[0];
    if (o) return { id: t.id, label: t.label, fromMm: o.fromMm, toMm: o.toMm };
  }
  if (kinds !== 'buildings') {
    for (const u of ctx.state.units) {
      if (exclude.has(u.id)) continue;
      const o = sightObstructions(
        eye,
        p,
        u.allPolygons.map((poly) => makeBlocker(u.id, u.name, poly)),
        true,
      )[0];
      if (o) return { id: u.id, label: u.name, fromMm: o.fromMm, toMm: o.toMm };
    }
  }
  return undefined;
}

/** Share of `target` visible from `eye`. */
export function visibility(
  ctx: D3Context,
  eye: Vec2,
  looker: TableUnit,
  target: TableUnit,
): VisibilityResult {
  const exclude = new Set([looker.id, target.id]);
  return visibleFractionBy(eye, target.bodyPolygons, (e, p) => sightHider(ctx, e, p, exclude), 4);
}
