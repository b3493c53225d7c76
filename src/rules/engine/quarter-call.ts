import type { QuarterResult } from '../../geometry/quarters.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import { findByName, type TableState } from '../../table/table-state.ts';

/**
 * Whoever a quarter question may be about: a unit (by its leader) or a commander (by his head),
 * so "which quarter of 'B' is 'General' in?" works like it does for units.
 */
export function standerOf(state: TableState, ref: string): { readonly name: string; readonly leader: Vec2 } {
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
