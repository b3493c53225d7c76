import type { MarkRecord, RecordedPose } from '../record/types.ts';
import type { BasePose } from './table-state.ts';

/**
 * The recorded pose history as the rules want it: every base's settled pose at the start of the
 * current turn (the last player turn mark at or before `t`, else the last inferred one). `seek`
 * gives the recorded poses at a time (BattleStore.seek, or replay-state's stateAt). Undefined when
 * no turn has been marked yet.
 */
export function turnStartPoses(
  marks: readonly MarkRecord[],
  t: number,
  seek: (at: number) => Iterable<RecordedPose>,
): Map<number, BasePose> | undefined {
  const turns = marks.filter((m) => m.kind === 'turn' && m.t <= t);
  const byPlayer = turns.filter((m) => m.source === 'player');
  const mark = (byPlayer.length ? byPlayer : turns).reduce<MarkRecord | undefined>(
    (last, m) => (!last || m.t >= last.t ? m : last),
    undefined,
  );
  if (!mark) return undefined;
  const out = new Map<number, BasePose>();
  for (const p of seek(mark.t))
    out.set(p.markerId, {
      x: p.x,
      y: p.y,
      headingDeg: p.headingDeg,
      sigmaMm: p.sigmaMm,
      sigmaHeadingDeg: p.sigmaHeadingDeg,
    });
  return out;
}
