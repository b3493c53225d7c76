/**
 * The learned reader inside the live pipeline (src/vision/learned-stage.ts), against the same
 * pipeline without it, on the same frames:
 *
 *   npm run bench:learned-reader-pipeline [-- --scenes 3 --frames 4]
 *
 * Whole 72 × 48 in table at 1080p, 54 bases with 12, 15, 20 and 25 mm tags (ArUco MIP 36h12),
 * tilt 0–15°, noise σ 1.5–4, blur σ 0.5–1.1 px (as bench/learned-reader.ts), a few still frames
 * with fresh sensor noise each (seeds 7000 + 100 · size index + n;
 * tests use 1–99). Per tag size: bases found within 2 mm in the first frame and in the last,
 * bases placed wrong or with an id not on the table (false detections), bases found by the
 * learned stage, and detection time per frame.
 */
import { parseArgs } from 'node:util';
import { benchScenario, prng } from './accuracy-scenes.ts';
import { frameTable, syntheticCameraProfile } from '../src/synth/camera.ts';
import { LiveSyntheticTable } from '../src/synth/live-table.ts';
import { VisionPipeline } from '../src/vision/pipeline.ts';

const { values } = parseArgs({
  options: { scenes: { type: 'string', default: '3' }, frames: { type: 'string', default: '4' } },
});
const scenes = Number(values.scenes);
const frames = Number(values.frames);
if (!(Number.isInteger(scenes) && scenes > 0 && Number.isInteger(frames) && frames > 0))
  throw new Error('--scenes and --frames must be positive integers');

interface Tally {
  first: number;
  last: number;
  falseDetections: number;
  learned: number;
  ms: number[];
}
const SIZES_MM = [12, 15, 20, 25] as const;
const rows: Array<{ sizeMm: number; tags: number; without: Tally; withLearned: Tally }> = [];
for (const [sizeIndex, sizeMm] of SIZES_MM.entries()) {
  const row = { sizeMm, tags: 0, without: tally(), withLearned: tally() };
  for (let n = 0; n < scenes; n++) {
    const seed = 7000 + 100 * sizeIndex + n;
    const rand = prng(seed);
    const scenario = benchScenario({ dictionary: 'aruco_mip_36h12', markerMm: sizeMm, seed });
    const cam = frameTable(scenario.table, { resolution: '1080p', tiltDeg: 15 * rand() });
    const live = await LiveSyntheticTable.create(scenario, cam, {
      seed,
      noiseSigma: 1.5 + 2.5 * rand(),
      blurSigma: 0.5 + 0.6 * rand(),
      lighting: 0.2 + 0.3 * rand(),
    });
    const pictures = Array.from({ length: frames }, (_, i) => live.frameWithPoses({}, seed * 10 + i));
    row.tags += scenario.units.length;
    for (const learnedReader of [false, true]) {
      const t = learnedReader ? row.withLearned : row.without;
      const pipeline = await VisionPipeline.create(
        syntheticCameraProfile(cam),
        scenario,
        {},
        { learnedReader },
      );
      try {
        pictures.forEach((frame, i) => {
          const result = pipeline.process({
            image: { ...frame.image, channels: 3 },
            capturedAt: i * 100,
            sequence: i,
          });
          t.ms.push(result.detectionMs);
          let found = 0;
          for (const base of result.located.bases) {
            const truth = frame.truth.bases.find((b) => b.markerId === base.markerId);
            const e = truth ? Math.hypot(base.x - truth.centreMm.x, base.y - truth.centreMm.y) : Infinity;
            if (e <= 2) found++;
            else t.falseDetections++;
          }
          t.falseDetections += result.located.unknownIds.length;
          if (i === 0) t.first += found;
          if (i === frames - 1) t.last += found;
          t.learned += result.detections.filter((d) => d.stage === 'learned').length;
        });
      } finally {
        pipeline.dispose();
      }
    }
    console.error(`  ${sizeMm} mm seed ${seed} done`);
  }
  rows.push(row);
}

function tally(): Tally {
  return { first: 0, last: 0, falseDetections: 0, learned: 0, ms: [] };
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
const pct = (a: number, b: number) => `${((100 * a) / b).toFixed(1)} %`;
console.log(
  `## The pipeline with and without the learned stage: 1080p, whole table, ${scenes} scenes × ${frames} still frames per size\n`,
);
console.log(
  '| tag | bases | found, frame 1 (without / with) | found, frame ' +
    frames +
    ' (without / with) | false detections (without / with) | found by the learned stage (all frames) | detection ms per frame, median (without / with) |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows) {
  const a = r.without;
  const b = r.withLearned;
  console.log(
    `| ${r.sizeMm} mm | ${r.tags} | ${pct(a.first, r.tags)} / ${pct(b.first, r.tags)} | ${pct(a.last, r.tags)} / ${pct(b.last, r.tags)} | ${a.falseDetections} / ${b.falseDetections} | ${b.learned} | ${median(a.ms).toFixed(0)} / ${median(b.ms).toFixed(0)} |`,
  );
}
