import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
import type { BasePose } from '../table/table-state.ts';
import type { LiveFrame } from './live-loop.ts';

/**
 * What a group of REST routes may read from (and ask of) the running server, without reaching
 * into app.ts: the scenario being watched, the camera, the latest processed frame, and the one
 * way to change the scenario live (the same replacement path as POST /api/scenario).
 */
export interface RouteContext {
  scenario(): Scenario;
  camera(): CameraProfile;
  latest(): LiveFrame | undefined;
  /** Marker ids the camera saw in the last few seconds that the scenario did not declare then. */
  recentUnknownIds(): readonly number[];
  /**
   * Poses at the start of the current turn from the battle being recorded (undefined when not
   * recording or before the first turn mark): the rules that look back to the turn start read them.
   */
  turnStartPoses?(): ReadonlyMap<number, BasePose> | undefined;
  /** Validated scenario → replaces the table being watched (source, pipeline, browsers told). */
  replaceScenario(next: Scenario): Promise<void>;
}
