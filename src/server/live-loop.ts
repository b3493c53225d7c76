import { EventEmitter } from 'node:events';
import type { Scenario } from '../table/scenario.ts';
import type { Frame, FrameSource } from '../vision/frame-source.ts';
import { isPermanent } from '../vision/sources/source-error.ts';
import type { FrameProcessor, ProcessedFrame } from '../vision/worker-pipeline.ts';
import { FramePicture } from '../vision/frame-picture.ts';
import { snapshotOf, type LiveSnapshot } from './live-state.ts';
import { RunPacer } from './run-pacer.ts';
import type { SourceStatus } from './protocol.ts';
import { sleep } from './abortable-sleep.ts';
import { DEFAULT_LIVE_LOOP_OPTIONS, type LiveLoopOptions } from './live-loop-options.ts';
import { RollingWindow, type LiveStats } from './live-stats.ts';

export type { SourceState, SourceStatus } from './protocol.ts';

export interface LiveFrame {
  /** The frame's picture: JPEGs of it are made when asked (the newest frame's, or in its `frame` event). */
  readonly picture: FramePicture;
  readonly snapshot: LiveSnapshot;
  /** Capture to the frame's results ready (the pipeline and its hand-overs), ms. */
  readonly latencyMs: number;
}

export interface LiveLoopEvents {
  frame: [LiveFrame];
  sourceError: [Error];
  sourceStatus: [SourceStatus];
}

/**
 * The live loop: two small loops around a one-frame slot.
 *
 * - Capture pulls a frame from a live camera only when the slot is empty and the pipeline is free
 *   to take it, so no frame is decoded only to be thrown away or to wait through a pipeline run: the
 *   camera keeps only its newest picture meanwhile (and, at most once a quarter second, the one
 *   before it to catch up after a slow run) and decodes it when asked (the frames it skipped are
 *   its `dropped`, counted here as dropped). A source that makes frames on request
 *   (the synthetic table) is asked whenever the slot is empty, so it renders the next frame while
 *   the pipeline works on this one.
 * - Process takes the slot's frame, runs the pipeline (in a worker thread) and emits the frame's
 *   picture with its snapshot; readers make the JPEGs they want of it off the event loop (sharp),
 *   while the pipeline already works on the next frame (frames still go out one at a time, in order).
 *
 * A source failure is retried with exponential back-off; its state is kept in `sourceStatus()`:
 * `connecting` → `live`; `stalled` when no frame came for `stallAfterMs` (back to `live` with the
 * next one); `retrying` after a failure; `failed` when retrying cannot help (a file that does not
 * exist, frames of another size than the camera profile's).
 */
export class LiveLoop extends EventEmitter<LiveLoopEvents> {
  private running = false;
  private abort = new AbortController();
  private captureDone: Promise<void> = Promise.resolve();
  private processDone: Promise<void> = Promise.resolve();
  private pending: Frame | null = null;
  private wakeProcess: (() => void) | null = null;
  private wakeCapture: (() => void) | null = null;
  /** The pipeline is working on a frame. */
  private pipelineBusy = false;
  private readonly pipelineFree = (): void => {
    this.pipelineBusy = false;
    this.wakeCapture?.();
  };
  private status: Omit<SourceStatus, 'retryInMs' | 'text'>;
  private readonly options: LiveLoopOptions;
  private counts = { framesIn: 0, framesProcessed: 0, framesDropped: 0, framesFailed: 0 };
  private detection = new RollingWindow();
  private latency = new RollingWindow();
  private processedAt: number[] = [];
  /** The last pipeline runs' wall times (ms), to tell a live source when the pipeline will be free. */
  private recentRunsMs: number[] = [];
  private lastFailureReport = 0;
  /** When the capture loop began waiting for the source's next frame (null: not waiting). */
  private waitingSince: number | null = null;
  private stallTimer: NodeJS.Timeout | null = null;
  latest: LiveFrame | undefined;

  constructor(
    private scenario: Scenario,
    private source: FrameSource,
    private pipeline: FrameProcessor,
    options: Partial<LiveLoopOptions> = {},
  ) {
    super();
    this.options = { ...DEFAULT_LIVE_LOOP_OPTIONS, ...options };
    this.status = this.initialStatus();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.abort = new AbortController();
    this.captureDone = this.capture(this.source, this.abort.signal);
    this.processDone = this.process(this.abort.signal);
    this.stallTimer = setInterval(() => this.checkStall(), Math.min(100, this.options.stallAfterMs / 4));
    this.stallTimer.unref();
  }

  /**
   * Stops processing. The capture loop ends once its source answers; `close()` and `replace()`
   * close the source first so that it does.
   */
  async stop(): Promise<void> {
    this.running = false;
    this.abort.abort();
    if (this.stallTimer) clearInterval(this.stallTimer);
    this.stallTimer = null;
    this.waitingSince = null;
    this.wakeProcess?.();
    this.wakeCapture?.();
    await this.processDone;
  }

  /** Stops for good and releases the source and the pipeline. */
  async close(): Promise<void> {
    await this.stop();
    // The newest frame's pixels go back too (once any JPEG being made of them is done).
    this.latest?.picture.retire();
    await this.source.close();
    await this.captureDone;
    await this.pipeline.dispose();
  }

  /** Swaps scenario, source and pipeline between two frames. */
  async replace(scenario: Scenario, source: FrameSource, pipeline: FrameProcessor): Promise<void> {
    const wasRunning = this.running;
    await this.stop();
    await this.source.close();
    await this.captureDone;
    await this.pipeline.dispose();
    this.scenario = scenario;
    this.source = source;
    this.pipeline = pipeline;
    this.pending = null;
    this.pipelineBusy = false;
    this.latest?.picture.retire();
    this.latest = undefined;
    // Figures describe the camera being watched now.
    this.counts = { framesIn: 0, framesProcessed: 0, framesDropped: 0, framesFailed: 0 };
    this.detection = new RollingWindow();
    this.latency = new RollingWindow();
    this.processedAt = [];
    this.recentRunsMs = [];
    this.setStatus(this.initialStatus());
    if (wasRunning) this.start();
  }

  /**
   * Swaps the scenario only, between two frames: for changes the camera does not see (terrain,
   * names), which need no new source or vision worker (see sameForVision). The next frame's
   * snapshot is built against it.
   */
  setScenario(scenario: Scenario): void {
    this.scenario = scenario;
  }

  get sourceName(): string {
    return this.source.name;
  }

  /** The source being read now (tests reach its ffmpeg process through it). */
  /** JPEG quality of the pictures this loop makes (pages sent scaled pictures get the same). */
  get jpegQuality(): number {
    return this.options.jpegQuality;
  }

  get currentSource(): FrameSource {
    return this.source;
  }

  sourceStatus(now = Date.now()): SourceStatus {
    const s = this.status;
    const retryInMs = s.retryAt === null ? null : Math.max(0, s.retryAt - now);
    let text: string = s.state;
    if (s.state === 'retrying')
      text = `retrying (attempt ${s.attempt}, next in ${Math.ceil((retryInMs ?? 0) / 1000)} s)`;
    if (s.state === 'failed') text = `failed after ${s.attempt} attempt${s.attempt === 1 ? '' : 's'}`;
    if (s.state === 'stalled') text = 'stalled';
    if (s.error && s.state !== 'live') text += `: ${s.error}`;
    return { ...s, retryInMs, text };
  }

  stats(now = Date.now()): LiveStats {
    this.processedAt = this.processedAt.filter((t) => now - t <= 10_000);
    const span = this.processedAt.length > 1 ? (now - this.processedAt[0]!) / 1000 : 0;
    // Frames the source skipped (newer ones came before the slot was free) were never decoded.
    const skipped = this.source.dropped ?? 0;
    return {
      ...this.counts,
      framesIn: this.counts.framesIn + skipped,
      framesDropped: this.counts.framesDropped + skipped,
      processedFps: span > 0 ? (this.processedAt.length - 1) / span : 0,
      detectionMs: this.detection.figure(),
      latencyMs: this.latency.figure(),
    };
  }

  private initialStatus(): Omit<SourceStatus, 'retryInMs' | 'text'> {
    return {
      name: this.source.name,
      state: 'connecting',
      attempt: 0,
      retryAt: null,
      error: null,
      since: Date.now(),
    };
  }

  private setStatus(next: Omit<SourceStatus, 'retryInMs' | 'text'>): void {
    this.status = next;
    this.emit('sourceStatus', this.sourceStatus());
  }

  /** A source that was live and has sent nothing for `stallAfterMs` is `stalled` (until its next frame). */
  private checkStall(now = Date.now()): void {
    const since = this.waitingSince;
    if (since === null || this.status.state !== 'live' || now - since < this.options.stallAfterMs) return;
    this.setStatus({
      name: this.status.name,
      state: 'stalled',
      attempt: 0,
      retryAt: null,
      error: `no frame for ${((now - since) / 1000).toFixed(1)} s`,
      since: now,
    });
  }

  /** Why a frame cannot be watched with this camera profile (its size), or null. */
  private sizeProblem(source: FrameSource, frame: Frame): string | null {
    const { imageWidth, imageHeight } = this.pipeline.camera;
    const { width, height } = frame.image;
    if (width === imageWidth && height === imageHeight) return null;
    return `${source.name} sends ${width}×${height} frames but the camera profile is for ${imageWidth}×${imageHeight}: use a profile of this size (or make the camera send ${imageWidth}×${imageHeight})`;
  }

  private async capture(source: FrameSource, signal: AbortSignal): Promise<void> {
    while (this.running && !signal.aborted) {
      // A live camera's frame is decoded only when the pipeline is free to take it at once (a frame
      // decoded ahead would wait a whole pipeline run); an on-demand source renders one ahead.
      if (this.pending || (source.live && this.pipelineBusy)) {
        await new Promise<void>((resolve) => (this.wakeCapture = resolve));
        this.wakeCapture = null;
        continue;
      }
      let frame: Frame;
      this.waitingSince = Date.now();
      try {
        frame = await source.next();
        this.waitingSince = null;
      } catch (err) {
        this.waitingSince = null;
        if (signal.aborted) return;
        const error = err instanceof Error ? err : new Error(String(err));
        const attempt = this.status.state === 'live' ? 1 : this.status.attempt + 1;
        this.emit('sourceError', error);
        if (isPermanent(err) || attempt >= this.options.maxAttempts) {
          this.setStatus({
            name: source.name,
            state: 'failed',
            attempt,
            retryAt: null,
            error: error.message,
            since: Date.now(),
          });
          return;
        }
        const delay = Math.min(this.options.maxRetryMs, this.options.retryBaseMs * 2 ** (attempt - 1));
        const now = Date.now();
        this.setStatus({
          name: source.name,
          state: 'retrying',
          attempt,
          retryAt: now + delay,
          error: error.message,
          since: now,
        });
        await sleep(delay, signal);
        continue;
      }
      if (signal.aborted) return;
      const wrongSize = this.sizeProblem(source, frame);
      if (wrongSize) {
        // Every frame would fail in the pipeline: retrying cannot help, the profile or camera must change.
        this.emit('sourceError', new Error(wrongSize));
        this.setStatus({
          name: source.name,
          state: 'failed',
          attempt: this.status.attempt + 1,
          retryAt: null,
          error: wrongSize,
          since: Date.now(),
        });
        return;
      }
      if (this.status.state !== 'live') {
        this.setStatus({
          name: source.name,
          state: 'live',
          attempt: 0,
          retryAt: null,
          error: null,
          since: Date.now(),
        });
      }
      this.counts.framesIn++;
      this.pending = frame;
      this.wakeProcess?.();
    }
  }

  private async process(signal: AbortSignal): Promise<void> {
    const pacer = new RunPacer(this.options.minIntervalMs);
    // The previous frame's JPEG and message, made while the pipeline takes the next frame.
    let finishing: Promise<void> = Promise.resolve();
    try {
      while (this.running && !signal.aborted) {
        const gap = pacer.waitMs(Date.now());
        if (gap > 0) await sleep(gap, signal);
        // Stopped while asleep: stop() found nobody to wake, so do not wait to be woken.
        if (signal.aborted) return;
        if (!this.pending) {
          await new Promise<void>((resolve) => (this.wakeProcess = resolve));
          this.wakeProcess = null;
          continue;
        }
        const frame = this.pending;
        this.pending = null;
        this.pipelineBusy = true;
        this.wakeCapture?.();
        const startedAt = Date.now();
        pacer.started(startedAt);
        try {
          const processed = this.pipeline.process(frame);
          // Free again (also when it failed): a live camera may decode its newest frame now.
          void processed.then(this.pipelineFree, this.pipelineFree);
          // …or, better, just before: its decode then overlaps the end of this run.
          if (this.source.live) this.source.prepare?.(startedAt + this.expectedRunMs());
          const done = await processed;
          this.recentRunsMs.push(done.processMs);
          if (this.recentRunsMs.length > 5) this.recentRunsMs.shift();
          // One frame finishes at a time and in order: the one before has gone out first.
          await finishing;
          finishing = this.finish(frame, done, signal);
        } catch (err) {
          if (signal.aborted) return;
          this.failed(err);
        }
      }
    } finally {
      await finishing;
    }
  }

  /**
   * How long the next run should take: the median of the last five (a whole-frame search now and
   * then runs longer; a picture prepared for a shorter run is then replaced by a newer one).
   */
  private expectedRunMs(): number {
    if (this.recentRunsMs.length === 0) return 0;
    const sorted = [...this.recentRunsMs].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)]!;
  }

  /**
   * The frame out to the pages with its picture. No JPEG is made here: the readers ask the
   * picture for the sizes they want (frame-picture.ts), and its pixels go back to the source when
   * a newer frame replaces it and nothing reads them any more.
   */
  private async finish(frame: Frame, processed: ProcessedFrame, signal: AbortSignal): Promise<void> {
    const { frame: back, result } = processed;
    try {
      const source = this.source;
      const picture = FramePicture.ofFrame(
        back.image,
        back.jpeg ? Buffer.from(back.jpeg.buffer, back.jpeg.byteOffset, back.jpeg.byteLength) : null,
        this.options.jpegQuality,
        (pixels) => source.recycle?.(pixels.data),
      );
      if (signal.aborted) {
        picture.retire();
        return;
      }
      const latencyMs = Date.now() - frame.capturedAt;
      this.counts.framesProcessed++;
      this.processedAt.push(Date.now());
      this.detection.push(result.detectionMs);
      this.latency.push(latencyMs);
      const previous = this.latest;
      this.latest = { picture, snapshot: snapshotOf(this.scenario, result), latencyMs };
      this.emit('frame', this.latest);
      previous?.picture.retire();
    } catch (err) {
      if (signal.aborted) return;
      this.failed(err);
    }
  }

  /** A frame the pipeline refuses (wrong size…) is counted, and said at most once every 5 s. */
  private failed(err: unknown): void {
    this.counts.framesFailed++;
    if (Date.now() - this.lastFailureReport > 5000) {
      this.lastFailureReport = Date.now();
      this.emit('sourceError', err instanceof Error ? err : new Error(String(err)));
    }
  }
}
