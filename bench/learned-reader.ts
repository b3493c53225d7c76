/**
 * What the learned tag reader adds over the classical decoder (issue 12, point 3):
 *
 *   npm run bench:learned-reader [-- --scenes 6 --crops 2000 --model models/tag-reader/]
 *
 * 1. Whole 72 × 48 in tables at 1080p (54 bases, ArUco MIP 36h12, the default dictionary) with
 *    12, 15, 20 and 25 mm tags, tilt 0–15°, sensor noise σ 1.5–4, blur σ 0.5–1.1 px: OpenCV's
 *    candidate quads (read and rejected), explained by the scenario's priors as marker-finder.ts
 *    does, each read by both readers (bench/learned-reader-compare.ts). Per tag size: tags only one
 *    reader reads, wrong ids, reads of quads that are no tag, and each reader's cost per quad.
 * 2. Hard crops from the training data generator (glare, shadows, hands, JPEG, print defects,
 *    dice, rulers, cards, bare dark bases, blank stickers): every labelled quad, a quarter of the
 *    tags' ids left out of play (strangers that must not be read as a declared id).
 * Seeds: scenes 5000 + 100 · size index + n, crops 60000 + n; the tests use 1–99, training
 * 100000+, tuning 1000–1999.
 */
import { parseArgs } from 'node:util';
import { benchScenario } from './accuracy-scenes.ts';
import { frameTable, syntheticCameraProfile, truePose } from '../src/synth/camera.ts';
import { prng } from './accuracy-scenes.ts';
import { renderScene, toGrey } from '../src/synth/render.ts';
import { CandidatePass } from '../src/vision/candidate-pass.ts';
import { quadCentre, quadSide, type Quad } from '../src/vision/candidates.ts';
import { codeBook, dictionaryCodes, type DictionaryCodes } from '../src/vision/code-book.ts';
import { FindingPriors } from '../src/vision/finding-priors.ts';
import { DEFAULT_MODEL_DIR, LearnedTagReader } from '../src/vision/learned-reader.ts';
import { loadOpenCV } from '../src/vision/opencv.ts';
import type { MarkerDictionaryName } from '../src/table/scenario.ts';
import { cropWithSamples, matchQuad } from '../models/tag-reader/samples.ts';
import {
  readBoth,
  timeReaders,
  VETO_NOT_MARKER,
  type PairVerdict,
  type Verdict,
} from './learned-reader-compare.ts';

const { values } = parseArgs({
  options: {
    scenes: { type: 'string', default: '6' },
    crops: { type: 'string', default: '2000' },
    model: { type: 'string' },
  },
});
const scenesPerSize = Number(values.scenes);
const cropCount = Number(values.crops);
if (!(Number.isInteger(scenesPerSize) && scenesPerSize > 0 && Number.isInteger(cropCount) && cropCount >= 0))
  throw new Error('--scenes must be a positive integer and --crops a non-negative one');
const modelDir = values.model
  ? new URL(`file://${values.model.endsWith('/') ? values.model : values.model + '/'}`)
  : DEFAULT_MODEL_DIR;

const SIZES_MM = [12, 15, 20, 25] as const;
const DICTIONARY: MarkerDictionaryName = 'aruco_mip_36h12';
const reader = await LearnedTagReader.load(modelDir);
const cv = await loadOpenCV();
const codes = await dictionaryCodes(DICTIONARY);
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');

interface SizeRow {
  sizeMm: number;
  tags: number;
  withCandidate: number;
  classical: number;
  learned: number;
  onlyLearned: number;
  onlyClassical: number;
  classicalWrong: number;
  learnedWrong: number;
  clutterQuads: number;
  classicalFalse: number;
  learnedFalse: number;
  /** Tags the decoder read that a veto by the network would lose. */
  vetoLost: number;
  quads: number;
  classicalMs: number;
  learnedMs: number;
  cellPx: number[];
}

const right = (v: Verdict, id: number, rotation: number) => v.read && v.id === id && v.rotation === rotation;
const started = performance.now();
const rows: SizeRow[] = [];
for (const [sizeIndex, sizeMm] of SIZES_MM.entries()) {
  const row: SizeRow = {
    sizeMm,
    tags: 0,
    withCandidate: 0,
    classical: 0,
    learned: 0,
    onlyLearned: 0,
    onlyClassical: 0,
    classicalWrong: 0,
    learnedWrong: 0,
    clutterQuads: 0,
    classicalFalse: 0,
    learnedFalse: 0,
    vetoLost: 0,
    quads: 0,
    classicalMs: 0,
    learnedMs: 0,
    cellPx: [],
  };
  for (let n = 0; n < scenesPerSize; n++) {
    const seed = 5000 + 100 * sizeIndex + n;
    const rand = prng(seed);
    const scenario = benchScenario({ dictionary: DICTIONARY, markerMm: sizeMm, seed });
    const cam = frameTable(scenario.table, { resolution: '1080p', tiltDeg: 15 * rand() });
    const frame = await renderScene(scenario, cam, {
      seed,
      noiseSigma: 1.5 + 2.5 * rand(),
      blurSigma: 0.5 + 0.6 * rand(),
      lighting: 0.2 + 0.3 * rand(),
    });
    const grey = { data: toGrey(frame.image), width: cam.width, height: cam.height };
    const markers = frame.truth.bases.filter((b) => b.markerId >= 0 && b.marker.inView);
    const sides = markers.map((m) => quadSide(m.marker.cornersPx as Quad));
    row.cellPx.push(...sides.map((s) => s / (codes.bitsPerSide + 2)));
    // The candidate pass as the pipeline sets it: perimeters down to 0.7 × the smallest tag's.
    const pass = await CandidatePass.create({
      dictionary: DICTIONARY,
      minPerimeterRate: (0.7 * 4 * Math.min(...sides)) / Math.max(cam.width, cam.height),
    });
    const mat = new cv.Mat(cam.height, cam.width, cv.CV_8UC1);
    mat.data.set(grey.data);
    const found = pass.run(mat);
    mat.delete();
    pass.dispose();
    const priors = new FindingPriors(syntheticCameraProfile(cam), truePose(cam), scenario);
    const quads: Quad[] = [];
    let book = null;
    for (const q of [...found.read.map((r) => r.quad), ...found.unread])
      for (const i of priors.interpret(q)) {
        quads.push(i.quad);
        book ??= codeBook(codes, i.markerClass.ids);
      }
    row.tags += markers.length;
    if (!book) continue;
    const verdicts = readBoth(grey, quads, book, reader);
    const timing = timeReaders(grey, quads, book, reader);
    row.quads += quads.length;
    row.classicalMs += timing.classicalMs * quads.length;
    row.learnedMs += timing.learnedMs * quads.length;
    // Each quad belongs to the tag whose centre it sits on (within half a side), or to no tag.
    const at = new Map<number, Array<{ quad: Quad; verdict: PairVerdict }>>();
    quads.forEach((quad, i) => {
      const c = quadCentre(quad);
      const k = markers.findIndex((m) => {
        const mc = quadCentre(m.marker.cornersPx as Quad);
        return Math.hypot(mc.u - c.u, mc.v - c.v) < 0.5 * quadSide(m.marker.cornersPx as Quad);
      });
      if (k < 0) {
        row.clutterQuads++;
        if (verdicts[i]!.classical.read) row.classicalFalse++;
        if (verdicts[i]!.learned.read) row.learnedFalse++;
      } else at.set(k, [...(at.get(k) ?? []), { quad, verdict: verdicts[i]! }]);
    });
    for (const [k, list] of at) {
      const m = markers[k]!;
      row.withCandidate++;
      let c = false;
      let kept = false;
      let l = false;
      let cWrong = false;
      let lWrong = false;
      for (const { quad, verdict } of list) {
        const rotation = matchQuad(quad, m.marker.cornersPx as Quad).rotation;
        if (right(verdict.classical, m.markerId, rotation)) {
          c = true;
          if (verdict.notMarker <= VETO_NOT_MARKER) kept = true;
        } else if (verdict.classical.read) cWrong = true;
        if (right(verdict.learned, m.markerId, rotation)) l = true;
        else if (verdict.learned.read) lWrong = true;
      }
      row.classical += c ? 1 : 0;
      row.vetoLost += c && !kept ? 1 : 0;
      row.learned += l ? 1 : 0;
      row.onlyLearned += l && !c ? 1 : 0;
      row.onlyClassical += c && !l ? 1 : 0;
      row.classicalWrong += cWrong ? 1 : 0;
      row.learnedWrong += lWrong ? 1 : 0;
    }
    console.error(
      `  ${sizeMm} mm seed ${seed}: ${quads.length} quads (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
  }
  rows.push(row);
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;
console.log(
  `## Whole 72 × 48 in table at 1080p, ${scenesPerSize} scenes per size (${DICTIONARY}, tilt 0–15°, noise σ 1.5–4, blur σ 0.5–1.1 px)\n`,
);
console.log(
  '| tag | px/cell (median) | tags | with a candidate | classical reads | learned reads | only learned | only classical | wrong id (classical / learned) | quads on no tag | false reads there (classical / learned) | ms per quad (classical / learned, batched) | decoder reads a network veto would lose |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
for (const r of rows)
  console.log(
    `| ${r.sizeMm} mm | ${median(r.cellPx).toFixed(2)} | ${r.tags} | ${r.withCandidate} | ${r.classical} (${pct(r.classical, r.tags)}) | ${r.learned} (${pct(r.learned, r.tags)}) | ${r.onlyLearned} | ${r.onlyClassical} | ${r.classicalWrong} / ${r.learnedWrong} | ${r.clutterQuads} | ${r.classicalFalse} / ${r.learnedFalse} | ${(r.classicalMs / Math.max(1, r.quads)).toFixed(3)} / ${(r.learnedMs / Math.max(1, r.quads)).toFixed(3)} | ${r.vetoLost} |`,
  );

// 2. Hard crops.
const BINS = [1.0, 1.3, 1.7, 2.3, 3.2, 4.3];
interface CropRow {
  tags: number;
  classical: number;
  learned: number;
  onlyLearned: number;
  onlyClassical: number;
  classicalWrong: number;
  learnedWrong: number;
  strangers: number;
  classicalStrangers: number;
  learnedStrangers: number;
  negatives: number;
  classicalFalse: number;
  learnedFalse: number;
  /** Of those, reads of an id no tag in the crop carries (the rest name a tag nearby from a displaced quad). */
  classicalPhantom: number;
  learnedPhantom: number;
  /** A veto by the network: the decoder's right reads it would lose, and its phantom reads it would stop. */
  vetoLost: number;
  vetoStopped: number;
}
const cropRows: CropRow[] = BINS.slice(1).map(() => ({
  tags: 0,
  classical: 0,
  learned: 0,
  onlyLearned: 0,
  onlyClassical: 0,
  classicalWrong: 0,
  learnedWrong: 0,
  strangers: 0,
  classicalStrangers: 0,
  learnedStrangers: 0,
  negatives: 0,
  classicalFalse: 0,
  learnedFalse: 0,
  classicalPhantom: 0,
  learnedPhantom: 0,
  vetoLost: 0,
  vetoStopped: 0,
}));
/** Reads of non-tag quads naming an id no tag in the crop carries, by kind of quad (samples.ts). */
const phantomKinds = { classical: new Map<string, number>(), learned: new Map<string, number>() };
const bump = (m: Map<string, number>, k: string) => m.set(k, (m.get(k) ?? 0) + 1);
const allCodes = new Map<MarkerDictionaryName, DictionaryCodes>();
for (let n = 0; n < cropCount; n++) {
  const seed = 60_000 + n;
  const crop = await cropWithSamples(seed);
  const dictionary = crop.plan.spec.dictionary;
  let dictCodes = allCodes.get(dictionary);
  if (!dictCodes) allCodes.set(dictionary, (dictCodes = await dictionaryCodes(dictionary)));
  const samples = crop.samples.filter((s) => s.dictionary === dictionary);
  if (samples.length === 0) continue;
  const rand = prng(seed);
  const inPlay = new Set(Array.from({ length: 54 }, (_, i) => 10 + i));
  const strangers = new Set<number>();
  for (const id of new Set(samples.filter((s) => s.marker).map((s) => s.id)))
    if (rand() < 0.25) {
      strangers.add(id);
      inPlay.delete(id);
    } else inPlay.add(id);
  const book = codeBook(dictCodes, inPlay);
  const verdicts = readBoth(
    crop.image,
    samples.map((s) => s.quad),
    book,
    reader,
  );
  const b = BINS.findIndex(
    (lo, i) => crop.plan.spec.pxPerCell >= lo && crop.plan.spec.pxPerCell < BINS[i + 1]!,
  );
  const row = cropRows[Math.max(0, Math.min(cropRows.length - 1, b))]!;
  const idsHere = new Set(samples.filter((s) => s.marker).map((s) => s.id));
  samples.forEach((s, i) => {
    const v = verdicts[i]!;
    if (!s.marker) {
      row.negatives++;
      row.classicalFalse += v.classical.read ? 1 : 0;
      row.learnedFalse += v.learned.read ? 1 : 0;
      if (v.classical.read && !idsHere.has(v.classical.id)) {
        row.classicalPhantom++;
        bump(phantomKinds.classical, s.kind);
        if (v.notMarker > VETO_NOT_MARKER) row.vetoStopped++;
      }
      if (v.learned.read && !idsHere.has(v.learned.id)) {
        row.learnedPhantom++;
        bump(phantomKinds.learned, s.kind);
      }
    } else if (strangers.has(s.id)) {
      row.strangers++;
      row.classicalStrangers += v.classical.read ? 1 : 0;
      row.learnedStrangers += v.learned.read ? 1 : 0;
    } else {
      const c = right(v.classical, s.id, s.rotation);
      const l = right(v.learned, s.id, s.rotation);
      row.tags++;
      row.classical += c ? 1 : 0;
      row.vetoLost += c && v.notMarker > VETO_NOT_MARKER ? 1 : 0;
      row.learned += l ? 1 : 0;
      row.onlyLearned += l && !c ? 1 : 0;
      row.onlyClassical += c && !l ? 1 : 0;
      row.classicalWrong += v.classical.read && !c ? 1 : 0;
      row.learnedWrong += v.learned.read && !l ? 1 : 0;
    }
  });
  if ((n + 1) % 500 === 0)
    console.error(`  crops: ${n + 1}/${cropCount} (${((performance.now() - started) / 1000).toFixed(0)} s)`);
}
if (cropCount > 0) {
  console.log(
    `\n## Hard crops (${cropCount}: glare, shadows, hands, JPEG, print defects, clutter; tilt up to 45°), every labelled quad\n`,
  );
  console.log(
    '| px/cell | tag quads | classical reads | learned reads | only learned | only classical | wrong id (classical / learned) | strangers read as a declared id (classical / learned) | non-tag quads | reads of them (classical / learned) | of which an id no tag here carries (classical / learned) | a network veto: decoder right reads lost / phantoms stopped |',
  );
  console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
  cropRows.forEach((r, i) =>
    console.log(
      `| ${BINS[i]!.toFixed(1)}–${BINS[i + 1]!.toFixed(1)} | ${r.tags} | ${r.classical} (${pct(r.classical, r.tags)}) | ${r.learned} (${pct(r.learned, r.tags)}) | ${r.onlyLearned} | ${r.onlyClassical} | ${r.classicalWrong} / ${r.learnedWrong} | ${r.classicalStrangers} / ${r.learnedStrangers} of ${r.strangers} | ${r.negatives} | ${r.classicalFalse} / ${r.learnedFalse} | ${r.classicalPhantom} / ${r.learnedPhantom} | ${r.vetoLost} / ${r.vetoStopped} |`,
    ),
  );
}
if (cropCount > 0) {
  const list = (m: Map<string, number>) => [...m].map(([k, n]) => `${k} ${n}`).join(', ') || 'none';
  console.log(
    `\nReads of an id no tag in the crop carries, by kind of quad (samples.ts): classical ${list(phantomKinds.classical)}; learned ${list(phantomKinds.learned)}.`,
  );
}
console.log(`\n(${((performance.now() - started) / 1000).toFixed(0)} s; model ${modelDir.pathname})`);
