import type { BasePose } from '../table/table-state.ts';
import { turnStartPoses } from '../table/pose-history.ts';
import type { BattleStore } from './store.ts';

/**
 * A recorded battle read back as the rules want it: every base's settled pose at a moment, and
 * the poses at the start of the turn in force then (the last player turn mark at or before it,
 * else the last inferred one). The live referee asks this of the battle being recorded; `vedette
 * rules --battle` of any battle in the store.
 */

/** Settled poses of the bases at `t` (table mm), as the table state takes them. */
export function recordedPoses(store: BattleStore, battleId: number, t: number): Map<number, BasePose> {
  const out = new Map<number, BasePose>();
  for (const p of store.seek(battleId, t).poses)
    out.set(p.markerId, {
      x: p.x,
      y: p.y,
      headingDeg: p.headingDeg,
      sigmaMm: p.sigmaMm,
      sigmaHeadingDeg: p.sigmaHeadingDeg,
    });
  return out;
}

/** Poses at the start of the turn in force at `t`; undefined before the first turn mark. */
export function recordedTurnStart(
  store: BattleStore,
  battleId: number,
  t: number,
): Map<number, BasePose> | undefined {
  return turnStartPoses(store.marks(battleId), t, (at) => store.seek(battleId, at).poses);
}
