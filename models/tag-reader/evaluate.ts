/**
 * The model card's figures, from the shipped files alone (LearnedTagReader.load, as the pipeline
 * would load them), on the held-out evaluation half that training never saw:
 *
 *   npm run evaluate:tag-reader [-- --model models/tag-reader/ --workers 2]
 *
 * Crops 201000–201999 (train.ts's evaluation half; its calibration half is 200000–200999), each
 * patch judged as one episode (calibrate.ts: 8–60 ids in play, one tag in four a stranger). Per
 * band of pixels per cell: tags read right, wrong ids, strangers read as a declared id, non-tag
 * quads read (and of those, read as the id of a tag in the same crop: a displaced quad, not a
 * phantom), and the expected calibration error (ECE) of the top outcome's probability.
 */
import { readFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { DEFAULT_MODEL_DIR, LearnedTagReader } from '../../src/vision/learned-reader.ts';
import { judge, makeEpisodes, reliability, type Judged } from './calibrate.ts';
import { generateDataset, OUTPUTS, PATCH_PIXELS } from './dataset.ts';

const { values } = parseArgs({
  options: {
    model: { type: 'string' },
    workers: { type: 'string', default: '2' },
  },
});
const dir = values.model
  ? new URL(`file://${values.model.endsWith('/') ? values.model : values.model + '/'}`)
  : DEFAULT_MODEL_DIR;
const reader = await LearnedTagReader.load(dir);
const metrics = JSON.parse(await readFile(new URL('metrics.json', dir), 'utf8')) as {
  seed: number;
  evaluationSeeds: [number, number];
};
const [first, last] = metrics.evaluationSeeds;
const data = await generateDataset({ firstSeed: first, crops: last - first + 1 }, Number(values.workers));
const logits = new Float32Array(data.count * OUTPUTS);
for (let s = 0; s < data.count; s += 512) {
  const n = Math.min(512, data.count - s);
  const patches = Array.from({ length: n }, (_, i) =>
    data.patches.subarray((s + i) * PATCH_PIXELS, (s + i + 1) * PATCH_PIXELS),
  );
  logits.set(reader.outputs(patches), s * OUTPUTS);
}
// The same episodes as train.ts drew for its evaluation half.
const judged = await judge(
  data,
  logits,
  makeEpisodes(data, metrics.seed + 31),
  reader.spec.calibration,
  reader.spec.readThreshold,
);
const tagIdsOfCrop = new Map<number, Set<number>>();
for (const info of data.info)
  if (info.marker) tagIdsOfCrop.set(info.seed, (tagIdsOfCrop.get(info.seed) ?? new Set()).add(info.id));

const BANDS: Array<[number, number, string]> = [
  [1.0, 1.3, '12 mm'],
  [1.3, 1.7, '15 mm'],
  [1.7, 2.3, '20 mm'],
  [2.3, 3.2, '25 mm'],
  [3.2, 4.3, '30 mm +'],
];
const pct = (a: number, b: number) => (b ? `${((100 * a) / b).toFixed(1)} %` : '–');
console.log(
  `Held-out evaluation crops ${first}–${last} (${data.count} patches), model ${dir.pathname}, read threshold ${reader.spec.readThreshold}\n`,
);
console.log(
  '| px/cell | about (1080p, whole table) | tags in play | read right | wrong id | strangers read | non-tag quads | read | of which displaced | ECE |',
);
console.log('| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |');
const row = (label: string, about: string, list: readonly Judged[]) => {
  const tags = list.filter((j) => j.episode.outcome === 'view');
  const right = tags.filter((j) => j.verdict === 'right').length;
  const wrong = tags.filter((j) => j.verdict === 'wrong').length;
  const strangers = list.filter((j) => j.episode.outcome === 'foreign');
  const negatives = list.filter((j) => j.episode.outcome === 'none');
  const negativesRead = negatives.filter((j) => j.verdict !== 'unread');
  const displaced = negativesRead.filter((j) => tagIdsOfCrop.get(j.episode.info.seed)?.has(j.id) ?? false);
  console.log(
    `| ${label} | ${about} | ${tags.length} | ${right} (${pct(right, tags.length)}) | ${wrong} | ${strangers.filter((j) => j.verdict !== 'unread').length}/${strangers.length} | ${negatives.length} | ${negativesRead.length} (${pct(negativesRead.length, negatives.length)}) | ${displaced.length} | ${(100 * reliability(list).ece).toFixed(2)} % |`,
  );
};
for (const [lo, hi, about] of BANDS)
  row(
    `${lo.toFixed(1)}–${hi.toFixed(1)}`,
    about,
    judged.filter((j) => j.episode.info.pxPerCell >= lo && j.episode.info.pxPerCell < hi),
  );
row('all', '', judged);
const rel = reliability(judged);
console.log('\nReliability of the top outcome (all bands):\n');
console.log('| confidence | patches | mean confidence | accuracy |');
console.log('| --- | --- | --- | --- |');
for (const r of rel.rows)
  console.log(
    `| ${r.lo.toFixed(1)}–${r.hi.toFixed(1)} | ${r.n} | ${r.conf.toFixed(3)} | ${r.accuracy.toFixed(3)} |`,
  );
