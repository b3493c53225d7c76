import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { LiveLoop } from '../../src/server/live-loop.ts';
import type { CameraProfile } from '../../src/camera/profile.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import type { Frame, FrameSource } from '../../src/vision/frame-source.ts';
import { SourceError } from '../../src/vision/sources/source-error.ts';
import type { PipelineResult } from '../../src/vision/pipeline.ts';
import type { FrameProcessor, ProcessedFrame } from '../../src/vision/worker-pipeline.ts';

/**
 * The live loop's contract, with a fake camera and a fake pipeline (no OpenCV): a camera faster
 * than the pipeline loses frames, never queues them; an on-demand source is asked only when
 * the pipeline can take a frame; failures go connecting → retrying → live, or failed.
 */

const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
const camera = { imageWidth: 8, imageHeight: 8 } as CameraProfile;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function tinyFrame(sequence: number): Frame {
  return {
    image: { width: 8, height: 8, channels: 3, data: new Uint8Array(8 * 8 * 3) },
    capturedAt: Date.now(),
    sequence,
  };
}

/** A live camera delivering a frame every `intervalMs`; `next()` resolves with the newest. */
class FakeCamera implements FrameSource {
  readonly name = 'fake camera';
  readonly live: boolean;
  private seq = 0;
  asked = 0;
  failNext = 0;
  permanent = false;
  constructor(
    private readonly intervalMs: number,
    live = true,
  ) {
    this.live = live;
  }
  async next(): Promise<Frame> {
    this.asked++;
    if (this.failNext > 0) {
      this.failNext--;
      throw new SourceError('camera unplugged', this.permanent);
    }
    await sleep(this.intervalMs);
    return tinyFrame(this.seq++);
  }
  async close(): Promise<void> {}
}

class SlowPipeline implements FrameProcessor {
  readonly camera = camera;
  busy = 0;
  maxBusy = 0;
  constructor(private readonly ms: number) {}
  async process(frame: Frame): Promise<ProcessedFrame> {
    this.busy++;
    this.maxBusy = Math.max(this.maxBusy, this.busy);
    await sleep(this.ms);
    this.busy--;
    const result: PipelineResult = {
      sequence: frame.sequence,
      capturedAt: frame.capturedAt,
      detections: [],
      located: { table: null, bases: [], unknownIds: [] } as unknown as PipelineResult['located'],
      bases: [],
      search: { mode: 'full', changedShare: 1, regions: 0 },
      detectionMs: this.ms,
      locateMs: 0,
    };
    return { frame, result, processMs: this.ms };
  }
  async dispose(): Promise<void> {}
}

describe('live loop', () => {
  it('keeps the newest frame when the camera is faster than the pipeline (latest wins)', async () => {
    const source = new FakeCamera(5);
    const pipeline = new SlowPipeline(60);
    const loop = new LiveLoop(scenario, source, pipeline, { minIntervalMs: 0 });
    const latencies: number[] = [];
    loop.on('frame', (f) => latencies.push(f.latencyMs));
    loop.start();
    await sleep(1500);
    await loop.close();
    const s = loop.stats();
    expect(pipeline.maxBusy).toBe(1);
    expect(s.framesProcessed).toBeGreaterThan(5);
    expect(s.framesDropped).toBeGreaterThan(s.framesProcessed);
    // Everything that came in was processed, dropped, or is the one frame waiting.
    expect(s.framesIn - s.framesProcessed - s.framesDropped).toBeLessThanOrEqual(2);
    // No queue: a frame waits at most about one pipeline run (a queue would reach seconds here:
    // hundreds of dropped frames × 60 ms). Generous bound for a busy machine.
    const late = latencies.slice(3);
    expect(Math.max(...late)).toBeLessThan(500);
    console.log(
      `latest wins: camera ~200 fps, pipeline 60 ms: ${s.framesIn} in, ${s.framesProcessed} processed, ${s.framesDropped} dropped; ` +
        `latency max ${Math.max(...late)} ms`,
    );
  });

  it('stops promptly when stopped between two frames (regression: it waited forever)', async () => {
    // A camera slower than the pacing: after a frame the loop pauses with nothing waiting.
    const loop = new LiveLoop(scenario, new FakeCamera(600), new SlowPipeline(5), { minIntervalMs: 500 });
    let frames = 0;
    loop.on('frame', () => frames++);
    loop.start();
    while (frames === 0) await sleep(10);
    await sleep(50); // now pausing out the 500 ms between two pipeline runs, no frame pending
    const started = Date.now();
    await loop.stop();
    expect(Date.now() - started).toBeLessThan(300);
    await loop.close();
  });

  it('asks an on-demand source only when the pipeline can take a frame', async () => {
    const source = new FakeCamera(1, false);
    const pipeline = new SlowPipeline(50);
    const loop = new LiveLoop(scenario, source, pipeline, { minIntervalMs: 0 });
    loop.start();
    await sleep(800);
    await loop.close();
    const s = loop.stats();
    expect(s.framesDropped).toBe(0);
    expect(source.asked).toBeLessThanOrEqual(s.framesProcessed + 2);
  });

  it('goes retrying with growing delays, then live; a permanent failure is final', async () => {
    const source = new FakeCamera(5);
    source.failNext = 3;
    const loop = new LiveLoop(scenario, source, new SlowPipeline(5), {
      minIntervalMs: 0,
      retryBaseMs: 40,
      maxRetryMs: 1000,
    });
    const states: string[] = [];
    loop.on('sourceStatus', (s) =>
      states.push(`${s.state}${s.state === 'retrying' ? ` ${s.attempt} ${s.retryAt! - s.since}` : ''}`),
    );
    expect(loop.sourceStatus().state).toBe('connecting');
    loop.start();
    await sleep(600);
    expect(states).toEqual(['retrying 1 40', 'retrying 2 80', 'retrying 3 160', 'live']);
    source.failNext = 1;
    source.permanent = true;
    await sleep(200);
    expect(loop.sourceStatus()).toMatchObject({ state: 'failed', error: 'camera unplugged' });
    expect(loop.sourceStatus().text).toBe('failed after 1 attempt: camera unplugged');
    await loop.close();
  });
});
