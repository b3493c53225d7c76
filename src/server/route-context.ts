import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
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
  /** Validated scenario → replaces the table being watched (source, pipeline, browsers told). */
  replaceScenario(next: Scenario): Promise<void>;
}
