import { fixedNoise, fixedPicture, NoiseKernel } from './noise-kernel.ts';

/**
 * Sensor effects: a seeded PRNG, Gaussian noise from a precomputed table (fast enough for
 * every frame of the live table), and a separable Gaussian blur standing in for lens softness.
 */

/** xorshift32: tiny, fast and deterministic for a seed. */
export class Prng {
  private s: number;
  constructor(seed: number) {
    // Mix the seed so that 0, 1, 2… give unrelated streams (and never the all-zero state).
    let s = (seed ^ 0x9e3779b9) >>> 0;
    s = Math.imul(s ^ (s >>> 16), 0x85ebca6b) >>> 0;
    s = Math.imul(s ^ (s >>> 13), 0xc2b2ae35) >>> 0;
    this.s = (s ^ (s >>> 16)) >>> 0 || 0x6d2b79f5;
  }
  nextU32(): number {
    let s = this.s;
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    this.s = s >>> 0;
    return this.s;
  }
  /** Uniform in [0, 1). */
  next(): number {
    return this.nextU32() / 4294967296;
  }
}

/** 65 536 standard-normal quantiles: one table lookup per noise sample instead of Box–Muller. */
const GAUSS = (() => {
  const n = 65536;
  const t = new Float32Array(n);
  for (let i = 0; i < n; i++) t[i] = inverseNormal((i + 0.5) / n);
  return t;
})();

/** Acklam's rational approximation of the standard normal quantile (|error| < 1.2e-9). */
function inverseNormal(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628277459239,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  if (p > 1 - lo) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return (
      -(((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) /
    (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
  );
}

/**
 * Quantises a linear float RGB buffer to 8 bits, adding N(0, sigma²) noise per channel.
 * Writes `out` (same length as `src`).
 */
export function quantiseWithNoise(src: Float32Array, dst: Uint8Array, sigma: number, rng: Prng): void {
  // A clamped view: plain Uint8Array would wrap 260 to 4.
  const out = new Uint8ClampedArray(dst.buffer, dst.byteOffset, dst.length);
  const n = src.length;
  if (sigma <= 0) {
    for (let i = 0; i < n; i++) out[i] = src[i]!;
    return;
  }
  let i = 0;
  for (; i + 1 < n; i += 2) {
    const r = rng.nextU32();
    out[i] = src[i]! + sigma * GAUSS[r & 0xffff]!;
    out[i + 1] = src[i + 1]! + sigma * GAUSS[r >>> 16]!;
  }
  if (i < n) out[i] = src[i]! + sigma * GAUSS[rng.nextU32() & 0xffff]!;
}

export interface Rect {
  readonly x0: number;
  readonly y0: number;
  /** Exclusive. */
  readonly x1: number;
  readonly y1: number;
}

export function gaussianKernel(sigma: number): Float32Array {
  if (sigma <= 0) return Float32Array.of(1);
  const r = Math.max(1, Math.ceil(3 * sigma));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp((-i * i) / (2 * sigma * sigma));
  for (let i = 0; i < k.length; i++) k[i]! /= sum;
  return k;
}

/**
 * Separable Gaussian blur of an RGB float image, computed for the pixels of `rect` only
 * (reading outside it as needed, clamping at the image border), written into `dst`.
 * `tmp` must hold width × height × 3 floats.
 */
export function blurRgb(
  src: Float32Array,
  dst: Float32Array,
  tmp: Float32Array,
  width: number,
  height: number,
  kernel: Float32Array,
  rect: Rect = { x0: 0, y0: 0, x1: width, y1: height },
): void {
  const r = (kernel.length - 1) / 2;
  if (r === 0) {
    for (let y = rect.y0; y < rect.y1; y++) {
      const a = (y * width + rect.x0) * 3;
      dst.set(src.subarray(a, a + (rect.x1 - rect.x0) * 3), a);
    }
    return;
  }
  // Horizontal pass over the rows the vertical pass will read.
  const ya = Math.max(0, rect.y0 - r);
  const yb = Math.min(height, rect.y1 + r);
  for (let y = ya; y < yb; y++) {
    const row = y * width;
    for (let x = rect.x0; x < rect.x1; x++) {
      let sr = 0;
      let sg = 0;
      let sb = 0;
      for (let k = -r; k <= r; k++) {
        const xx = x + k < 0 ? 0 : x + k >= width ? width - 1 : x + k;
        const w = kernel[k + r]!;
        const j = (row + xx) * 3;
        sr += w * src[j]!;
        sg += w * src[j + 1]!;
        sb += w * src[j + 2]!;
      }
      const o = (row + x) * 3;
      tmp[o] = sr;
      tmp[o + 1] = sg;
      tmp[o + 2] = sb;
    }
  }
  for (let y = rect.y0; y < rect.y1; y++) {
    for (let x = rect.x0; x < rect.x1; x++) {
      let sr = 0;
      let sg = 0;
      let sb = 0;
      for (let k = -r; k <= r; k++) {
        const yy = y + k < 0 ? 0 : y + k >= height ? height - 1 : y + k;
        const w = kernel[k + r]!;
        const j = (yy * width + x) * 3;
        sr += w * tmp[j]!;
        sg += w * tmp[j + 1]!;
        sb += w * tmp[j + 2]!;
      }
      const o = (y * width + x) * 3;
      dst[o] = sr;
      dst[o + 1] = sg;
      dst[o + 2] = sb;
    }
  }
}

/**
 * Sensor noise for the live demo at camera rate: one bank of Gaussian samples drawn once, laid
 * over each frame from a fresh random offset. Drawing 6 million fresh samples cost ~50 ms a
 * 1080p frame; the bank costs an add per sample, done 16 at a time in fixed point by the SIMD
 * kernel (noise-kernel.ts) on a fixed-point copy of the picture that is updated only where the
 * picture changed (`setPicture` with a rectangle). Every pixel's noise still changes from frame to
 * frame (a new offset); the field repeats only beyond the bank's length. Values keep 1/64 grey
 * level until the final rounding. Renders that tests and benchmarks score use `quantiseWithNoise`.
 */
export class NoiseBank {
  private kernel: NoiseKernel | null = null;
  private readonly bank: Int16Array;

  constructor(sigma: number, seed: number, length = 1 << 22) {
    this.bank = new Int16Array(length);
    const rng = new Prng(seed);
    for (let i = 0; i < length; i++) this.bank[i] = fixedNoise(sigma * GAUSS[rng.nextU32() & 0xffff]!);
  }

  /**
   * Takes the picture the noise is laid over: all of it, or only `rect` of an RGB picture
   * `width` pixels wide (where it changed since the last call).
   */
  setPicture(src: Float32Array, rect?: Rect & { readonly width: number }): void {
    let kernel = this.kernel;
    if (!kernel || kernel.picture.length !== src.length) {
      kernel = this.kernel = new NoiseKernel(src.length, this.bank.length);
      kernel.noise.set(this.bank);
      rect = undefined;
    }
    const pic = kernel.picture;
    if (!rect) {
      for (let i = 0; i < src.length; i++) pic[i] = fixedPicture(src[i]!);
      return;
    }
    for (let y = rect.y0; y < rect.y1; y++) {
      const end = (y * rect.width + rect.x1) * 3;
      for (let i = (y * rect.width + rect.x0) * 3; i < end; i++) pic[i] = fixedPicture(src[i]!);
    }
  }

  /** The picture last set, with fresh noise from the offset `key` picks, into `dst`. */
  applyTo(dst: Uint8Array, key: number): void {
    const kernel = this.kernel;
    if (!kernel || kernel.out.length !== dst.length)
      throw new Error('NoiseBank: no picture of this size set');
    const m = this.bank.length;
    let k = new Prng(key).nextU32() % m;
    const n = dst.length;
    // In runs to the end of the bank (no wrap test per sample).
    for (let i = 0; i < n; k = 0) {
      const len = Math.min(n - i, m - k);
      kernel.run(i, k, len);
      i += len;
    }
    dst.set(kernel.out);
  }

  /** `setPicture(src)` then `applyTo(dst, key)`. */
  apply(src: Float32Array, dst: Uint8Array, key: number): void {
    this.setPicture(src);
    this.applyTo(dst, key);
  }
}
