import type { Worker } from 'node:worker_threads';
import {
  CandidatePass,
  type CandidatePassOptions,
  type CandidatePassResult,
  passTuning,
  type PassTuning,
} from './candidate-pass.ts';
import type { Quad } from './candidates.ts';
import { loadOpenCV, type OpenCV } from './opencv.ts';
import { startTsWorker } from './worker-start.ts';

/**
 * The candidate pass on two cores: the top of the frame in a helper thread, the bottom here, at
 * the same time. OpenCV.js runs single-threaded WebAssembly; native OpenCV spreads the same work
 * over its thread pool, so this is what keeps a full-frame pass near native cost.
 *
 * The call stays synchronous (the pipeline is a plain function of a frame): the top rows go to the
 * helper through shared memory, and this thread waits on an Atomics word for its quads. The two
 * halves overlap by more than the largest marker, and each keeps the quads whose centre lies in
 * its own half, so every quad is found whole exactly once.
 */

/** Largest frame the shared buffer holds (4K); larger frames use one thread. */
const MAX_PIXELS = 3840 * 1300;
const MAX_QUADS = 4096;
const FLOATS_PER_QUAD = 9; // id (or −1) and four corners

/** States of the shared control word. */
export const SplitState = { Idle: 0, Job: 1, Done: 2, Failed: 3, Stop: 4 } as const;

/** What the helper thread is started with. */
export interface SplitWorkerData {
  readonly options: CandidatePassOptions;
  readonly control: SharedArrayBuffer;
  readonly pixels: SharedArrayBuffer;
  readonly quads: SharedArrayBuffer;
}

/**
 * Control words: state, width, rows, quads read, quads unread, then the job's tuning: smallest
 * perimeter rate × 10⁶, threshold window (px), threshold constant (grey levels), smallest
 * distance to the border (px); and the helper's time for its last job (µs).
 */
export const CONTROL_WORDS = 10;
/** Control word with the helper's time for its last job, µs. */
export const HELPER_MICROS = 9;

/**
 * The top part's share of the rows is moved towards equal time on both threads: the two halves
 * of a frame cost differently (a tilted camera puts the far table and the floor, dense in
 * contours, at the top; the machine's other work may slow one thread). Bounds keep each part
 * far larger than the overlap; the step halves the gap each frame so one odd frame moves it little.
 */
const SHARE_BOUNDS = [0.3, 0.7] as const;
const SHARE_STEP = 0.5;

/**
 * The helper's next share of a whole frame's rows: half-way towards the share at which both
 * threads would take equal time at these costs per row (ms), within SHARE_BOUNDS. Unmeasured
 * costs (0, NaN) leave the share where it is, bounded.
 */
export function balancedShare(share: number, topMsPerRow: number, bottomMsPerRow: number): number {
  const even = bottomMsPerRow / (topMsPerRow + bottomMsPerRow);
  const next = topMsPerRow > 0 && bottomMsPerRow > 0 ? share + SHARE_STEP * (even - share) : share;
  return Math.min(SHARE_BOUNDS[1], Math.max(SHARE_BOUNDS[0], next));
}

/** Writes a job's tuning into the control words (the helper reads it back with tuningOf). */
function writeTuning(control: Int32Array, t: PassTuning): void {
  control[5] = Math.round(t.minPerimeterRate * 1e6);
  control[6] = t.thresholdWindowPx;
  control[7] = t.thresholdConstant;
  control[8] = t.minDistanceToBorderPx;
}

/** The tuning of the job in the control words. */
export function tuningOf(control: Int32Array): PassTuning {
  return {
    minPerimeterRate: control[5]! / 1e6,
    thresholdWindowPx: control[6]!,
    thresholdConstant: control[7]!,
    minDistanceToBorderPx: control[8]!,
  };
}

/** Settings a region pass runs with instead of the whole-frame pass's own. */
export type RegionTuning = Partial<
  Pick<PassTuning, 'minPerimeterRate' | 'thresholdConstant' | 'minDistanceToBorderPx'>
>;

const WORKER_URL = new URL('./split-pass-worker.ts', import.meta.url);

export class SplitCandidatePass {
  /** The whole-frame pass's own settings; a run may override some (region passes). */
  private tuning: PassTuning;
  /** Share of a whole frame's rows given to the helper thread (balanced from the threads' times). */
  private topShare = 0.5;

  private constructor(
    private readonly cv: OpenCV,
    private readonly local: CandidatePass,
    private readonly worker: Worker,
    private readonly control: Int32Array,
    private readonly pixels: Uint8Array,
    private readonly quads: Float32Array,
    /** Rows each half reaches beyond the middle. */
    private readonly overlapRows: number,
    options: CandidatePassOptions,
  ) {
    this.tuning = passTuning(options);
  }

  /** `firstShare`: the helper's share of the rows until the threads' times are known. */
  static async create(
    options: CandidatePassOptions,
    overlapRows: number,
    firstShare = 0.5,
  ): Promise<SplitCandidatePass> {
    const control = new SharedArrayBuffer(4 * CONTROL_WORDS);
    const pixels = new SharedArrayBuffer(MAX_PIXELS);
    const quads = new SharedArrayBuffer(4 * MAX_QUADS * FLOATS_PER_QUAD);
    const data: SplitWorkerData = { options, control, pixels, quads };
    const worker = startTsWorker(WORKER_URL, data, 'vedette-candidates');
    await new Promise<void>((resolve, reject) => {
      worker.once('message', (m: { type: string; message?: string }) =>
        m.type === 'ready' ? resolve() : reject(new Error(`candidate helper: ${m.message ?? m.type}`)),
      );
      worker.once('error', reject);
    });
    // A pipeline someone forgot to dispose must not keep the process alive.
    worker.unref();
    const pass = new SplitCandidatePass(
      await loadOpenCV(),
      await CandidatePass.create(options),
      worker,
      new Int32Array(control),
      new Uint8Array(pixels),
      new Float32Array(quads),
      overlapRows,
      options,
    );
    pass.topShare = balancedShare(firstShare, 0, 0);
    return pass;
  }

  /** See CandidatePass.setMinPerimeterRate; both threads take it with the next job. */
  setMinPerimeterRate(rate: number): void {
    this.tuning = { ...this.tuning, minPerimeterRate: rate };
  }

  /** See CandidatePass.setThresholdWindow; both threads take it with the next job (region passes too). */
  setThresholdWindow(windowPx: number): void {
    this.tuning = { ...this.tuning, thresholdWindowPx: windowPx };
  }

  get windowPx(): number {
    return this.tuning.thresholdWindowPx;
  }

  /**
   * The same pass on the negative picture: light squares, such as the white sticker a tag is
   * printed on, become the dark squares it finds. Under a blurred lens a small tag's one-cell black
   * border merges with its dark data cells and its own quad is lost, while the sticker's outer edge
   * against the cloth stays a clean square; the finder reads the tag in the middle of it
   * (finding-priors.ts, "surround"). Every quad is returned unread: a negative code is no marker.
   */
  runOnLight(gray: OpenCV): Quad[] {
    const negative = new this.cv.Mat();
    try {
      this.cv.bitwise_not(gray, negative);
      const { read, unread } = this.run(negative);
      return [...unread, ...read.map((r) => r.quad)];
    } finally {
      negative.delete();
    }
  }

  /**
   * The pass on both threads; `region` overrides the whole-frame settings for this run (a mosaic
   * of regions: its own smallest perimeter rate, threshold constant, border).
   */
  run(gray: OpenCV, region: RegionTuning = {}): CandidatePassResult {
    const tuning = { ...this.tuning, ...region };
    this.local.tune(tuning);
    writeTuning(this.control, tuning);
    const width = gray.cols as number;
    const height = gray.rows as number;
    const wholeFrame = Object.keys(region).length === 0;
    // The cut row: never so low that the top part overflows the shared buffer.
    const middle = Math.min(
      Math.floor(height * (wholeFrame ? this.topShare : 0.5)),
      Math.floor(MAX_PIXELS / width) - this.overlapRows,
    );
    const topRows = Math.min(height, middle + this.overlapRows);
    if (middle < this.overlapRows || height < 4 * this.overlapRows) return this.local.run(gray);
    // The top half (with its overlap) to the helper…
    this.pixels.set((gray.data as Uint8Array).subarray(0, width * topRows));
    this.control[1] = width;
    this.control[2] = topRows;
    Atomics.store(this.control, 0, SplitState.Job);
    Atomics.notify(this.control, 0);
    // …the bottom half here, meanwhile.
    const bottomStart = Math.max(0, middle - this.overlapRows);
    const view = gray.roi(new this.cv.Rect(0, bottomStart, width, height - bottomStart));
    let bottom: CandidatePassResult;
    const started = performance.now();
    try {
      bottom = this.local.run(view);
    } finally {
      view.delete();
    }
    const bottomMs = performance.now() - started;
    Atomics.wait(this.control, 0, SplitState.Job);
    const state = Atomics.load(this.control, 0);
    const top = state === SplitState.Done ? this.readTop() : null;
    Atomics.store(this.control, 0, SplitState.Idle);
    if (!top) throw new Error('candidate helper thread failed');
    if (wholeFrame)
      this.balance(this.control[HELPER_MICROS]! / 1000 / topRows, bottomMs / (height - bottomStart));
    const shift = (q: Quad): Quad => q.map((c) => ({ u: c.u, v: c.v + bottomStart })) as unknown as Quad;
    const centreV = (q: Quad) => (q[0].v + q[1].v + q[2].v + q[3].v) / 4;
    const lower = {
      read: bottom.read.map((r) => ({ id: r.id, quad: shift(r.quad) })),
      unread: bottom.unread.map(shift),
    };
    return {
      read: [
        ...top.read.filter((r) => centreV(r.quad) < middle),
        ...lower.read.filter((r) => centreV(r.quad) >= middle),
      ],
      unread: [
        ...top.unread.filter((q) => centreV(q) < middle),
        ...lower.unread.filter((q) => centreV(q) >= middle),
      ],
    };
  }

  /** Moves the split towards equal time on both threads, from each part's cost per row (ms). */
  private balance(topMsPerRow: number, bottomMsPerRow: number): void {
    this.topShare = balancedShare(this.topShare, topMsPerRow, bottomMsPerRow);
  }

  /** Share of a whole frame's rows the helper thread takes now (for tests and benchmarks). */
  get helperShare(): number {
    return this.topShare;
  }

  private readTop(): CandidatePassResult {
    const nRead = this.control[3]!;
    const nUnread = this.control[4]!;
    const read: Array<{ id: number; quad: Quad }> = [];
    const unread: Quad[] = [];
    for (let i = 0; i < nRead + nUnread; i++) {
      const o = i * FLOATS_PER_QUAD;
      const q = this.quads;
      const quad: Quad = [
        { u: q[o + 1]!, v: q[o + 2]! },
        { u: q[o + 3]!, v: q[o + 4]! },
        { u: q[o + 5]!, v: q[o + 6]! },
        { u: q[o + 7]!, v: q[o + 8]! },
      ];
      if (i < nRead) read.push({ id: q[o]!, quad });
      else unread.push(quad);
    }
    return { read, unread };
  }

  dispose(): void {
    Atomics.store(this.control, 0, SplitState.Stop);
    Atomics.notify(this.control, 0);
    void this.worker.terminate();
    this.local.dispose();
  }
}

/** Writes a pass's quads into the shared result buffer (the helper's side); returns false when they do not fit. */
export function writeQuads(result: CandidatePassResult, control: Int32Array, quads: Float32Array): boolean {
  const all = [
    ...result.read.map((r) => ({ id: r.id, quad: r.quad })),
    ...result.unread.map((quad) => ({ id: -1, quad })),
  ];
  if (all.length > MAX_QUADS) return false;
  all.forEach(({ id, quad }, i) => {
    const o = i * FLOATS_PER_QUAD;
    quads[o] = id;
    for (let k = 0; k < 4; k++) {
      quads[o + 1 + 2 * k] = quad[k]!.u;
      quads[o + 2 + 2 * k] = quad[k]!.v;
    }
  });
  control[3] = result.read.length;
  control[4] = result.unread.length;
  return true;
}
