import { z } from 'zod';
import type { CameraProfile } from '../camera/profile.ts';
import type { TablePose } from '../camera/table-pose.ts';

/**
 * The live WebSocket protocol. Binary messages from the server are JPEG frames; every text
 * message is JSON of one of the types below. Messages from the browser are validated with zod.
 */

export const clientMessageSchema = z.discriminatedUnion('type', [
  /** Ask for the distance between two units; the server then updates it on every frame. */
  z.strictObject({
    type: z.literal('measure'),
    a: z.string().min(1).max(100),
    b: z.string().min(1).max(100),
  }),
  z.strictObject({ type: z.literal('clearMeasure') }),
  /**
   * This browser will send its own camera: binary messages that follow are JPEG frames of
   * width × height. `profile` names a camera profile in the calibration folder; without one the
   * camera model is estimated from `hfovDeg` (default 60°) and flagged as an estimate.
   * Players only.
   */
  z.strictObject({
    type: z.literal('camera'),
    width: z.number().int().min(64).max(4096),
    height: z.number().int().min(64).max(4096),
    profile: z.string().min(1).max(100).optional(),
    hfovDeg: z.number().min(10).max(170).optional(),
  }),
  /**
   * This page draws the camera picture at most `width` device pixels wide: the server may send it
   * scaled down to that (src/server/picture-sizes.ts). Overlays stay in camera pixels. Width 0:
   * this page draws no picture (the streamer overlay), send states only.
   */
  z.strictObject({
    type: z.literal('view'),
    width: z.union([z.literal(0), z.number().int().min(64).max(8192)]),
  }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export interface BaseView {
  readonly markerId: number;
  /** Base centre in table mm, its heading (degrees, CCW, 0 = facing table +y), size in mm. */
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
  readonly widthMm: number;
  readonly depthMm: number;
  /** Height of the base top above the table (mm), for drawing the footprint where it is seen. */
  readonly topMm: number;
  /** Whether the base counts as where it is shown (false: where it was last seen). */
  readonly seen: boolean;
  /** How long the base has not been measured, ms (0: measured in this frame). */
  readonly missingMs?: number;
  /** Not measured where the picture is changing (a hand over it, or it is being carried). */
  readonly moving?: boolean;
  readonly sigmaMm: number;
}

export interface UnitView {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly colour: string;
  readonly bases: readonly BaseView[];
}

export interface MeasurementView {
  readonly a: string;
  readonly b: string;
  readonly distanceIn: number;
  readonly uncertaintyIn: number;
  /** End points of the shortest line, table mm, on A and on B. */
  readonly from: { readonly x: number; readonly y: number };
  readonly to: { readonly x: number; readonly y: number };
  /** False when the table pose or either unit was not measured this frame. */
  readonly valid: boolean;
  readonly text: string;
}

export interface StateMessage {
  readonly type: 'state';
  readonly frame: number;
  readonly timestamp: number;
  readonly table: { readonly widthMm: number; readonly depthMm: number };
  readonly camera: CameraProfile;
  /** Null while the table pose is unknown (too few reference markers seen). */
  readonly pose: TablePose | null;
  /** `settling` right after the camera moved: the overlay is drawn but measurements are not valid yet. */
  readonly poseStatus: 'stable' | 'settling' | 'unknown';
  readonly units: readonly UnitView[];
  readonly detectionMs: number;
  readonly measurement: MeasurementView | null;
}

export interface ErrorMessage {
  readonly type: 'error';
  readonly message: string;
}

/** Where the camera stands: `connecting` until its first frame, `live`, `retrying` after a failure, `failed` when given up. */
export type SourceState = 'connecting' | 'live' | 'stalled' | 'retrying' | 'failed';

export interface SourceStatus {
  readonly name: string;
  readonly state: SourceState;
  /** Consecutive failed attempts (0 while live). */
  readonly attempt: number;
  /** When retrying: epoch ms of the next attempt, and how long until then. */
  readonly retryAt: number | null;
  readonly retryInMs: number | null;
  /** The last failure, kept while retrying or failed. */
  readonly error: string | null;
  /** Epoch ms when this state began. */
  readonly since: number;
  /** One line for people: "retrying (attempt 3, next in 4 s): ffmpeg exited: …". */
  readonly text: string;
}

/**
 * Sent on connection and again whenever the scenario or the camera's state changes. `source`
 * reads "<camera name>" while live and "<camera name> — <state>" otherwise, so a page that only
 * shows `source` shows the camera's trouble too.
 */
export interface HelloMessage {
  readonly type: 'hello';
  readonly scenario: string;
  readonly source: string;
  readonly sourceStatus?: SourceStatus;
  /** What this connection may do: a `player` changes the table (scenario, camera); a `spectator` only watches and measures. */
  readonly role?: 'player' | 'spectator';
  /** Sent to a browser that offered its camera, once the server watches through it: start sending frames. */
  readonly cameraAccepted?: boolean;
}

export type ServerMessage = StateMessage | ErrorMessage | HelloMessage;
