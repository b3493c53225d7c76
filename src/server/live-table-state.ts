import type { Scenario } from '../table/scenario.ts';
import { buildTableState, type BasePose, type TableState } from '../table/table-state.ts';
import type { LiveFrame } from './live-loop.ts';

/** The tracked pose of every base in a processed frame, by marker id (plain data: it can be posted to a worker). */
export function livePoses(frame: LiveFrame): Map<number, BasePose> {
  const poses = new Map<number, BasePose>();
  for (const b of frame.snapshot.result.bases)
    poses.set(b.markerId, {
      x: b.x,
      y: b.y,
      headingDeg: b.headingDeg,
      sigmaMm: b.sigmaMm,
      sigmaHeadingDeg: b.sigmaHeadingDeg,
    });
  return poses;
}

/**
 * The table from tracked poses only (a base never seen is not guessed from the file), with the
 * table at the start of the turn when the recording has marked one.
 */
export function tableFromPoses(
  scenario: Scenario,
  poses: ReadonlyMap<number, BasePose>,
  turnStartPoses?: ReadonlyMap<number, BasePose>,
): TableState {
  return buildTableState(scenario, poses, {
    fallBackToFilePoses: false,
    ...(turnStartPoses ? { turnStartPoses } : {}),
  });
}

/** The table as the camera last saw it (`tableFromPoses` of the frame's poses). */
export const liveTableState = (
  scenario: Scenario,
  frame: LiveFrame,
  turnStartPoses?: ReadonlyMap<number, BasePose>,
): TableState => tableFromPoses(scenario, livePoses(frame), turnStartPoses);
