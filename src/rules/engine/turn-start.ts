import type { Vec2 } from '../../geometry/vec.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';

/**
 * Where a unit's leader stood at the start of the turn: from the recorded pose history when the
 * table carries it (`turnStart`), else from the scenario's `leaderAtTurnStart`, else now. With the
 * one-sigma error of that point and where it came from, for the reasons.
 */
export interface TurnStartLeader {
  readonly point: Vec2;
  readonly sigmaMm: number;
  readonly from: 'history' | 'scenario' | 'now';
}

export function leaderAtTurnStart(state: TableState, unit: TableUnit): TurnStartLeader {
  const then = state.turnStart?.units.find((u) => u.id === unit.id);
  if (then) return { point: then.leader, sigmaMm: then.sigmaMm, from: 'history' };
  if (unit.leaderAtTurnStart)
    return { point: unit.leaderAtTurnStart, sigmaMm: unit.sigmaMm, from: 'scenario' };
  return { point: unit.leader, sigmaMm: unit.sigmaMm, from: 'now' };
}

export const turnStartWords = (l: TurnStartLeader): string =>
  l.from === 'history'
    ? 'at the start of the turn (recorded)'
    : l.from === 'scenario'
      ? 'at the start of the turn'
      : 'now';
