import type { KeyframeRecord, MoveRecord, RecordedPose } from './types.ts';

/**
 * The table at any moment of a recorded battle, computed from a keyframe and the moves after it.
 * Pure (no I/O), shared by the store's seek and the replay page.
 */

/** Index of the first move with time > t (moves sorted by time). */
export function movesUpTo(moves: readonly MoveRecord[], t: number): number {
  let lo = 0;
  let hi = moves.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (moves[mid]!.t <= t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Applies moves (already filtered to (keyframe.t, t]) to a keyframe's poses. */
export function applyMoves(
  start: readonly RecordedPose[],
  moves: Iterable<MoveRecord>,
): Map<number, RecordedPose> {
  const poses = new Map<number, RecordedPose>(start.map((p) => [p.markerId, p]));
  for (const m of moves) poses.set(m.markerId, poseOf(m));
  return poses;
}

export function poseOf(m: RecordedPose): RecordedPose {
  return {
    markerId: m.markerId,
    x: m.x,
    y: m.y,
    headingDeg: m.headingDeg,
    sigmaMm: m.sigmaMm,
    sigmaHeadingDeg: m.sigmaHeadingDeg,
  };
}

/** The settled pose of every base at t, from the initial keyframe and all moves (sorted). */
export function stateAt(
  initial: KeyframeRecord,
  moves: readonly MoveRecord[],
  t: number,
): Map<number, RecordedPose> {
  const end = movesUpTo(moves, t);
  const start = movesUpTo(moves, initial.t);
  return applyMoves(initial.t <= t ? initial.poses : [], moves.slice(initial.t <= t ? start : 0, end));
}

/** Each base's path so far: its settled positions up to t, in order (for trails). */
export function trailsAt(
  initial: KeyframeRecord,
  moves: readonly MoveRecord[],
  t: number,
): Map<number, Array<{ x: number; y: number }>> {
  const trails = new Map<number, Array<{ x: number; y: number }>>();
  if (initial.t <= t) for (const p of initial.poses) trails.set(p.markerId, [{ x: p.x, y: p.y }]);
  const end = movesUpTo(moves, t);
  for (let i = movesUpTo(moves, initial.t); i < end; i++) {
    const m = moves[i]!;
    const trail = trails.get(m.markerId) ?? [];
    trail.push({ x: m.x, y: m.y });
    trails.set(m.markerId, trail);
  }
  return trails;
}

/**
 * Steps for "move by move": moves whose settle times follow each other within `gapMs` (the bases
 * of a unit coming to rest over a few frames) form one step; each step is [start, end].
 */
export function moveSteps(moves: readonly MoveRecord[], gapMs = 500): Array<{ start: number; end: number }> {
  const out: Array<{ start: number; end: number }> = [];
  for (const m of moves) {
    const last = out[out.length - 1];
    if (last && m.t - last.end <= gapMs) last.end = Math.max(last.end, m.t);
    else out.push({ start: m.t, end: m.t });
  }
  return out;
}
