/**
 * Trains the learned tag reader from Vedette's own renderer and writes it to models/tag-reader/:
 *
 *   npm run train:tag-reader [-- --seed 1 --train-crops 5000 --held-crops 2000 --epochs 6 --workers 2]
 *
 * 1. Renders training crops (seeds 100000 + i) and held-out crops (seeds 200000 + i); the test
 *    seeds (1–99), the tuning seeds (1000–1999) and the benchmark seeds (≥ 5000, < 100000) are
 *    never used.
 * 2. Trains the network (--seed sets the initial weights, the shuffle and the augmentation).
 * 3. Calibrates on the first half of the held-out crops, chooses the read threshold there, and
 *    measures everything on the second half.
 * 4. Writes model.json, weights.bin, reader.json (patch, calibration, threshold) and metrics.json.
 * The same seeds and options give the same weights (single-threaded WebAssembly, seeded everything).
 */
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import * as tf from '@tensorflow/tfjs';
import { DEFAULT_TAG_PATCH } from '../../src/vision/tag-patch.ts';
import { initTensorflow, type ReaderSpec } from '../../src/vision/learned-reader.ts';
import {
  chooseThreshold,
  fitCalibration,
  judge,
  makeEpisodes,
  reliability,
  type Judged,
} from './calibrate.ts';
import { READER_DICTIONARIES } from './crop-scene.ts';
import { generateDataset, subset } from './dataset.ts';
import { buildNetwork, type Architecture } from './network.ts';
import { saveModel } from './save.ts';
import { predictLogits, trainNetwork } from './train-loop.ts';
import { registerWasmConvFilterGradient } from './wasm-conv-grad.ts';

export const TRAIN_FIRST_SEED = 100_000;
export const HELD_OUT_FIRST_SEED = 200_000;
export const SIZE_BINS = [1.0, 1.3, 1.7, 2.3, 3.2, 4.3] as const;

const { values } = parseArgs({
  options: {
    seed: { type: 'string', default: '1' },
    'train-crops': { type: 'string', default: '5000' },
    'held-crops': { type: 'string', default: '2000' },
    epochs: { type: 'string', default: '6' },
    architecture: { type: 'string', default: 'cnn' },
    workers: { type: 'string', default: '2' },
    out: { type: 'string', default: new URL('./', import.meta.url).pathname },
  },
});
const seed = Number(values.seed);
const trainCrops = Number(values['train-crops']);
const heldCrops = Number(values['held-crops']);
const epochs = Number(values.epochs);
const workers = Number(values.workers);
const architecture = values.architecture as Architecture;
if (![seed, trainCrops, heldCrops, epochs, workers].every((n) => Number.isInteger(n) && n > 0))
  throw new Error('seed, crops, epochs and workers must be positive integers');
if (trainCrops >= HELD_OUT_FIRST_SEED - TRAIN_FIRST_SEED || heldCrops >= 100_000)
  throw new Error('too many crops: the training and held-out seed ranges would overlap');
if (architecture !== 'cnn' && architecture !== 'mlp') throw new Error('architecture must be cnn or mlp');
const outDir = new URL(`file://${values.out.endsWith('/') ? values.out : values.out + '/'}`);

const log = (line: string) => console.log(line);
const started = performance.now();
const cpuStart = process.cpuUsage();
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(0);

log(`rendering ${trainCrops} training crops and ${heldCrops} held-out crops on ${workers} threads…`);
let t = performance.now();
const progress = (what: string) => (done: number, total: number) => {
  if (done % 1000 === 0 || done === total) log(`  ${what}: ${done}/${total} crops (${seconds(t)} s)`);
};
const train = await generateDataset(
  { firstSeed: TRAIN_FIRST_SEED, crops: trainCrops },
  workers,
  progress('train'),
);
const held = await generateDataset(
  { firstSeed: HELD_OUT_FIRST_SEED, crops: heldCrops },
  workers,
  progress('held-out'),
);
const dataSeconds = (performance.now() - t) / 1000;
const positives = (d: typeof train) => d.info.filter((i) => i.marker).length;
log(
  `train: ${train.count} patches (${positives(train)} markers); held-out: ${held.count} (${positives(held)} markers)`,
);

await initTensorflow('wasm');
registerWasmConvFilterGradient();
const model = buildNetwork(architecture, seed);
log(`network: ${architecture}, ${model.countParams()} parameters`);
t = performance.now();
await trainNetwork(model, train, { epochs, batchSize: 128, learningRate: 2e-3, seed, bitWeight: 0.25, log });
const trainSeconds = (performance.now() - t) / 1000;

// Calibrate on the first half of the held-out crops, measure on the second.
const split = HELD_OUT_FIRST_SEED + Math.floor(heldCrops / 2);
const calibrationSet = subset(held, (i) => i.seed < split);
const evaluationSet = subset(held, (i) => i.seed >= split);
const calibrationLogits = predictLogits(model, calibrationSet);
const fit = await fitCalibration(calibrationSet, calibrationLogits, seed + 17);
log(
  `calibration: T ${fit.calibration.bitTemperature.toFixed(3)}, marker ${fit.calibration.markerScale.toFixed(3)}·z ${fit.calibration.markerBias >= 0 ? '+' : '−'} ${Math.abs(fit.calibration.markerBias).toFixed(3)}; NLL ${fit.nllBefore.toFixed(4)} → ${fit.nllAfter.toFixed(4)}`,
);
const calibrationJudged = await judge(
  calibrationSet,
  calibrationLogits,
  makeEpisodes(calibrationSet, seed + 17),
  fit.calibration,
  0,
);
const threshold = chooseThreshold(calibrationJudged);
log(`read threshold (no wrong reading on the calibration half): ${threshold}`);
const evaluationLogits = predictLogits(model, evaluationSet);
const judged = await judge(
  evaluationSet,
  evaluationLogits,
  makeEpisodes(evaluationSet, seed + 31),
  fit.calibration,
  threshold,
);

interface Row {
  bin: string;
  markers: number;
  right: number;
  wrong: number;
  unread: number;
  strangers: number;
  strangersRead: number;
  negatives: number;
  negativesRead: number;
}
const rows: Row[] = [];
for (let b = 0; b + 1 < SIZE_BINS.length; b++) {
  const lo = SIZE_BINS[b]!;
  const hi = SIZE_BINS[b + 1]!;
  const inBin = judged.filter((j) => j.episode.info.pxPerCell >= lo && j.episode.info.pxPerCell < hi);
  const view = inBin.filter((j) => j.episode.outcome === 'view');
  const count = (js: Judged[], v: Judged['verdict']) => js.filter((j) => j.verdict === v).length;
  const strangers = inBin.filter((j) => j.episode.outcome === 'foreign');
  const negatives = inBin.filter((j) => j.episode.outcome === 'none');
  rows.push({
    bin: `${lo.toFixed(1)}–${hi.toFixed(1)}`,
    markers: view.length,
    right: count(view, 'right'),
    wrong: count(view, 'wrong'),
    unread: count(view, 'unread'),
    strangers: strangers.length,
    strangersRead: strangers.filter((j) => j.verdict !== 'unread').length,
    negatives: negatives.length,
    negativesRead: negatives.filter((j) => j.verdict !== 'unread').length,
  });
}
const rel = reliability(judged);
const { weightBytes } = await saveModel(model, outDir);
const spec: ReaderSpec = {
  format: 'vedette-tag-reader',
  version: 1,
  dictionaries: READER_DICTIONARIES,
  bitsPerSide: 6,
  patch: DEFAULT_TAG_PATCH,
  calibration: fit.calibration,
  readThreshold: threshold,
};
await writeFile(new URL('reader.json', outDir), JSON.stringify(spec, null, 2) + '\n');
const cpu = process.cpuUsage(cpuStart);
const metrics = {
  command: `npm run train:tag-reader -- --seed ${seed} --train-crops ${trainCrops} --held-crops ${heldCrops} --epochs ${epochs} --architecture ${architecture}`,
  seed,
  architecture,
  parameters: model.countParams(),
  weightBytes,
  trainSeeds: [TRAIN_FIRST_SEED, TRAIN_FIRST_SEED + trainCrops - 1],
  heldOutSeeds: [HELD_OUT_FIRST_SEED, HELD_OUT_FIRST_SEED + heldCrops - 1],
  calibrationSeeds: [HELD_OUT_FIRST_SEED, split - 1],
  evaluationSeeds: [split, HELD_OUT_FIRST_SEED + heldCrops - 1],
  trainPatches: train.count,
  trainMarkers: positives(train),
  heldOutPatches: held.count,
  dataSeconds: Math.round(dataSeconds),
  trainSeconds: Math.round(trainSeconds),
  totalSeconds: Math.round((performance.now() - started) / 1000),
  cpuSeconds: Math.round((cpu.user + cpu.system) / 1e6),
  calibration: { ...fit.calibration, nllBefore: fit.nllBefore, nllAfter: fit.nllAfter },
  readThreshold: threshold,
  bySize: rows,
  reliability: rel,
};
await writeFile(new URL('metrics.json', outDir), JSON.stringify(metrics, null, 2) + '\n');

log(
  '\nheld-out evaluation half (px per cell; markers in play: right / wrong / unread; strangers and non-markers read):',
);
log('| px/cell | markers | right | wrong | unread | strangers read | non-markers read |');
log('| --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  log(
    `| ${r.bin} | ${r.markers} | ${r.right} (${((100 * r.right) / Math.max(1, r.markers)).toFixed(1)} %) | ${r.wrong} | ${r.unread} | ${r.strangersRead}/${r.strangers} | ${r.negativesRead}/${r.negatives} |`,
  );
log(`\nreliability (top outcome): ECE ${(100 * rel.ece).toFixed(2)} %`);
for (const r of rel.rows)
  log(
    `  ${r.lo.toFixed(1)}–${r.hi.toFixed(1)}: n ${r.n}, mean confidence ${r.conf.toFixed(3)}, accuracy ${r.accuracy.toFixed(3)}`,
  );
log(
  `\nweights ${weightBytes} bytes; data ${metrics.dataSeconds} s, training ${metrics.trainSeconds} s, total ${metrics.totalSeconds} s (CPU ${metrics.cpuSeconds} s)`,
);
model.dispose();
tf.disposeVariables();
