import { EventEmitter } from 'node:events';
import sharp from 'sharp';
import type { Scenario } from '../table/scenario.ts';
import type { FrameSource } from '../vision/frame-source.ts';
import type { VisionPipeline } from '../vision/pipeline.ts';
import { snapshotOf, type LiveSnapshot } from './live-state.ts';

export interface LiveFrame {
  readonly jpeg: Buffer;
  readonly snapshot: LiveSnapshot;
}

export interface LiveLoopEvents {
  frame: [LiveFrame];
  sourceError: [Error];
}

/**
 * Pulls frames from a source as fast as they can be processed (never queueing: the next
 * frame is asked for only when the last one is done), runs the vision pipeline, and emits the
 * JPEG picture with its snapshot. A source error is reported and retried after a pause.
 */
export class LiveLoop extends EventEmitter<LiveLoopEvents> {
  private running = false;
  private stopped: Promise<void> = Promise.resolve();
  latest: LiveFrame | undefined;

  constructor(
    private scenario: Scenario,
    private source: FrameSource,
    private pipeline: VisionPipeline,
    private readonly minIntervalMs = 100,
    private readonly jpegQuality = 80,
  ) {
    super();
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopped = this.run();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.stopped;
  }

  /** Stops for good and releases the source and the pipeline. */
  async close(): Promise<void> {
    await this.stop();
    await this.source.close();
    this.pipeline.dispose();
  }

  /** Swaps scenario, source and pipeline between two frames. */
  async replace(scenario: Scenario, source: FrameSource, pipeline: VisionPipeline): Promise<void> {
    const wasRunning = this.running;
    await this.stop();
    await this.source.close();
    this.pipeline.dispose();
    this.scenario = scenario;
    this.source = source;
    this.pipeline = pipeline;
    this.latest = undefined;
    if (wasRunning) this.start();
  }

  private async run(): Promise<void> {
    let failures = 0;
    while (this.running) {
      const started = Date.now();
      try {
        const frame = await this.source.next();
        const result = this.pipeline.process(frame);
        const { width, height, channels, data } = frame.image;
        const jpeg = await sharp(data, { raw: { width, height, channels } }).jpeg({ quality: this.jpegQuality }).toBuffer();
        this.latest = { jpeg, snapshot: snapshotOf(this.scenario, result) };
        this.emit('frame', this.latest);
        failures = 0;
      } catch (err) {
        failures++;
        this.emit('sourceError', err instanceof Error ? err : new Error(String(err)));
        await sleep(Math.min(5000, 250 * 2 ** Math.min(failures, 5)));
      }
      const wait = this.minIntervalMs - (Date.now() - started);
      await sleep(Math.max(wait, 1));
    }
  }
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
