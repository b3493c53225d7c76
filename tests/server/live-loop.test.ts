import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import { LiveLoop } from '../../src/server/live-loop.ts';
import { until } from './server-harness.ts';
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

function tinyFrame(sequence: number, size = 8): Frame {
  return {
    image: { width: size, height: size, channels: 3, data: new Uint8Array(size * size * 3) },
    capturedAt: Date.now(),
    sequence,
  };
}

/**
 * A camera delivering a frame every `intervalMs`. Live: frames come by the clock whether asked or
 * not, `next()` resolves with the newest one not yet handed out (waiting for the next tick when
 * there is none) and the ones it skipped are `dropped`. On demand: each `next()` makes one.
 */
class FakeCamera implements FrameSource {
  readonly name = 'fake camera';
  readonly live: boolean;
  private seq = 0;
  private readonly startedAt = Date.now();
  /** The clock's tick of the last frame handed out. */
  private lastTick = -1;
  dropped = 0;
  asked = 0;
  failNext = 0;
  permanent = false;
  /** Side of the frames it sends (the pipeline's camera is 8 × 8). */
  size = 8;
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
    if (!this.live) {
      await sleep(this.intervalMs);
      return tinyFrame(this.seq++, this.size);
    }
    let tick = Math.floor((Date.now() - this.startedAt) / this.intervalMs);
    if (tick <= this.lastTick) {
      await sleep((this.lastTick + 1) * this.intervalMs - (Date.now() - this.startedAt));
      tick = Math.max(this.lastTick + 1, Math.floor((Date.now() - this.startedAt) / this.intervalMs));
    }
    this.dropped += Math.max(0, tick - this.lastTick - 1);
    this.lastTick = tick;
    const frame = tinyFrame(this.seq++, this.size);
    return { ...frame, capturedAt: this.startedAt + tick * this.intervalMs };
  }
  async close(): Promise<void> {}
}

class SlowPipeline implements FrameProcessor {
  readonly camera = camera;
  busy = 0;
  maxBusy = 0;
  /** Frames it was given. */
  started = 0;
  /** When the last run ended, and by how much each frame predates the end of the run before it (ms). */
  private lastEnd = 0;
  readonly agedThroughRun: number[] = [];
  constructor(private readonly ms: number) {}
  async process(frame: Frame): Promise<ProcessedFrame> {
    if (this.lastEnd > 0) this.agedThroughRun.push(this.lastEnd - frame.capturedAt);
    this.started++;
    this.busy++;
    this.maxBusy = Math.max(this.maxBusy, this.busy);
    await sleep(this.ms);
    this.busy--;
    this.lastEnd = Date.now();
    const result: PipelineResult = {
      sequence: frame.sequence,
      capturedAt: frame.capturedAt,
      detections: [],
      located: { table: null, bases: [], unknownIds: [] } as unknown as PipelineResult['located'],
      bases: [],
      search: {
        mode: 'full',
        changedShare: 1,
        regions: 0,
        stillRemeasures: { coarse: 0, routine: 0, stepped: 0 },
      },
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
    await until('nine frames out', () => latencies.length > 8, 30_000, 10);
    await loop.close();
    const s = loop.stats();
    expect(pipeline.maxBusy).toBe(1);
    expect(s.framesProcessed).toBeGreaterThan(5);
    expect(s.framesDropped).toBeGreaterThan(s.framesProcessed);
    // Everything that came in was processed, dropped, or is the one frame waiting.
    expect(s.framesIn - s.framesProcessed - s.framesDropped).toBeLessThanOrEqual(2);
    // The camera was asked only when the slot was free: no frame was taken only to be dropped.
    expect(source.asked).toBeLessThanOrEqual(s.framesProcessed + 2);
    expect(s.framesDropped).toBe(source.dropped);
    // Taken when the pipeline was free: no frame was captured more than a camera tick (5 ms)
    // before the previous run ended, i.e. none waited through a run.
    expect(Math.max(...pipeline.agedThroughRun)).toBeLessThanOrEqual(5);
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
    await until('nine frames in the pipeline', () => pipeline.started > 8, 30_000, 10);
    await loop.close();
    const s = loop.stats();
    expect(s.framesDropped).toBe(0);
    // Every frame asked for went to the pipeline, but for the one rendered ahead (waiting, or being
    // rendered when the loop stopped). Counted at the pipeline, not by frames sent: a loop stopping
    // under load may still have one frame in its JPEG and one in the pipeline, and sends neither.
    expect(source.asked).toBeLessThanOrEqual(pipeline.started + 1);
    expect(pipeline.started).toBeGreaterThan(5);
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

  it('issue 15.4: a live source that stops delivering is stalled within 2.5 s, and live with its next frame', async () => {
    const source = new PausableCamera();
    const loop = new LiveLoop(scenario, source, new SlowPipeline(5), { minIntervalMs: 0 });
    const seen: Array<{ state: string; at: number }> = [];
    loop.on('sourceStatus', (s) => seen.push({ state: s.state, at: Date.now() }));
    loop.start();
    await sleep(300);
    expect(loop.sourceStatus().state).toBe('live');
    source.paused = true;
    const deadline = Date.now() + 5000;
    while (loop.sourceStatus().state !== 'stalled' && Date.now() < deadline) await sleep(20);
    const stalled = seen.find((s) => s.state === 'stalled');
    expect(stalled, `states: ${seen.map((s) => s.state).join(' → ')}`).toBeDefined();
    const silentFor = stalled!.at - source.lastDeliveredAt;
    console.log(`stalled reported ${silentFor} ms after the last frame`);
    expect(silentFor).toBeGreaterThanOrEqual(2000);
    expect(silentFor).toBeLessThanOrEqual(2500);
    expect(loop.sourceStatus().text).toMatch(/^stalled: no frame for 2\.\d s$/);
    source.resume();
    await sleep(100);
    expect(loop.sourceStatus().state).toBe('live');
    await loop.close();
  });

  it('issue 15.4: a camera back after a minute away is live again within 3 s (back-off capped)', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'Date'] });
    try {
      const source = new FakeCamera(5);
      source.failNext = Number.POSITIVE_INFINITY; // unplugged: every attempt fails at once
      const loop = new LiveLoop(scenario, source, new SlowPipeline(5), { minIntervalMs: 0 }); // default back-off
      const delays: number[] = [];
      loop.on('sourceStatus', (s) => {
        if (s.state === 'retrying') delays.push(s.retryAt! - s.since);
      });
      loop.start();
      await vi.advanceTimersByTimeAsync(60_000);
      expect(loop.sourceStatus().state).toBe('retrying');
      expect(Math.max(...delays)).toBeLessThanOrEqual(2000);
      source.failNext = 0; // plugged back in
      const back = Date.now();
      let liveAfter: number | null = null;
      for (let t = 0; t <= 3000 && liveAfter === null; t += 50) {
        await vi.advanceTimersByTimeAsync(50);
        if (loop.sourceStatus().state === 'live') liveAfter = Date.now() - back;
      }
      console.log(
        `back-off: ${delays.length} attempts in 60 s, longest wait ${Math.max(...delays)} ms; live ${liveAfter} ms after the camera returned`,
      );
      expect(liveAfter).not.toBeNull();
      expect(liveAfter!).toBeLessThanOrEqual(3000);
      const closing = loop.close();
      await vi.advanceTimersByTimeAsync(100);
      await closing;
    } finally {
      vi.useRealTimers();
    }
  });

  it("sends frames out in order, each with its JPEG, and gives every frame's pixels back to the source once", async () => {
    const source = new FakeCamera(1, false);
    const given: Uint8Array[] = [];
    const made = new Map<number, Uint8Array>();
    const make = source.next.bind(source);
    const recycling: FrameSource = Object.assign(source, {
      next: async () => {
        const frame = await make();
        made.set(frame.sequence, frame.image.data);
        return frame;
      },
      recycle: (p: Uint8Array) => given.push(p),
    });
    // The JPEG of each frame is made (asked for in its event) while the pipeline takes the next one.
    const loop = new LiveLoop(scenario, recycling, new SlowPipeline(15), { minIntervalMs: 0 });
    const sent: { sequence: number; jpeg: Promise<Buffer> }[] = [];
    loop.on('frame', (f) => sent.push({ sequence: f.snapshot.result.sequence, jpeg: f.picture.jpeg() }));
    loop.start();
    await sleep(500);
    await until('nine frames sent', () => sent.length > 8, 30_000, 10);
    await loop.close();
    expect(sent.length).toBeGreaterThan(5);
    for (let i = 1; i < sent.length; i++) expect(sent[i]!.sequence).toBeGreaterThan(sent[i - 1]!.sequence);
    for (const { jpeg } of sent) expect((await jpeg).subarray(0, 2)).toEqual(Buffer.from([0xff, 0xd8]));
    // Every frame sent was given back, each buffer once, and only buffers the source made.
    const givenSet = new Set(given);
    expect(givenSet.size).toBe(given.length);
    for (const { sequence } of sent) expect(givenSet.has(made.get(sequence)!)).toBe(true);
    const madeSet = new Set(made.values());
    for (const p of given) expect(madeSet.has(p)).toBe(true);
    // Frames given back but not sent are only those in flight when the loop stopped: at most one in
    // its JPEG and one in the pipeline (close waits for both; neither goes out once stopping).
    expect(given.length).toBeLessThanOrEqual(sent.length + 2);
  });

  it('issue 15.4: frames of another size than the camera profile fail the source, naming both sizes', async () => {
    const source = new FakeCamera(5);
    source.size = 16;
    const loop = new LiveLoop(scenario, source, new SlowPipeline(5), { minIntervalMs: 0 });
    loop.start();
    await sleep(300);
    const s = loop.sourceStatus();
    expect(s.state).toBe('failed');
    expect(s.error).toMatch(/sends 16×16 frames but the camera profile is for 8×8/);
    expect(source.asked).toBe(1); // not retried: another try would bring the same size
    expect(loop.stats().framesFailed).toBe(0);
    await loop.close();
  });
});

/** A live camera that can be paused (it simply stops sending, as a frozen USB camera does). */
class PausableCamera implements FrameSource {
  readonly name = 'pausable camera';
  readonly live = true;
  paused = false;
  lastDeliveredAt = 0;
  private seq = 0;
  private wake: (() => void) | null = null;
  async next(): Promise<Frame> {
    await sleep(20);
    while (this.paused) await new Promise<void>((r) => (this.wake = r));
    this.lastDeliveredAt = Date.now();
    return tinyFrame(this.seq++);
  }
  resume(): void {
    this.paused = false;
    this.wake?.();
  }
  async close(): Promise<void> {
    this.resume();
  }
}
