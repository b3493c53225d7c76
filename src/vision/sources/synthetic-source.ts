import type { Worker } from 'node:worker_threads';
import type { CameraProfile } from '../../camera/profile.ts';
import { extrasForFrame, syntheticTableExtras, type ExtrasForFrame } from '../../synth/table-extras.ts';
import type { Scenario } from '../../table/scenario.ts';
import type { Frame, FrameSource } from '../frame-source.ts';
import { startTsWorker } from '../worker-start.ts';
import { SourceError } from './source-error.ts';

export interface SyntheticSourceOptions {
  /** Move one unit slowly forward and back so the page is visibly live. */
  readonly moving: boolean;
  /** Unit that moves (default: the first unit of the second side, i.e. the attackers). */
  readonly movingUnitId?: string;
  readonly resolution?: '720p' | '1080p' | '4k';
}

export interface SynthWorkerInit {
  readonly scenario: Scenario;
  readonly resolution: '720p' | '1080p' | '4k';
  readonly movingUnitId: string | undefined;
}

export type ToSynthWorker = RenderRequest | { readonly type: 'recycle'; readonly pixels: ArrayBuffer };

export type RenderRequest = {
  readonly type: 'render';
  readonly id: number;
  readonly moving: boolean;
  readonly timeMs: number;
  readonly noiseKey: number;
  /** Loose bases and a calibration board put on the table since the renderer last heard (main-thread state). */
  readonly extras: ExtrasForFrame;
};

export type FromSynthWorker =
  | { readonly type: 'ready'; readonly profile: CameraProfile }
  | { readonly type: 'initError'; readonly message: string }
  | {
      readonly type: 'frame';
      readonly id: number;
      readonly width: number;
      readonly height: number;
      readonly pixels: ArrayBuffer;
    }
  | { readonly type: 'error'; readonly id: number; readonly message: string };

/** The unit that walks in the demo: the first unit whose side differs from the first unit's. */
export function defaultMovingUnit(scenario: Scenario): string | undefined {
  const firstSide = scenario.units[0]?.side;
  return (scenario.units.find((u) => u.side !== firstSide) ?? scenario.units[0])?.id;
}

const WORKER_URL = new URL('./synthetic-worker.ts', import.meta.url);

/** A frame rendered ahead is handed out only this soon after it was asked for (ms). */
const MAX_AHEAD_AGE_MS = 200;

/**
 * The built-in synthetic table as a camera: every frame rendered with known truth
 * (LiveSyntheticTable), in its own worker thread so rendering never blocks the server.
 * Frames are made on request (not live): the live loop asks only when the pipeline can take one.
 */
export class SyntheticSource implements FrameSource {
  readonly name = 'synthetic table';
  private sequence = 0;
  private nextId = 1;
  /** The demo's clock: a frame captured at t shows the renderer's poses at t − startedAt (bench/live.ts reads it for truth). */
  readonly startedAt = Date.now();
  private readonly pending = new Map<
    number,
    { resolve: (f: FromSynthWorker) => void; reject: (e: Error) => void }
  >();
  private closed: Error | null = null;
  /** Version of the table extras the worker has already been sent. */
  private extrasVersion = -1;
  /** The frame being rendered ahead of the caller's next request. */
  private ahead: { readonly requestedAt: number; readonly frame: Promise<Frame> } | null = null;

  private constructor(
    private readonly worker: Worker,
    readonly camera: CameraProfile,
    private readonly moving: boolean,
  ) {
    worker.on('message', (message: FromSynthWorker) => {
      if (message.type !== 'frame' && message.type !== 'error') return;
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      waiter?.resolve(message);
    });
    const fail = (err: Error) => {
      this.closed ??= new SourceError(`synthetic table: ${err.message}`);
      for (const w of this.pending.values()) w.reject(this.closed);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`renderer exited (code ${code})`)));
  }

  static async create(scenario: Scenario, options: SyntheticSourceOptions): Promise<SyntheticSource> {
    const init: SynthWorkerInit = {
      scenario,
      resolution: options.resolution ?? '1080p',
      movingUnitId: options.movingUnitId ?? defaultMovingUnit(scenario),
    };
    const worker = startTsWorker(WORKER_URL, init, 'vedette-synthetic');
    const profile = await new Promise<CameraProfile>((resolve, reject) => {
      const onMessage = (m: FromSynthWorker) => {
        if (m.type === 'ready') done(null, m.profile);
        else if (m.type === 'initError') done(new Error(`synthetic table: ${m.message}`));
      };
      const onError = (err: Error) => done(err);
      const onExit = (code: number) =>
        done(new Error(`synthetic table renderer exited during start-up (code ${code})`));
      const done = (err: Error | null, p?: CameraProfile) => {
        worker.off('message', onMessage);
        worker.off('error', onError);
        worker.off('exit', onExit);
        if (err || !p) {
          void worker.terminate();
          reject(err ?? new Error('no profile'));
        } else resolve(p);
      };
      worker.on('message', onMessage);
      worker.on('error', onError);
      worker.on('exit', onExit);
    });
    return new SyntheticSource(worker, profile, options.moving);
  }

  /**
   * The next frame. While the caller works on one frame the worker already renders the next
   * (render and detection overlap on two cores); a frame rendered too long ago is not handed out.
   */
  async next(): Promise<Frame> {
    if (this.closed) throw this.closed;
    const ahead = this.ahead;
    this.ahead = null;
    let frame: Frame | null = null;
    if (ahead && Date.now() - ahead.requestedAt <= MAX_AHEAD_AGE_MS) frame = await ahead.frame;
    frame ??= await this.render();
    if (!this.closed) {
      const next = { requestedAt: Date.now(), frame: this.render() };
      next.frame.catch(() => undefined); // a failure is reported by the call that takes it
      this.ahead = next;
    }
    return frame;
  }

  private async render(): Promise<Frame> {
    if (this.closed) throw this.closed;
    const capturedAt = Date.now();
    const sequence = this.sequence++;
    const id = this.nextId++;
    // Still tables still get fresh sensor noise each frame, as a real camera would.
    const request: RenderRequest = {
      type: 'render',
      id,
      moving: this.moving,
      timeMs: capturedAt - this.startedAt,
      noiseKey: sequence,
      extras: extrasForFrame(syntheticTableExtras, this.extrasVersion, sequence),
    };
    this.extrasVersion = request.extras.version;
    const reply = await new Promise<FromSynthWorker>((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage(request);
    });
    if (reply.type === 'error') throw new SourceError(`synthetic table: ${reply.message}`);
    if (reply.type !== 'frame') throw new SourceError('synthetic table: unexpected reply');
    const image = {
      width: reply.width,
      height: reply.height,
      channels: 3 as const,
      data: new Uint8Array(reply.pixels),
    };
    return { image, capturedAt, sequence };
  }

  /** Gives a frame's pixels back to the renderer (transferred), which draws a later frame into them. */
  recycle(pixels: Uint8Array): void {
    const buffer = pixels.buffer;
    if (this.closed || !(buffer instanceof ArrayBuffer) || buffer.byteLength === 0) return;
    if (pixels.byteOffset !== 0 || pixels.byteLength !== buffer.byteLength) return;
    const message: ToSynthWorker = { type: 'recycle', pixels: buffer };
    this.worker.postMessage(message, [buffer]);
  }

  async close(): Promise<void> {
    this.closed ??= new SourceError('synthetic table closed', true);
    for (const w of this.pending.values()) w.reject(this.closed);
    this.pending.clear();
    await this.worker.terminate();
  }
}
