import type { QuarterResult } from '../../geometry/quarters.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { findByName, type TableState } from '../../table/table-state.ts';
import type { Quantity } from './threshold.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * Whoever a quarter question may be about: a unit (by its leader) or a commander (by his head),
 * so "which quarter of 'B' is 'General' in?" works like it does for units.
 */
export function standerOf(
  state: TableState,
  ref: string,
): { readonly name: string; readonly leader: Vec2; readonly sigmaMm: number } {
  const everyone = [...state.units, ...state.commanders.map((c) => ({ ...c, leader: c.head }))];
  return findByName(everyone, ref);
}

/**
 * A quarter is too close to call when the point sits on a dividing ray, or nearer one than the
 * borderline band (`rayDistance` and `epsilon` in the same unit). A point inside the unit has no
 * quarter to argue over.
 */
export const quarterTooClose = (
  q: Pick<QuarterResult, 'quarter' | 'onBoundary'>,
  rayDistance: number,
  epsilon: number,
): boolean => q.quarter !== 'inside' && (q.onBoundary || rayDistance < epsilon);

/**
 * A point's quarter as a threshold quantity: how far it stands from the nearest dividing ray (a
 * length in the ruleset's unit), which is how far it would have to move to change quarter. Its
 * sigma: the point's own, the unit's, and the unit's heading error swinging the ray over the
 * distance between them.
 */
export function quarterQuantity(
  q: Pick<QuarterResult, 'rayDistance'>,
  unitMm: number,
  unitName: string,
  pointSigmaMm: number,
  of: { readonly sigmaMm: number; readonly sigmaHeadingDeg: number; readonly leader: Vec2 },
  p: Vec2,
): Quantity {
  const lever = hypot(p.x - of.leader.x, p.y - of.leader.y) * ((of.sigmaHeadingDeg * Math.PI) / 180);
  const d = Number.isFinite(q.rayDistance) ? q.rayDistance : 1e9;
  return {
    value: d / unitMm,
    unit: unitName,
    perMm: 1 / unitMm,
    sigmaMm: Math.hypot(pointSigmaMm, of.sigmaMm, lever),
    moveMm: d,
  };
}
