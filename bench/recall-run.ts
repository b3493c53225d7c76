/**
 * The runs of the recall benchmark (bench/recall.ts): one static scene under one condition fed
 * to one pipeline for several frames, the mover, and the clutter set. Each run scores every frame
 * against the renderer's truth (bench/recall-score.ts) and feeds the single-frame (full search)
 * frames to native OpenCV too, for the time per frame on the same pixels.
 */
import { frameTable, syntheticCameraProfile, type SynthCamera } from '../src/synth/camera.ts';
import { jpegRoundTrip } from '../src/synth/encode.ts';
import { LiveSyntheticTable, type LiveTableOptions } from '../src/synth/live-table.ts';
import { toGrey, type RgbImage, type SynthFrame } from '../src/synth/render.ts';
import type { Scenario } from '../src/table/scenario.ts';
import { VisionPipeline, type PipelineResult } from '../src/vision/pipeline.ts';
import type { NativeAruco } from './recall-native.ts';
import {
  clutterLayout,
  conditionSetup,
  recallScenario,
  referencesOnly,
  WEBCAM_SENSOR,
  type Condition,
} from './recall-scenes.ts';
import { scoreBases, scoreDetections, type SeenMarker } from './recall-score.ts';

export type Resolution = '720p' | '1080p' | '4k';

/** Timings of one frame searched whole, by Vedette and by native OpenCV. */
export interface FullFrameTiming {
  readonly vedetteMs: number;
  readonly nativeMs: number;
}

export interface SceneRun {
  readonly resolution: Resolution;
  readonly sizeMm: number;
  readonly tiltDeg: number;
  readonly condition: string;
  readonly frames: number;
  /** Bases whose tag the camera sees whole (in view, nothing over it): the targets' denominator. */
  readonly visible: readonly number[];
  /** Bases partly hidden (by a hand, …): reported apart. */
  readonly partlyHidden: readonly number[];
  /** Bases under glare so strong their black cells clip to white: no reader can see them, reported apart. */
  readonly washedOut: readonly number[];
  /** Per frame, the base ids found. */
  readonly foundPerFrame: readonly ReadonlySet<number>[];
  /** Per frame, false detections (raw detections no marker explains, located bases in the wrong place). */
  readonly falsePerFrame: readonly number[];
  readonly falseExamples: readonly string[];
  readonly errorsMm: readonly number[];
  readonly headingErrorsDeg: readonly number[];
  /** Found bases' errors over their reported sigmas (recall-score.ts BaseScore). */
  readonly positionOverSigma: readonly number[];
  readonly headingOverSigma: readonly number[];
  /** Which stage found each found base, first frame and last frame. */
  readonly stagesFirst: Readonly<Record<string, number>>;
  readonly stagesLast: Readonly<Record<string, number>>;
  readonly timings: readonly FullFrameTiming[];
  /** Bases native OpenCV found in the first frame (visible ones). */
  readonly nativeFound: number;
  readonly nativeFalse: number;
}

export const cameraFor = (scenario: Scenario, resolution: Resolution, tiltDeg: number): SynthCamera =>
  frameTable(scenario.table, { resolution, tiltDeg });

/** Everything the pipeline and native OpenCV make of one frame, scored. */
export interface FrameOutcome {
  readonly result: PipelineResult;
  readonly found: ReadonlySet<number>;
  readonly falseCount: number;
  readonly falseExamples: string[];
  readonly errorsMm: readonly number[];
  readonly headingErrorsDeg: readonly number[];
  readonly positionOverSigma: readonly number[];
  readonly headingOverSigma: readonly number[];
  readonly stages: Record<string, number>;
  readonly native: { ms: number; found: Set<number>; falseCount: number } | null;
}

/** Quiet time before a frame whose search is timed against native OpenCV, ms (see runFrame). */
const SETTLE_BEFORE_TIMED_MS = 50;

export async function runFrame(
  pipeline: VisionPipeline,
  frame: SynthFrame,
  image: RgbImage,
  at: { capturedAt: number; sequence: number },
  native: NativeAruco | null,
): Promise<FrameOutcome> {
  // A frame timed against native OpenCV was drawn in this process just before: drawing leaves the
  // garbage collector and the compiler work on background threads that ran during the search
  // (48 tuning clutter searches, medians: 28.4–30.2 ms at once, 22.6–26.0 ms after 30–100 ms of
  // quiet). Native OpenCV runs in a process of its own and never paid for it. So a timed frame
  // waits until that work is done: each side is timed on a quiet machine.
  if (native) await new Promise((r) => setTimeout(r, SETTLE_BEFORE_TIMED_MS));
  const result = pipeline.process({ image: { ...image, channels: 3 }, ...at });
  const truth = frame.truth;
  const bases = scoreBases(truth, result.located.bases);
  const seen = scoreDetections(truth, result.detections as readonly SeenMarker[]);
  const baseIds = new Set(truth.bases.map((b) => b.markerId));
  const stages: Record<string, number> = {};
  for (const d of result.detections)
    if (bases.found.has(d.id) && baseIds.has(d.id)) {
      const s = d.stage ?? 'none';
      stages[s] = (stages[s] ?? 0) + 1;
    }
  const falseExamples = [
    ...seen.falseDetections.map((d) => `id ${d.id} seen where no such tag is`),
    ...bases.wrong.map((b) => `id ${b.markerId} located at (${b.x.toFixed(0)}, ${b.y.toFixed(0)}) mm`),
  ];
  let nativeOut: FrameOutcome['native'] = null;
  if (native && result.search.mode === 'full') {
    const n = await native.detect(toGrey(image), image.width, image.height);
    const s = scoreDetections(truth, n.markers);
    nativeOut = {
      ms: n.ms,
      found: new Set([...s.seen].filter((id) => baseIds.has(id))),
      falseCount: s.falseDetections.length,
    };
  }
  return {
    result,
    found: bases.found,
    // A misread seen in pixels is usually also located in the wrong place: count each id once.
    falseCount: new Set([...seen.falseDetections.map((d) => d.id), ...bases.wrong.map((b) => b.markerId)])
      .size,
    falseExamples,
    errorsMm: bases.errorsMm,
    headingErrorsDeg: bases.headingErrorsDeg,
    positionOverSigma: bases.positionOverSigma,
    headingOverSigma: bases.headingOverSigma,
    stages,
    native: nativeOut,
  };
}

/** Milliseconds of capture time between the static frames (a 2-core machine analyses ~5 frames a second). */
export const STATIC_FRAME_GAP_MS = 200;

/** A cache of the last live table, so conditions differing only in sensor share one render. */
export class TableCache {
  private key = '';
  private table: LiveSyntheticTable | null = null;
  async get(
    scenario: Scenario,
    camera: SynthCamera,
    options: LiveTableOptions,
    id: string,
  ): Promise<LiveSyntheticTable> {
    const { noiseSigma, blurSigma, ...shape } = options;
    const key = `${id}|${JSON.stringify(shape)}`;
    if (!this.table || key !== this.key) {
      this.table = await LiveSyntheticTable.create(scenario, camera, options);
      this.key = key;
    }
    this.table.setSensor({
      noiseSigma: noiseSigma ?? WEBCAM_SENSOR.noiseSigma,
      blurSigma: blurSigma ?? WEBCAM_SENSOR.blurSigma,
    });
    return this.table;
  }
}

/** A scene of the bench: one resolution, tag size, tilt and condition, its seed and frame count. */
export interface SceneConfig {
  readonly resolution: Resolution;
  readonly sizeMm: number;
  readonly tiltDeg: number;
  readonly condition: Condition;
  readonly seed: number;
  readonly frames: number;
}

/** One static scene under one condition: `frames` frames, fresh sensor noise each, one pipeline. */
export async function runStaticScene(
  config: SceneConfig,
  native: NativeAruco | null,
  cache: TableCache,
): Promise<SceneRun> {
  const { resolution, sizeMm, tiltDeg, condition, seed, frames } = config;
  const scenario = recallScenario(sizeMm, seed);
  const camera = cameraFor(scenario, resolution, tiltDeg);
  const setup = conditionSetup(condition, scenario, seed);
  const live = await cache.get(
    scenario,
    camera,
    { ...setup.table, seed },
    `${resolution}|${sizeMm}|${tiltDeg}|${seed}`,
  );
  const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
  const out = emptyRun(config);
  try {
    for (let f = 0; f < frames; f++) {
      const frame = live.frameWithPoses({}, seed * 1000 + CONDITION_KEY[condition] * 100 + f);
      if (f === 0) classify(out, frame);
      const image =
        setup.jpegQuality === undefined ? frame.image : await jpegRoundTrip(frame.image, setup.jpegQuality);
      const o = await runFrame(
        pipeline,
        frame,
        image,
        { capturedAt: f * STATIC_FRAME_GAP_MS, sequence: f },
        f === 0 ? native : null,
      );
      record(out, o, f === 0, f === frames - 1);
    }
  } finally {
    pipeline.dispose();
  }
  return out;
}

export const CONDITION_KEY: Record<Condition, number> = {
  noise: 1,
  blur: 2,
  jpeg: 3,
  'uneven light': 4,
  glare: 5,
  hands: 6,
};

export type MutableRun = {
  -readonly [K in keyof SceneRun]: SceneRun[K] extends readonly (infer T)[] ? T[] : SceneRun[K];
} & { stagesFirst: Record<string, number>; stagesLast: Record<string, number> };

export function emptyRun(c: {
  resolution: Resolution;
  sizeMm: number;
  tiltDeg: number;
  condition: string;
}): MutableRun {
  return {
    resolution: c.resolution,
    sizeMm: c.sizeMm,
    tiltDeg: c.tiltDeg,
    condition: c.condition,
    frames: 0,
    visible: [],
    partlyHidden: [],
    washedOut: [],
    foundPerFrame: [],
    falsePerFrame: [],
    falseExamples: [],
    errorsMm: [],
    headingErrorsDeg: [],
    positionOverSigma: [],
    headingOverSigma: [],
    stagesFirst: {},
    stagesLast: {},
    timings: [],
    nativeFound: 0,
    nativeFalse: 0,
  };
}

/**
 * Glare (grey levels added, truth's `glareLevel`) at which the printed black (24 grey levels,
 * surface-shader.ts) reaches white: the tag's cells are gone from the picture.
 */
export const GLARE_WASHES_OUT = 255 - 24;

/** Sorts the frame's bases: visible (the targets' denominator), partly hidden, washed out by glare. */
export function classify(out: MutableRun, frame: SynthFrame): void {
  for (const b of frame.truth.bases) {
    if (!b.marker.inView) continue;
    const list =
      b.marker.glareLevel >= GLARE_WASHES_OUT
        ? out.washedOut
        : b.marker.hiddenFraction > 0
          ? out.partlyHidden
          : out.visible;
    list.push(b.markerId);
  }
}

export function record(out: MutableRun, o: FrameOutcome, first: boolean, last: boolean): void {
  out.frames++;
  out.foundPerFrame.push(o.found);
  out.falsePerFrame.push(o.falseCount);
  if (out.falseExamples.length < 5)
    out.falseExamples.push(...o.falseExamples.slice(0, 5 - out.falseExamples.length));
  out.errorsMm.push(...o.errorsMm);
  out.headingErrorsDeg.push(...o.headingErrorsDeg);
  out.positionOverSigma.push(...o.positionOverSigma);
  out.headingOverSigma.push(...o.headingOverSigma);
  if (first) out.stagesFirst = o.stages;
  if (last) out.stagesLast = o.stages;
  if (o.native) {
    out.timings.push({ vedetteMs: o.result.detectionMs, nativeMs: o.native.ms });
    if (first) {
      const visible = new Set(out.visible);
      out.nativeFound = [...o.native.found].filter((id) => visible.has(id)).length;
    }
    out.nativeFalse += o.native.falseCount;
  }
}

/**
 * A 20 mm base pushed 1 in per frame across the table (the other 53 still), frames 100 ms apart:
 * is it found in every frame?
 */
export async function runMover(
  config: { resolution: Resolution; tiltDeg: number; seed: number; frames: number },
  native: NativeAruco | null,
): Promise<SceneRun & { moverId: number; moverFound: number }> {
  const { resolution, tiltDeg, seed, frames } = config;
  const scenario = recallScenario(20, seed);
  const camera = cameraFor(scenario, resolution, tiltDeg);
  const live = await LiveSyntheticTable.create(scenario, camera, {
    ...WEBCAM_SENSOR,
    supersampling: 3,
    seed,
  });
  const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
  const out = {
    ...emptyRun({ ...config, sizeMm: 20, condition: 'mover 1 in/frame' }),
    moverId: 0,
    moverFound: 0,
  };
  // The base of the middle row's second column, pushed along +x between the grid rows.
  const bases = scenario.units.flatMap((u) => u.bases);
  const mover = bases[2 * 9 + 1]!;
  out.moverId = mover.marker.id;
  const start = mover.pose!;
  const y = start.y + 98; // half the row pitch: between the rows, nothing to run into
  try {
    for (let f = 0; f < frames; f++) {
      const pose = { x: start.x + f * 25.4, y, headingDeg: start.headingDeg + f * 3 };
      const frame = live.frameWithPoses({ [mover.marker.id]: pose }, seed * 1000 + f);
      if (f === 0) classify(out, frame);
      const o = await runFrame(pipeline, frame, frame.image, { capturedAt: f * 100, sequence: f }, native);
      record(out, o, f === 0, f === frames - 1);
      if (o.found.has(mover.marker.id)) out.moverFound++;
    }
  } finally {
    pipeline.dispose();
  }
  return out;
}

export interface ClutterRun {
  readonly resolution: Resolution;
  readonly frames: number;
  readonly falseDetections: number;
  readonly examples: readonly string[];
  readonly referencesSeen: number;
  readonly timings: readonly FullFrameTiming[];
  readonly nativeFalse: number;
}

/**
 * Clutter frames: the table holds its reference sheets and clutter only (a new layout every
 * `framesPerLayout` frames, fresh sensor noise every frame), while the pipeline is told a scenario of 54 declared `declaredMm` tags (so its search
 * hunts for every id in play). Every base it reports is a false detection.
 */
export async function runClutter(
  config: {
    resolution: Resolution;
    tiltDeg: number;
    declaredMm: number;
    seed: number;
    frames: number;
    framesPerLayout: number;
  },
  native: NativeAruco | null,
): Promise<ClutterRun> {
  const { resolution, tiltDeg, declaredMm, seed, frames, framesPerLayout } = config;
  const declared = recallScenario(declaredMm, seed);
  const drawn = referencesOnly(declared);
  const camera = cameraFor(drawn, resolution, tiltDeg);
  const live = await LiveSyntheticTable.create(drawn, camera, { ...WEBCAM_SENSOR, supersampling: 2, seed });
  const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), declared);
  const timings: FullFrameTiming[] = [];
  const examples: string[] = [];
  let falseDetections = 0;
  let referencesSeen = 0;
  let nativeFalse = 0;
  try {
    for (let f = 0; f < frames; f++) {
      // A new layout every few frames (each costs a redraw); between, fresh sensor noise only.
      if (f % framesPerLayout === 0) live.setClutter(clutterLayout(drawn, seed * 1000 + f));
      const frame = live.frameWithPoses({}, seed * 1000 + f);
      // Two seconds apart: every frame is searched whole, as a new layout would be.
      const o = await runFrame(pipeline, frame, frame.image, { capturedAt: f * 2000, sequence: f }, native);
      falseDetections += o.falseCount;
      if (examples.length < 5) examples.push(...o.falseExamples.map((e) => `frame ${f}: ${e}`));
      referencesSeen += scoreDetections(frame.truth, o.result.detections as readonly SeenMarker[]).seen.size;
      if (o.native) {
        timings.push({ vedetteMs: o.result.detectionMs, nativeMs: o.native.ms });
        nativeFalse += o.native.falseCount;
      }
    }
  } finally {
    pipeline.dispose();
  }
  return {
    resolution,
    frames,
    falseDetections,
    examples: examples.slice(0, 5),
    referencesSeen,
    timings,
    nativeFalse,
  };
}
