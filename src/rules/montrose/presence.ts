import { findSpace } from '../../board/board-map.ts';
import { isCombat, type BoardState, type PlacedCounter } from './state.ts';
import type { Side } from './tables.ts';

/** Three-valued: a counter is on a space, is not, or is too close to a circle's edge to say. */
export type Tri = 'yes' | 'maybe' | 'no';

export const triAnd = (a: Tri, b: Tri): Tri =>
  a === 'no' || b === 'no' ? 'no' : a === 'yes' && b === 'yes' ? 'yes' : 'maybe';
export const triOr = (a: Tri, b: Tri): Tri =>
  a === 'yes' || b === 'yes' ? 'yes' : a === 'maybe' || b === 'maybe' ? 'maybe' : 'no';
export const triNot = (a: Tri): Tri => (a === 'yes' ? 'no' : a === 'no' ? 'yes' : 'maybe');

/**
 * Is the counter on the space? Placed there with more than its band to spare: yes; placed there
 * within the band of the circle's edge, unclear between it and another, or outside but within its
 * band of the snapping circle: maybe.
 */
export function presence(board: BoardState, c: PlacedCounter, spaceId: string): Tri {
  const s = c.snap;
  if (s.status === 'placed' && s.space.id === spaceId) return s.marginIn > c.bandIn ? 'yes' : 'maybe';
  if (s.status === 'unclear' && s.candidates.some((x) => x.id === spaceId)) return 'maybe';
  const space = findSpace(board.map, spaceId);
  const d = Math.hypot(c.at.x - space.x, c.at.y - space.y);
  return d <= space.radius + board.options.snapToleranceIn + c.bandIn ? 'maybe' : 'no';
}

/** Combat units of one side (the enemy of `side`, or its friends) on a space, three-valued. */
export function combatPresence(board: BoardState, spaceId: string, side: Side, enemy: boolean): Tri {
  let t: Tri = 'no';
  for (const c of board.counters)
    if ((c.counter.side !== side) === enemy && isCombat(c.counter)) t = triOr(t, presence(board, c, spaceId));
  return t;
}
