/**
 * Recall benchmark (issue 12): does the live pipeline find every base a player's webcam sees?
 *
 * The whole 72 × 48 in table in frame (frameTable's default framing), 54 bases with tags of one
 * size in Vedette's default dictionary (ArUco MIP 36h12), one condition at a time
 * (bench/recall-scenes.ts), scored against the renderer's truth (bench/recall-score.ts):
 *   - single frame: a fresh pipeline's first frame (a whole-frame search);
 *   - within 10 static frames: the same pipeline fed 10 frames of the same still scene, fresh
 *     sensor noise each, 200 ms of capture time apart; a base counts when found in frame 10;
 *   - placed scenes: the table alone for 3 frames, then every base put down at once, as players
 *     do (bench/recall-placed.ts); found in that frame and in the 10th from it;
 *   - a mover: a 20 mm base pushed 1 in per frame at 1080p, frames 100 ms apart;
 *   - a clutter set: reference sheets and clutter only (bare bases and dark outlines, dice,
 *     rulers, printed cards, hands), a new layout every frame, the pipeline told 54 bases are in
 *     play; every base it reports is false. False detections are counted in every scene too.
 * Position and heading errors are those of found bases against the truth; detection time per
 * whole-frame search is set beside native OpenCV 4.6 (bench/native-aruco.py, default detector)
 * on the same frames, in the same run. Seeds start at 5000: never tune on them.
 *
 * Run: npm run bench:recall [-- --quick]   (or npx tsx bench/recall.ts [--quick])
 *   --quick  1080p, 20 mm, tilt 15°, noise and hands, 20 clutter frames, a short mover (≈ 1 min)
 *   full     720p and 1080p × 12/15/20/25 mm × tilt 0/15/25° × 6 conditions; 4K × 12/15/20/25 mm
 *            × tilt 15° × noise/glare/hands; placed scenes at 1080p 15/20 mm and 720p 25 mm, tilt
 *            15° × 6 conditions; 3 movers; 1,088 clutter frames (a new layout every 4 frames)
 *                                                                   (≈ 17 min alone on 2 cores)
 * It prints figures and the pass/fail of each target; it never fails itself.
 */
import { NativeAruco } from './recall-native.ts';
import { runPlacedScene } from './recall-placed.ts';
import { printReport } from './recall-report.ts';
import { runClutter, runMover, runStaticScene, TableCache, type Resolution } from './recall-run.ts';
import { CONDITIONS, FIRST_BENCH_SEED, RECALL_DICTIONARY, type Condition } from './recall-scenes.ts';

export interface RecallPlan {
  /** Groups of static scenes: every size × tilt × condition of the group, at its resolution. */
  readonly scenes: ReadonlyArray<{
    readonly resolution: Resolution;
    readonly sizesMm: readonly number[];
    readonly tiltsDeg: readonly number[];
    readonly conditions: readonly Condition[];
  }>;
  readonly staticFrames: number;
  /** Groups of placed scenes (bench/recall-placed.ts): bases put down after the table is known. */
  readonly placed: RecallPlan['scenes'];
  readonly movers: ReadonlyArray<{ resolution: Resolution; tiltDeg: number }>;
  readonly moverFrames: number;
  /** Clutter frames per block; blocks cycle resolutions, tilts and declared tag sizes. */
  readonly clutterBlocks: ReadonlyArray<{
    resolution: Resolution;
    tiltDeg: number;
    declaredMm: number;
    frames: number;
  }>;
}

export const QUICK_PLAN: RecallPlan = {
  scenes: [{ resolution: '1080p', sizesMm: [20], tiltsDeg: [15], conditions: ['noise', 'hands'] }],
  staticFrames: 10,
  placed: [{ resolution: '1080p', sizesMm: [20], tiltsDeg: [15], conditions: ['noise'] }],
  movers: [{ resolution: '1080p', tiltDeg: 15 }],
  moverFrames: 8,
  clutterBlocks: [{ resolution: '1080p', tiltDeg: 15, declaredMm: 12, frames: 20 }],
};

/** Clutter frames per layout (a layout costs a redraw of ~1 s at 1080p; a frame ~0.2 s). */
export const FRAMES_PER_LAYOUT = 4;

const clutterBlocks = (): RecallPlan['clutterBlocks'] => {
  // 1,008 frames at 1080p (the targets' camera) over tilts and declared tag sizes, 80 at 720p.
  const out: Array<RecallPlan['clutterBlocks'][number]> = [];
  for (const tiltDeg of [0, 15, 25])
    for (const declaredMm of [12, 15, 20, 25])
      out.push({ resolution: '1080p', tiltDeg, declaredMm, frames: 84 });
  for (const declaredMm of [12, 25]) out.push({ resolution: '720p', tiltDeg: 15, declaredMm, frames: 40 });
  return out;
};

export const FULL_PLAN: RecallPlan = {
  scenes: [
    { resolution: '720p', sizesMm: [12, 15, 20, 25], tiltsDeg: [0, 15, 25], conditions: CONDITIONS },
    { resolution: '1080p', sizesMm: [12, 15, 20, 25], tiltsDeg: [0, 15, 25], conditions: CONDITIONS },
    // 4K costs ~5× a 1080p frame to draw and search: one tilt and three conditions.
    { resolution: '4k', sizesMm: [12, 15, 20, 25], tiltsDeg: [15], conditions: ['noise', 'glare', 'hands'] },
  ],
  staticFrames: 10,
  // The sizes the targets name, at the targets' tilt.
  placed: [
    { resolution: '1080p', sizesMm: [15, 20], tiltsDeg: [15], conditions: CONDITIONS },
    { resolution: '720p', sizesMm: [25], tiltsDeg: [15], conditions: CONDITIONS },
  ],
  movers: [
    { resolution: '1080p', tiltDeg: 0 },
    { resolution: '1080p', tiltDeg: 15 },
    { resolution: '1080p', tiltDeg: 25 },
  ],
  moverFrames: 30,
  clutterBlocks: clutterBlocks(),
};

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const plan = quick ? QUICK_PLAN : FULL_PLAN;
  const started = performance.now();
  const native = await NativeAruco.start(RECALL_DICTIONARY);
  if (typeof native === 'string') console.log(`native OpenCV: not run (${native})`);
  const nativeOrNull = typeof native === 'string' ? null : native;
  const progress = (s: string) =>
    process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${s}\n`);
  try {
    const scenes = [];
    let seed = FIRST_BENCH_SEED;
    for (const { resolution, sizesMm, tiltsDeg, conditions } of plan.scenes)
      for (const sizeMm of sizesMm)
        for (const tiltDeg of tiltsDeg) {
          // One scene (seed) per resolution × size × tilt; each condition redraws it (shared render where it can).
          const cache = new TableCache();
          seed++;
          for (const condition of conditions) {
            progress(`${resolution} ${sizeMm} mm tilt ${tiltDeg}° ${condition}`);
            scenes.push(
              await runStaticScene(
                { resolution, sizeMm, tiltDeg, condition, seed, frames: plan.staticFrames },
                nativeOrNull,
                cache,
              ),
            );
          }
        }
    const placed = [];
    let placedSeed = FIRST_BENCH_SEED + 600;
    for (const { resolution, sizesMm, tiltsDeg, conditions } of plan.placed)
      for (const sizeMm of sizesMm)
        for (const tiltDeg of tiltsDeg) {
          placedSeed++;
          for (const condition of conditions) {
            progress(`placed: ${resolution} ${sizeMm} mm tilt ${tiltDeg}° ${condition}`);
            placed.push(
              await runPlacedScene({
                resolution,
                sizeMm,
                tiltDeg,
                condition,
                seed: placedSeed,
                frames: plan.staticFrames,
              }),
            );
          }
        }
    const movers = [];
    for (const [i, m] of plan.movers.entries()) {
      progress(`mover ${m.resolution} tilt ${m.tiltDeg}°`);
      movers.push(
        await runMover({ ...m, seed: FIRST_BENCH_SEED + 500 + i, frames: plan.moverFrames }, nativeOrNull),
      );
    }
    const clutter = [];
    for (const [i, b] of plan.clutterBlocks.entries()) {
      progress(`clutter ${b.resolution} tilt ${b.tiltDeg}° declared ${b.declaredMm} mm × ${b.frames}`);
      clutter.push(
        await runClutter(
          { ...b, seed: FIRST_BENCH_SEED + 700 + i, framesPerLayout: FRAMES_PER_LAYOUT },
          nativeOrNull,
        ),
      );
    }
    printReport({
      mode: quick ? 'quick' : 'full',
      scenes,
      movers,
      placed,
      clutter,
      native: nativeOrNull ? `OpenCV ${nativeOrNull.version}, ${nativeOrNull.threads} threads` : null,
      seconds: (performance.now() - started) / 1000,
    });
  } finally {
    nativeOrNull?.close();
  }
}

await main();
