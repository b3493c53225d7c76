import { codeBook, dictionaryCodes, type CodeBook } from '../../src/vision/code-book.ts';
import {
  decide,
  scoreViews,
  type LearnedReading,
  type ReaderCalibration,
} from '../../src/vision/learned-reader.ts';
import type { MarkerDictionaryName } from '../../src/table/scenario.ts';
import { OUTPUTS, type Dataset, type SampleInfo } from './dataset.ts';
import { Rng } from './rng.ts';
import { DATA_BITS } from './samples.ts';

/**
 * Calibration of the reader's outputs on held-out renders, and the figures of the model card.
 *
 * Each held-out sample becomes one episode: a scenario's book of ids in play (8–60 ids of the
 * sample's dictionary); a marker's own id is in play three times in four, otherwise it is a
 * stranger (a code not in play). The outcome to predict is the view in play, "a code not in
 * play", or "not a marker". Temperature on the bits and Platt scaling of the marker logit are
 * fitted by minimising the outcomes' negative log-likelihood (Nelder–Mead on three numbers); the
 * prior odds of a stranger are fixed at even (foreignLogOdds 0): an id in play must fit its
 * bits better than all other codes together.
 */

export interface Episode {
  readonly index: number;
  readonly info: SampleInfo;
  readonly ids: readonly number[];
  /** 'view': the true view is in play; 'foreign': a marker not in play; 'none': not a marker. */
  readonly outcome: 'view' | 'foreign' | 'none';
}

export function makeEpisodes(data: Dataset, seed: number): Episode[] {
  const rng = new Rng(seed);
  return data.info.map((info, index) => {
    const count = info.dictionary === 'apriltag_36h11' ? 587 : 250;
    const k = 8 + rng.int(53);
    const ids = new Set<number>();
    while (ids.size < k) ids.add(rng.int(count));
    let outcome: Episode['outcome'] = 'none';
    if (info.marker) {
      if (rng.chance(0.75)) {
        ids.add(info.id);
        outcome = 'view';
      } else {
        ids.delete(info.id);
        outcome = 'foreign';
      }
    }
    return { index, info, ids: [...ids].sort((a, b) => a - b), outcome };
  });
}

export function readingOf(
  logits: Float32Array,
  index: number,
  calibration?: ReaderCalibration,
): LearnedReading {
  const row = logits.subarray(index * OUTPUTS, (index + 1) * OUTPUTS);
  const bitLogits = Float32Array.from(row.subarray(0, DATA_BITS));
  const raw = row[DATA_BITS]!;
  const markerLogit = calibration ? calibration.markerScale * raw + calibration.markerBias : raw;
  return {
    bitLogits,
    bitProbabilities: bitLogits.map((z) => 1 / (1 + Math.exp(-z))),
    markerLogit,
    markerProbability: 1 / (1 + Math.exp(-markerLogit)),
  };
}

const fullBooks = new Map<MarkerDictionaryName, CodeBook>();
async function fullBook(dictionary: MarkerDictionaryName): Promise<CodeBook> {
  let book = fullBooks.get(dictionary);
  if (!book) {
    const codes = await dictionaryCodes(dictionary);
    book = codeBook(
      codes,
      Array.from({ length: codes.count }, (_, i) => i),
    );
    fullBooks.set(dictionary, book);
  }
  return book;
}

function logSigmoid(z: number): number {
  return z >= 0 ? -Math.log1p(Math.exp(-z)) : z - Math.log1p(Math.exp(z));
}

interface Prepared {
  readonly episode: Episode;
  /** Bits' log-likelihood of every view of the whole dictionary (id × 4 + rotation). */
  readonly all: Float32Array;
  readonly inPlay: Uint8Array;
  readonly markerLogit: number;
}

async function prepare(episodes: readonly Episode[], logits: Float32Array): Promise<Prepared[]> {
  const out: Prepared[] = [];
  for (const e of episodes) {
    const book = await fullBook(e.info.dictionary);
    const z = logits.subarray(e.index * OUTPUTS, e.index * OUTPUTS + DATA_BITS);
    let allBlack = 0;
    for (let k = 0; k < DATA_BITS; k++) allBlack += logSigmoid(-z[k]!);
    const all = new Float32Array(book.views.length);
    book.views.forEach((v, h) => {
      let s = allBlack;
      for (const k of v.white) s += z[k]!;
      all[h] = s;
    });
    const inPlay = new Uint8Array(book.ids.length);
    for (const id of e.ids) inPlay[id] = 1;
    out.push({ episode: e, all, inPlay, markerLogit: logits[e.index * OUTPUTS + DATA_BITS]! });
  }
  return out;
}

/** Mean negative log-likelihood of the true outcomes under (log T, scale, bias). */
function meanNll(prepared: readonly Prepared[], params: readonly number[]): number {
  const t = Math.exp(params[0]!);
  const [, scale, bias] = params as [number, number, number];
  let nll = 0;
  for (const p of prepared) {
    const zm = scale * p.markerLogit + bias;
    const logM = logSigmoid(zm);
    const nIn = p.episode.ids.length * 4;
    const nOut = p.all.length - nIn;
    let max = -Infinity;
    for (let h = 0; h < p.all.length; h++) max = Math.max(max, p.all[h]! / t);
    let sumIn = 0;
    let sumOut = 0;
    for (let h = 0; h < p.all.length; h++) {
      const e = Math.exp(p.all[h]! / t - max);
      if (p.inPlay[h >> 2]) sumIn += e;
      else sumOut += e;
    }
    const lseIn = logM - Math.log(nIn) + max + Math.log(sumIn);
    const lseOut = nOut > 0 ? logM - Math.log(nOut) + max + Math.log(sumOut) : -Infinity;
    const none = logSigmoid(-zm);
    const top = Math.max(lseIn, lseOut, none);
    const total = top + Math.log(Math.exp(lseIn - top) + Math.exp(lseOut - top) + Math.exp(none - top));
    let target: number;
    if (p.episode.outcome === 'none') target = none;
    else if (p.episode.outcome === 'foreign') target = lseOut;
    else {
      const h = p.episode.info.id * 4 + p.episode.info.rotation;
      target = logM - Math.log(nIn) + p.all[h]! / t;
    }
    nll -= target - total;
  }
  return nll / prepared.length;
}

/** Nelder–Mead on a few parameters. */
function minimise(f: (x: number[]) => number, start: number[], step: number[], iterations = 200): number[] {
  const n = start.length;
  let simplex = [start, ...start.map((_, i) => start.map((v, j) => (i === j ? v + step[i]! : v)))];
  let values = simplex.map(f);
  for (let it = 0; it < iterations; it++) {
    const order = values.map((v, i) => [v, i] as const).sort((a, b) => a[0] - b[0]);
    simplex = order.map(([, i]) => simplex[i]!);
    values = order.map(([v]) => v);
    const centroid = start.map((_, j) => simplex.slice(0, n).reduce((s, p) => s + p[j]!, 0) / n);
    const worst = simplex[n]!;
    const at = (k: number) => centroid.map((c, j) => c + k * (worst[j]! - c));
    const reflected = at(-1);
    const fr = f(reflected);
    if (fr < values[0]!) {
      const expanded = at(-2);
      const fe = f(expanded);
      [simplex[n], values[n]] = fe < fr ? [expanded, fe] : [reflected, fr];
    } else if (fr < values[n - 1]!) {
      [simplex[n], values[n]] = [reflected, fr];
    } else {
      const contracted = at(0.5);
      const fc = f(contracted);
      if (fc < values[n]!) [simplex[n], values[n]] = [contracted, fc];
      else {
        simplex = simplex.map((p) => p.map((v, j) => simplex[0]![j]! + 0.5 * (v - simplex[0]![j]!)));
        values = simplex.map(f);
      }
    }
  }
  const best = values.indexOf(Math.min(...values));
  return simplex[best]!;
}

export async function fitCalibration(
  data: Dataset,
  logits: Float32Array,
  seed: number,
): Promise<{ calibration: ReaderCalibration; nllBefore: number; nllAfter: number }> {
  const prepared = await prepare(makeEpisodes(data, seed), logits);
  const nllBefore = meanNll(prepared, [0, 1, 0]);
  const best = minimise((x) => meanNll(prepared, x), [0, 1, 0], [0.3, 0.2, 0.5]);
  return {
    calibration: {
      bitTemperature: Math.exp(best[0]!),
      markerScale: best[1]!,
      markerBias: best[2]!,
      foreignLogOdds: 0,
    },
    nllBefore,
    nllAfter: meanNll(prepared, best),
  };
}

/** One episode judged through the runtime path (scoreViews, decide). */
export interface Judged {
  readonly episode: Episode;
  /** The most probable id in play (read or not). */
  readonly id: number;
  readonly confidence: number;
  /** Probability of the most probable outcome of all (a view, a stranger, or not a marker) and whether it was right. */
  readonly topProbability: number;
  readonly topRight: boolean;
  readonly verdict: 'right' | 'wrong' | 'unread';
}

export async function judge(
  data: Dataset,
  logits: Float32Array,
  episodes: readonly Episode[],
  calibration: ReaderCalibration,
  threshold: number,
): Promise<Judged[]> {
  const codes = new Map<MarkerDictionaryName, Awaited<ReturnType<typeof dictionaryCodes>>>();
  const out: Judged[] = [];
  for (const e of episodes) {
    let c = codes.get(e.info.dictionary);
    if (!c) codes.set(e.info.dictionary, (c = await dictionaryCodes(e.info.dictionary)));
    const book = codeBook(c, e.ids);
    const d = decide(scoreViews(readingOf(logits, e.index, calibration), book, calibration), book, threshold);
    const right = e.outcome === 'view' && d.id === e.info.id && d.rotation === e.info.rotation;
    const top = Math.max(d.confidence, d.foreign, d.notMarker);
    const topRight =
      top === d.confidence ? right : top === d.foreign ? e.outcome === 'foreign' : e.outcome === 'none';
    out.push({
      episode: e,
      id: d.id,
      confidence: d.confidence,
      topProbability: top,
      topRight,
      verdict: !d.read ? 'unread' : right ? 'right' : 'wrong',
    });
  }
  return out;
}

/** Smallest threshold from a ladder with no wrong reading on these episodes (judged at threshold 0). */
export function chooseThreshold(
  judged: readonly Judged[],
  ladder = [0.5, 0.8, 0.9, 0.95, 0.98, 0.99, 0.995, 0.999],
): number {
  for (const t of ladder) {
    const wrong = judged.some((j) => j.confidence >= t && j.verdict === 'wrong');
    if (!wrong) return t;
  }
  return ladder[ladder.length - 1]!;
}

/** Reliability of the top outcome's probability: per bin, mean confidence against accuracy. */
export function reliability(judged: readonly Judged[], bins = 10) {
  const rows = Array.from({ length: bins }, (_, b) => ({
    lo: b / bins,
    hi: (b + 1) / bins,
    n: 0,
    conf: 0,
    right: 0,
  }));
  for (const j of judged) {
    const b = Math.min(bins - 1, Math.floor(j.topProbability * bins));
    rows[b]!.n++;
    rows[b]!.conf += j.topProbability;
    rows[b]!.right += j.topRight ? 1 : 0;
  }
  const ece =
    rows.reduce((s, r) => s + (r.n ? Math.abs(r.conf - r.right) : 0), 0) / Math.max(1, judged.length);
  return {
    ece,
    rows: rows.filter((r) => r.n > 0).map((r) => ({ ...r, conf: r.conf / r.n, accuracy: r.right / r.n })),
  };
}
