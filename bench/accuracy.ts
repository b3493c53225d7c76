/**
 * Accuracy benchmark: how well the live vision pipeline (Detector → Locator) measures bases on
 * the synthetic table, against the renderer's truth.
 *
 * Scenes (bench/accuracy-scenes.ts): a 72 × 48 in table, four 80 mm corner reference markers and
 * 54 bases on a jittered grid over the whole table (far corners included), random headings, each
 * base the marker plus a one-cell quiet zone, markers 3 mm above the cloth. Each seed moves and
 * turns every base and draws fresh sensor noise.
 *
 * Rows report, over all bases of all seeds: detection rate (bases located with the right id),
 * false detections (ids not in the scene, or a known id placed > 10 mm from its truth), median and
 * p95 position error (mm and in), p95 heading error, and the detector's time per frame with its
 * ratio to the reference row (the demo scenario at 1080p with the default detector, run first in
 * the same process). "decoys" runs each dictionary's detector on the frames rendered with the
 * other dictionaries (same size, same camera): every marker found there is a false detection.
 * It never fails on time or accuracy.
 *
 * Run: npm run bench -- accuracy [--quick | --full]      (or npx tsx bench/accuracy.ts …)
 *   default  3 seeds of the camera table (720p/1080p/4K, heights, tilts, lens, noise) and
 *            2 seeds of the dictionary × marker-size table at 1080p      (≈ 3–4 min on 2 cores)
 *   --quick  1 seed each                                                 (≈ 1½ min)
 *   --full   5 seeds, and the dictionary table at 720p and 4K too        (≈ 20 min)
 */
import { readFileSync } from 'node:fs';
import { frameTable, syntheticCameraProfile, type FrameTableOptions } from '../src/synth/camera.ts';
import type { Distortion } from '../src/synth/lens.ts';
import { LiveSyntheticTable } from '../src/synth/live-table.ts';
import { renderScene, type RenderOptions, type SynthFrame } from '../src/synth/render.ts';
import type { PoseOverrides } from '../src/synth/scene.ts';
import {
  MARKER_DICTIONARIES,
  parseScenarioText,
  type MarkerDictionaryName,
  type Scenario,
} from '../src/table/scenario.ts';
import { DEFAULT_DETECTOR_OPTIONS, MarkerDetector } from '../src/vision/detector.ts';
import { VisionPipeline } from '../src/vision/pipeline.ts';
import { allDictionaryFacts } from './accuracy-dictionaries.ts';
import { benchScenario } from './accuracy-scenes.ts';

const MM_PER_IN = 25.4;
/** A known id measured further than this from its truth counts as a false detection. */
const WRONG_PLACE_MM = 10;

const args = new Set(process.argv.slice(2));
const mode: 'quick' | 'default' | 'full' = args.has('--quick')
  ? 'quick'
  : args.has('--full')
    ? 'full'
    : 'default';
const cameraSeeds = mode === 'quick' ? [1] : mode === 'full' ? [1, 2, 3, 4, 5] : [1, 2, 3];
const dictionarySeeds = mode === 'quick' ? [1] : mode === 'full' ? [1, 2, 3, 4, 5] : [1, 2];

/** One measured configuration. */
export interface Row {
  readonly label: string;
  readonly bases: number;
  readonly found: number;
  readonly falseDetections: number;
  readonly medianMm: number;
  readonly p95Mm: number;
  readonly p95HeadingDeg: number;
  readonly maxMm: number;
  readonly detectMs: number;
  readonly decoys?: { readonly tried: number; readonly read: number };
}

const quantile = (sorted: readonly number[], q: number): number =>
  sorted.length === 0 ? Number.NaN : sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

interface Accumulator {
  bases: number;
  found: number;
  falseDetections: number;
  errorsMm: number[];
  headingErrors: number[];
  detectMs: number[];
}
const empty = (): Accumulator => ({
  bases: 0,
  found: 0,
  falseDetections: 0,
  errorsMm: [],
  headingErrors: [],
  detectMs: [],
});

/** Runs one frame through the pipeline and scores it against its truth. */
function score(pipeline: VisionPipeline, frame: SynthFrame, acc: Accumulator, sequence: number): void {
  const result = pipeline.process({ image: { ...frame.image, channels: 3 }, capturedAt: 0, sequence });
  acc.detectMs.push(result.detectionMs);
  acc.bases += frame.truth.bases.length;
  acc.falseDetections += result.located.unknownIds.filter(
    (id) => !frame.truth.references.some((r) => r.markerId === id),
  ).length;
  if (!result.located.table) return; // no table pose: nothing measured, every base missed
  for (const truth of frame.truth.bases) {
    const m = result.located.bases.find((b) => b.markerId === truth.markerId);
    if (!m) continue;
    const err = Math.hypot(m.x - truth.centreMm.x, m.y - truth.centreMm.y);
    if (err > WRONG_PLACE_MM) {
      acc.falseDetections++;
      continue;
    }
    acc.found++;
    acc.errorsMm.push(err);
    acc.headingErrors.push(Math.abs(((m.headingDeg - truth.headingDeg + 540) % 360) - 180));
  }
}

function finish(label: string, acc: Accumulator): Row {
  const e = [...acc.errorsMm].sort((a, b) => a - b);
  const h = [...acc.headingErrors].sort((a, b) => a - b);
  const t = [...acc.detectMs].sort((a, b) => a - b);
  return {
    label,
    bases: acc.bases,
    found: acc.found,
    falseDetections: acc.falseDetections,
    medianMm: quantile(e, 0.5),
    p95Mm: quantile(e, 0.95),
    p95HeadingDeg: quantile(h, 0.95),
    maxMm: e.at(-1) ?? Number.NaN,
    detectMs: quantile(t, 0.5),
  };
}

export interface SceneConfig {
  readonly dictionary: MarkerDictionaryName;
  readonly markerMm: number;
  readonly camera: FrameTableOptions;
  readonly render: Omit<RenderOptions, 'seed' | 'poses'>;
}

/** Poses of the seed's scene keyed by marker id (same ids, same sizes: only where they stand). */
function posesOf(s: Scenario): PoseOverrides {
  const out: Record<number, { x: number; y: number; headingDeg: number }> = {};
  for (const u of s.units) for (const b of u.bases) if (b.pose) out[b.marker.id] = b.pose;
  return out;
}

/**
 * The frames of one configuration, one per seed: the static table is rendered once and each seed
 * redraws only the bases (LiveSyntheticTable, bit-identical to a full render at supersampling 4).
 */
async function* framesOf(
  config: SceneConfig,
  seeds: readonly number[],
): AsyncGenerator<{ seed: number; frame: SynthFrame; scenario: Scenario }> {
  const scenario = benchScenario({
    dictionary: config.dictionary,
    markerMm: config.markerMm,
    seed: seeds[0]!,
  });
  const camera = frameTable(scenario.table, config.camera);
  const live = await LiveSyntheticTable.create(scenario, camera, {
    supersampling: 4,
    ...config.render,
    seed: 1,
  });
  for (const seed of seeds) {
    const poses = posesOf(benchScenario({ dictionary: config.dictionary, markerMm: config.markerMm, seed }));
    yield { seed, frame: live.frameWithPoses(poses, seed), scenario };
  }
}

async function measure(
  label: string,
  config: SceneConfig,
  seeds: readonly number[],
): Promise<{ row: Row; frames: SynthFrame[] }> {
  const acc = empty();
  const frames: SynthFrame[] = [];
  let pipeline: VisionPipeline | undefined;
  const camera = frameTable(
    benchScenario({ dictionary: config.dictionary, markerMm: config.markerMm, seed: 1 }).table,
    config.camera,
  );
  for await (const { seed, frame, scenario } of framesOf(config, seeds)) {
    pipeline ??= await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
    score(pipeline, frame, acc, seed);
    frames.push(frame);
  }
  pipeline?.dispose();
  return { row: finish(label, acc), frames };
}

/** Every marker a dictionary's detector reads on frames printed with another dictionary is false. */
async function decoys(
  dictionary: MarkerDictionaryName,
  foreign: readonly SynthFrame[],
): Promise<{ tried: number; read: number }> {
  const detector = await MarkerDetector.create({ dictionary });
  let tried = 0;
  let read = 0;
  for (const frame of foreign) {
    tried += frame.truth.bases.length;
    for (const d of detector.detect({ ...frame.image, channels: 3 })) {
      const u = (d.corners[0].u + d.corners[2].u) / 2;
      const v = (d.corners[0].v + d.corners[2].v) / 2;
      // A reference sheet's 80 mm square read as some id is also a misread, but not of a base.
      const onBase = frame.truth.bases.some((b) => {
        const c = b.marker.cornersPx;
        return Math.hypot((c[0].u + c[2].u) / 2 - u, (c[0].v + c[2].v) / 2 - v) < 20;
      });
      if (
        onBase ||
        !frame.truth.references.some(
          (r) =>
            Math.hypot(
              (r.cornersPx[0].u + r.cornersPx[2].u) / 2 - u,
              (r.cornersPx[0].v + r.cornersPx[2].v) / 2 - v,
            ) < 60,
        )
      )
        read++;
    }
  }
  detector.dispose();
  return { tried, read };
}

// ---------------------------------------------------------------------------------------------
// Printing

const f = (x: number, d: number) => (Number.isFinite(x) ? x.toFixed(d) : '—');
const HEADER =
  '| configuration | found | rate | false | median mm | median in | p95 mm | p95 in | p95 heading ° | max mm | detect ms | ×ref |';
const RULE = '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|';
let referenceMs = Number.NaN;
function line(r: Row): string {
  const rate = (100 * r.found) / r.bases;
  const decoy = r.decoys ? ` (decoys ${r.decoys.read}/${r.decoys.tried})` : '';
  return `| ${r.label} | ${r.found}/${r.bases} | ${f(rate, 1)} % | ${r.falseDetections}${decoy} | ${f(r.medianMm, 3)} | ${f(r.medianMm / MM_PER_IN, 4)} | ${f(r.p95Mm, 3)} | ${f(r.p95Mm / MM_PER_IN, 4)} | ${f(r.p95HeadingDeg, 2)} | ${f(r.maxMm, 2)} | ${f(r.detectMs, 0)} | ${f(r.detectMs / referenceMs, 2)} |`;
}
const started = performance.now();
const progress = (what: string) =>
  process.stderr.write(`  [${((performance.now() - started) / 1000).toFixed(0).padStart(4)} s] ${what}\n`);

// ---------------------------------------------------------------------------------------------

const DEFAULT_DICTIONARY = DEFAULT_DETECTOR_OPTIONS.dictionary;
const HEADLINE: SceneConfig = {
  dictionary: 'apriltag_36h11',
  markerMm: 20,
  camera: { resolution: '1080p', heightMm: 1200, tiltDeg: 10 },
  render: {},
};
const STRONG_LENS: Distortion = [-0.22, 0.09, 0.001, -0.0008, -0.015];

async function main(): Promise<void> {
  console.log(
    `# Vedette accuracy benchmark (${mode}: camera table ${cameraSeeds.length} seed(s), dictionary table ${dictionarySeeds.length} seed(s))`,
  );
  console.log('');
  console.log(
    'Scene: 72 × 48 in table, 4 × 80 mm reference markers, 54 bases (marker + one-cell quiet zone), markers 3 mm up.',
  );
  console.log(
    'Camera: looks at the table centre, tilted back toward the near edge, framed to fit the table + 40 mm; exact intrinsics given to the Locator.',
  );
  console.log(
    'Render defaults: noise σ 2 grey levels, blur σ 0.6 px, lighting 0.25, mild barrel lens [-0.08, 0.03, …].',
  );
  console.log(
    `Errors over every base found; false = unknown ids + known ids > ${WRONG_PLACE_MM} mm from truth; ×ref = detector time / reference row's.`,
  );
  console.log('');

  // Reference row: the demo scenario (32 mm AprilTags on 40/50 mm bases) at 1080p, default detector.
  progress('reference: demo scenario at 1080p');
  const demo = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');
  const demoCamera = frameTable(demo.table, { resolution: '1080p' });
  const demoPipeline = await VisionPipeline.create(syntheticCameraProfile(demoCamera), demo);
  const refAcc = empty();
  for (const seed of cameraSeeds)
    score(demoPipeline, await renderScene(demo, demoCamera, { seed }), refAcc, seed);
  demoPipeline.dispose();
  const reference = finish('reference: demo scenario (32 mm AprilTag 36h11), 1080p', refAcc);
  referenceMs = reference.detectMs;

  // Dictionary facts (no pictures).
  progress('dictionary facts');
  const facts = await allDictionaryFacts();

  // Camera table: resolution, height, tilt, lens, noise.
  const cameraRows: Row[] = [];
  const cam = (label: string, c: Partial<SceneConfig>) => ({
    label,
    config: { ...HEADLINE, ...c, camera: { ...HEADLINE.camera, ...c.camera } },
  });
  const cameraConfigs = [
    cam('**headline: 1080p, 20 mm AprilTag 36h11, 1.2 m, tilt 10°**', {}),
    cam('720p, 20 mm AprilTag 36h11, 1.2 m, tilt 10°', { camera: { resolution: '720p' } }),
    cam('4K, 20 mm AprilTag 36h11, 1.2 m, tilt 10°', { camera: { resolution: '4k' } }),
    cam('1080p, 20 mm AprilTag 36h11, 1.0 m, tilt 10°', { camera: { heightMm: 1000 } }),
    cam('1080p, 20 mm AprilTag 36h11, 1.5 m, tilt 10°', { camera: { heightMm: 1500 } }),
    cam('1080p, 20 mm AprilTag 36h11, 1.2 m, straight down', { camera: { tiltDeg: 0 } }),
    cam('1080p, 20 mm AprilTag 36h11, 1.2 m, tilt 25°', { camera: { tiltDeg: 25 } }),
    cam('1080p, 20 mm AprilTag 36h11, strong barrel lens', { camera: { distortion: STRONG_LENS } }),
    cam('1080p, 20 mm AprilTag 36h11, noise σ 5, blur σ 1.0, light 0.5', {
      render: { noiseSigma: 5, blurSigma: 1.0, lighting: 0.5 },
    }),
    cam('1080p, 25 mm AprilTag 36h11, 1.2 m, tilt 10°', { markerMm: 25 }),
    cam('720p, 25 mm AprilTag 36h11, 1.2 m, tilt 10°', { markerMm: 25, camera: { resolution: '720p' } }),
    cam('1080p, 20 mm ArUco MIP 36h12, 1.2 m, tilt 10°', { dictionary: 'aruco_mip_36h12' }),
    cam('4K, 15 mm AprilTag 36h11, 1.2 m, tilt 10°', { markerMm: 15, camera: { resolution: '4k' } }),
    cam('4K, 15 mm ArUco MIP 36h12, 1.2 m, tilt 10°', {
      markerMm: 15,
      dictionary: 'aruco_mip_36h12',
      camera: { resolution: '4k' },
    }),
  ];
  if (DEFAULT_DICTIONARY !== 'apriltag_36h11')
    cameraConfigs.push(
      cam(`1080p, 20 mm ${DEFAULT_DICTIONARY}, 1.2 m, tilt 10°`, { dictionary: DEFAULT_DICTIONARY }),
      cam(`720p, 20 mm ${DEFAULT_DICTIONARY}, 1.2 m, tilt 10°`, {
        dictionary: DEFAULT_DICTIONARY,
        camera: { resolution: '720p' },
      }),
    );
  for (const { label, config } of cameraConfigs) {
    progress(label.replaceAll('*', ''));
    cameraRows.push((await measure(label, config, cameraSeeds)).row);
  }

  // Dictionary × marker size.
  const dictionaryRows: Row[] = [];
  const resolutions = mode === 'full' ? (['1080p', '720p', '4k'] as const) : (['1080p'] as const);
  for (const resolution of resolutions) {
    for (const markerMm of [10, 15, 20, 25]) {
      const byDictionary = new Map<MarkerDictionaryName, { row: Row; frames: SynthFrame[] }>();
      for (const dictionary of MARKER_DICTIONARIES) {
        const label = `${resolution}, ${markerMm} mm ${dictionary}`;
        progress(label);
        byDictionary.set(
          dictionary,
          await measure(label, { dictionary, markerMm, camera: { resolution }, render: {} }, dictionarySeeds),
        );
      }
      for (const dictionary of MARKER_DICTIONARIES) {
        const foreign = MARKER_DICTIONARIES.filter((d) => d !== dictionary).flatMap(
          (d) => byDictionary.get(d)!.frames,
        );
        const { row } = byDictionary.get(dictionary)!;
        dictionaryRows.push({ ...row, decoys: await decoys(dictionary, foreign) });
      }
    }
  }

  // Print.
  console.log('## Reference');
  console.log('');
  console.log(HEADER);
  console.log(RULE);
  console.log(line(reference));
  console.log('');
  console.log('## Camera: resolution, height, tilt, lens, noise');
  console.log('');
  console.log(HEADER);
  console.log(RULE);
  for (const r of cameraRows) console.log(line(r));
  const h = cameraRows[0]!;
  const pass = (ok: boolean) => (ok ? 'meets' : 'MISSES');
  console.log('');
  console.log('Headline targets (1080p, 20 mm AprilTag 36h11, camera 1.2 m up):');
  console.log(
    `  median position ${f(h.medianMm / MM_PER_IN, 4)} in (target ≤ 0.02): ${pass(h.medianMm / MM_PER_IN <= 0.02)}`,
  );
  console.log(
    `  p95 position     ${f(h.p95Mm / MM_PER_IN, 4)} in (target ≤ 0.05): ${pass(h.p95Mm / MM_PER_IN <= 0.05)}`,
  );
  console.log(
    `  p95 heading      ${f(h.p95HeadingDeg, 2)}° (target ≤ 0.5°): ${pass(h.p95HeadingDeg <= 0.5)}`,
  );
  console.log(
    `  detection rate   ${f((100 * h.found) / h.bases, 1)} % (target ≥ 99 %): ${pass(h.found / h.bases >= 0.99)}`,
  );
  console.log('');
  console.log(
    '## Dictionaries × marker size (decoys: markers read on the same scenes printed with the other three dictionaries)',
  );
  console.log('');
  console.log(HEADER);
  console.log(RULE);
  for (const r of dictionaryRows) console.log(line(r));
  console.log('');
  console.log('## What the dictionaries promise (codes from OpenCV 4.12)');
  console.log('');
  console.log(
    '| dictionary | data bits | ids | min Hamming distance | safe correction | OpenCV corrects | Vedette corrects | random pattern accepted at Vedette’s setting |',
  );
  console.log('|---|---:|---:|---:|---:|---:|---:|---:|');
  for (const x of facts) {
    const ours = DEFAULT_DETECTOR_OPTIONS.correctionBits[x.dictionary];
    const opencv = Math.floor(x.opencvMaxCorrectionBits * 0.6);
    console.log(
      `| ${x.dictionary} | ${x.bitsPerSide}×${x.bitsPerSide} | ${x.ids} | ${x.minDistance} | ${x.safeCorrection} | ${opencv} | ${ours} | ${f(100 * x.randomAcceptance[ours]!, 3)} % (OpenCV’s: ${f(100 * x.randomAcceptance[opencv]!, 3)} %) |`,
    );
  }
  console.log('');
  console.log(`total ${((performance.now() - started) / 1000).toFixed(0)} s`);
}

await main();
