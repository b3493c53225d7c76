import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
import type { DetectorOptions } from './detector.ts';
import type { RasterImage } from './image.ts';
import type { PipelineResult } from './pipeline.ts';

/**
 * Messages between the main thread and the vision worker (src/vision/worker-thread.ts).
 * Frame pixels travel as transferred ArrayBuffers: to the worker with the frame, and back with
 * the result, so a 1080p frame (6 MB) is never copied between threads.
 */

export interface WorkerInit {
  readonly camera: CameraProfile;
  readonly scenario: Scenario;
  readonly detectorOptions: Partial<DetectorOptions>;
}

export interface WorkerFrame {
  readonly width: number;
  readonly height: number;
  readonly channels: RasterImage['channels'];
  /** Exactly width × height × channels bytes, transferred. */
  readonly pixels: ArrayBuffer;
  readonly capturedAt: number;
  readonly sequence: number;
}

export type ToWorker = { readonly type: 'process'; readonly id: number; readonly frame: WorkerFrame };

export type FromWorker =
  | { readonly type: 'ready' }
  | { readonly type: 'initError'; readonly message: string }
  | {
      readonly type: 'result';
      readonly id: number;
      readonly result: PipelineResult;
      readonly pixels: ArrayBuffer;
    }
  | { readonly type: 'error'; readonly id: number; readonly message: string; readonly pixels: ArrayBuffer };
