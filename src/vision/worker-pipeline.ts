import type { Worker } from 'node:worker_threads';
import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';
import type { DetectorOptions } from './detector.ts';
import type { Frame } from './frame-source.ts';
import type { RasterImage } from './image.ts';
import type { PipelineResult } from './pipeline.ts';
import type { FromWorker, ToWorker, WorkerInit } from './worker-protocol.ts';
import { startTsWorker } from './worker-start.ts';

/** A frame after the pipeline: its result and the frame itself (pixels handed back by the worker). */
export interface ProcessedFrame {
  readonly frame: Frame;
  readonly result: PipelineResult;
  /** Wall time from submission to result, ms (detection, location, tracking and the two hand-overs). */
  readonly processMs: number;
}

/** What the live loop needs from a pipeline: one frame at a time, asynchronously. */
export interface FrameProcessor {
  readonly camera: CameraProfile;
  /** Processes one frame. The frame's pixel buffer is handed over: use the returned frame instead. */
  process(frame: Frame): Promise<ProcessedFrame>;
  dispose(): Promise<void>;
}

const WORKER_URL = new URL('./worker-thread.ts', import.meta.url);

/**
 * The vision pipeline in a worker_threads worker, so detection (100–300 ms at 1080p) never blocks
 * the server's event loop. One frame is in the worker at a time; the caller decides what to do
 * with frames that arrive meanwhile (the live loop keeps only the newest).
 *
 * The worker loads TypeScript through bin/ts.js (see worker-start.ts), under `node bin/vedette.js`, tsx and vitest alike.
 */
export class WorkerPipeline implements FrameProcessor {
  private nextId = 1;
  private readonly pending = new Map<
    number,
    { resolve: (m: FromWorker) => void; reject: (e: Error) => void }
  >();
  private exited: Error | null = null;

  private constructor(
    private readonly worker: Worker,
    readonly camera: CameraProfile,
  ) {
    worker.on('message', (message: FromWorker) => {
      if (message.type !== 'result' && message.type !== 'error') return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      waiter?.resolve(message);
    });
    const fail = (err: Error) => {
      this.exited ??= err;
      for (const waiter of this.pending.values()) waiter.reject(err);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`vision worker exited (code ${code})`)));
  }

  static async create(
    camera: CameraProfile,
    scenario: Scenario,
    detectorOptions: Partial<DetectorOptions> = {},
  ): Promise<WorkerPipeline> {
    const init: WorkerInit = { camera, scenario, detectorOptions };
    const worker = startTsWorker(WORKER_URL, init, 'vedette-vision');
    await new Promise<void>((resolve, reject) => {
      const onMessage = (message: FromWorker) => {
        if (message.type === 'ready') done(null);
        else if (message.type === 'initError') done(new Error(`vision worker: ${message.message}`));
      };
      const onError = (err: Error) => done(err);
      const onExit = (code: number) => done(new Error(`vision worker exited during start-up (code ${code})`));
      const done = (err: Error | null) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (err) {
          void worker.terminate();
          reject(err);
        } else resolve();
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    return new WorkerPipeline(worker, camera);
  }

  async process(frame: Frame): Promise<ProcessedFrame> {
    if (this.exited) throw this.exited;
    const started = performance.now();
    const { width, height, channels } = frame.image;
    const pixels = transferable(frame.image.data);
    const id = this.nextId++;
    const message: ToWorker = {
      type: 'process',
      id,
      frame: { width, height, channels, pixels, capturedAt: frame.capturedAt, sequence: frame.sequence },
    };
    const reply = await new Promise<FromWorker>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(message, [pixels]);
    });
    if (reply.type !== 'result' && reply.type !== 'error') throw new Error('vision worker: unexpected reply');
    const image: RasterImage = { width, height, channels, data: new Uint8Array(reply.pixels) };
    if (reply.type === 'error') throw new Error(reply.message);
    return { frame: { ...frame, image }, result: reply.result, processMs: performance.now() - started };
  }

  async dispose(): Promise<void> {
    this.exited ??= new Error('vision worker disposed');
    await this.worker.terminate();
  }
}

/** The pixels as a whole ArrayBuffer that may be transferred: the frame's own if it owns all of it, else a copy. */
function transferable(data: Uint8Array): ArrayBuffer {
  const buffer = data.buffer;
  if (buffer instanceof ArrayBuffer && data.byteOffset === 0 && data.byteLength === buffer.byteLength)
    return buffer;
  return data.slice().buffer as ArrayBuffer;
}
