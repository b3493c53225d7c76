/**
 * What each marker dictionary can promise before any picture is taken: its codes' minimum
 * Hamming distance (over all four rotations, as a detector sees them), hence how many bit errors
 * it can correct without confusing two markers, and how often a random pattern (a patch of
 * clutter that passes the black-border test) would be accepted as some marker when the detector
 * corrects a given number of bits.
 *
 * The codes come from OpenCV's own dictionaries (src/synth/marker-bits.ts), so the figures are
 * about exactly the markers Vedette prints and detects.
 */
import { markerBits } from '../src/synth/marker-bits.ts';
import { MARKER_DICTIONARIES, type MarkerDictionaryName } from '../src/table/scenario.ts';
import { prng } from './accuracy-scenes.ts';
import { loadOpenCV } from '../src/vision/opencv.ts';
import { dictionaryConstant } from '../src/vision/dictionary.ts';

export interface DictionaryFacts {
  readonly dictionary: MarkerDictionaryName;
  /** Data bits per side (the black border not counted). */
  readonly bitsPerSide: number;
  readonly ids: number;
  /** Smallest Hamming distance between two different markers, or a marker and its own rotation. */
  readonly minDistance: number;
  /** Bit errors that can be corrected without ever choosing the wrong marker: ⌊(d − 1) / 2⌋. */
  readonly safeCorrection: number;
  /** `maxCorrectionBits` OpenCV 4.12 ships for this dictionary (it corrects `errorCorrectionRate` × this). */
  readonly opencvMaxCorrectionBits: number;
  /** Probability that a uniformly random pattern is accepted as some marker, by bits corrected (index). */
  readonly randomAcceptance: readonly number[];
}

/** Bits of a code as two 32-bit words (up to 64 bits), row-major, 1 = white. */
type Code = readonly [number, number];

function popcount32(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}
const distance = (a: Code, b: Code): number => popcount32(a[0] ^ b[0]) + popcount32(a[1] ^ b[1]);

function pack(bits: ArrayLike<number>): Code {
  let lo = 0;
  let hi = 0;
  for (let i = 0; i < bits.length; i++) {
    if (!bits[i]) continue;
    if (i < 32) lo |= 1 << i;
    else hi |= 1 << (i - 32);
  }
  return [lo >>> 0, hi >>> 0];
}

/** The four rotations (0°, 90°, 180°, 270°) of an n × n data grid. */
function rotations(grid: Uint8Array, n: number): Code[] {
  const out: Code[] = [];
  let g = grid;
  for (let r = 0; r < 4; r++) {
    out.push(pack(g));
    const next = new Uint8Array(n * n);
    for (let y = 0; y < n; y++) for (let x = 0; x < n; x++) next[x * n + (n - 1 - y)] = g[y * n + x]!;
    g = next;
  }
  return out;
}

export async function dictionaryFacts(
  dictionary: MarkerDictionaryName,
  maxCorrection = 8,
  samples = 20_000,
): Promise<DictionaryFacts> {
  const cv = await loadOpenCV();
  const dict = cv.getPredefinedDictionary(dictionaryConstant(cv, dictionary));
  const ids = dict.bytesList.rows as number;
  const opencvMaxCorrectionBits = dict.maxCorrectionBits as number;
  dict.delete?.();
  const codes: Code[][] = [];
  let n = 0;
  for (let id = 0; id < ids; id++) {
    const b = await markerBits(dictionary, id);
    n = b.cells - 2;
    const grid = new Uint8Array(n * n);
    for (let y = 0; y < n; y++)
      for (let x = 0; x < n; x++) grid[y * n + x] = b.white[(y + 1) * b.cells + x + 1]!;
    codes.push(rotations(grid, n));
  }
  let minDistance = Infinity;
  for (let i = 0; i < ids; i++) {
    const ci = codes[i]!;
    for (let r = 1; r < 4; r++) minDistance = Math.min(minDistance, distance(ci[0]!, ci[r]!));
    for (let j = i + 1; j < ids; j++)
      for (const c of codes[j]!) minDistance = Math.min(minDistance, distance(ci[0]!, c));
  }
  // Monte Carlo: the nearest code (any id, any rotation) to a random pattern.
  const rand = prng(12345);
  const bits = n * n;
  const hist = new Array<number>(maxCorrection + 1).fill(0);
  const all = codes.flat();
  for (let s = 0; s < samples; s++) {
    const lo = Math.floor(rand() * 2 ** 32) >>> 0;
    const hi = bits > 32 ? Math.floor(rand() * 2 ** (bits - 32)) >>> 0 : 0;
    const lo2 = bits < 32 ? lo & ((1 << bits) - 1) : lo;
    const code: Code = [lo2 >>> 0, hi];
    let best = Infinity;
    for (const c of all) {
      const d = distance(code, c);
      if (d < best) best = d;
      if (best === 0) break;
    }
    if (best <= maxCorrection) hist[best]!++;
  }
  const randomAcceptance: number[] = [];
  let cum = 0;
  for (let c = 0; c <= maxCorrection; c++) {
    cum += hist[c]!;
    randomAcceptance.push(cum / samples);
  }
  return {
    dictionary,
    bitsPerSide: n,
    ids,
    minDistance,
    safeCorrection: Math.floor((minDistance - 1) / 2),
    opencvMaxCorrectionBits,
    randomAcceptance,
  };
}

export async function allDictionaryFacts(): Promise<DictionaryFacts[]> {
  const out: DictionaryFacts[] = [];
  for (const d of MARKER_DICTIONARIES) out.push(await dictionaryFacts(d));
  return out;
}
