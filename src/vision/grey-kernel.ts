/**
 * RGB → grey for the vision worker, 16 pixels a step with WebAssembly SIMD, exactly as OpenCV's
 * cvtColor(COLOR_RGB2GRAY) computes 8-bit grey: (9798 R + 19235 G + 3735 B + 2^14) >> 15 (OpenCV 4's
 * 15-bit coefficients; the 14-bit ones of older versions differ on ~0.3 % of pixels).
 * OpenCV.js (no SIMD build) took ~5 ms a 1080p frame for it, plus ~1 ms to copy the RGB frame
 * into its heap; this takes the frame as it is and writes the grey Mat's pixels directly.
 *
 * Each group of 4 pixels (12 bytes) is spread by two shuffles into 16-bit pairs (R, G) and (B, 1),
 * and two i32x4 dot products with (9798, 19235) and (3735, 2^14) give the weighted sums (every
 * factor fits a signed 16-bit lane).
 */

import { advance, instantiate, loop, op, simdModule } from './wasm-simd.ts';

const R2Y = 9798;
const G2Y = 19235;
const B2Y = 3735;
const SHIFT = 15;

/** Grey of one RGB pixel, as cvtColor computes it. */
export function greyOf(r: number, g: number, b: number): number {
  return (r * R2Y + g * G2Y + b * B2Y + (1 << (SHIFT - 1))) >> SHIFT;
}

// Locals: 0 src, 1 dst, 2 blocks (params); 3 pick, 4 (R2Y, G2Y), 5 (B2Y, 2^14); 6–9 four sums.
const PICK = 3;
const RG = 4;
const B1 = 5;
const SUM = 6;
/** Lanes 16 and 17 of a shuffle are the pick vector's bytes 0 and 1: a zero and a one. */
const RG_LANES = [0, 16, 1, 16, 3, 16, 4, 16, 6, 16, 7, 16, 9, 16, 10, 16];
const B1_LANES = [2, 16, 17, 16, 5, 16, 17, 16, 8, 16, 17, 16, 11, 16, 17, 16];
const i16x8 = (a: number, b: number): number[] =>
  Array.from({ length: 4 }, () => [a & 0xff, a >> 8, b & 0xff, b >> 8]).flat();

/** Grey sums of the 4 pixels at src + 12 g, into local SUM + g. */
function groupSum(g: number): number[] {
  return [
    ...op.localGet(0),
    ...op.v128Load(12 * g),
    ...op.localTee(SUM + g), // the 12 bytes, kept for the second shuffle
    ...op.localGet(PICK),
    ...op.shuffle(RG_LANES),
    ...op.localGet(RG),
    ...op.dot,
    ...op.localGet(SUM + g),
    ...op.localGet(PICK),
    ...op.shuffle(B1_LANES),
    ...op.localGet(B1),
    ...op.dot,
    ...op.add32,
    ...op.i32Const(SHIFT),
    ...op.shrU32,
    ...op.localSet(SUM + g),
  ];
}

const KERNEL = simdModule(
  'rgbToGrey',
  3,
  [[7, 0x7b]],
  [
    ...op.v128Const([0, 1, ...new Array<number>(14).fill(0)]),
    ...op.localSet(PICK),
    ...op.v128Const(i16x8(R2Y, G2Y)),
    ...op.localSet(RG),
    ...op.v128Const(i16x8(B2Y, 1 << (SHIFT - 1))),
    ...op.localSet(B1),
    ...loop(2, [
      ...groupSum(0),
      ...groupSum(1),
      ...groupSum(2),
      ...groupSum(3),
      ...op.localGet(1),
      ...op.localGet(SUM),
      ...op.localGet(SUM + 1),
      ...op.narrow32,
      ...op.localGet(SUM + 2),
      ...op.localGet(SUM + 3),
      ...op.narrow32,
      ...op.narrow16,
      ...op.v128Store(),
      ...advance(0, 48),
      ...advance(1, 16),
    ]),
  ],
);

type RgbToGrey = (src: number, dst: number, blocks: number) => void;

/** Whether the SIMD kernel runs here (else a plain loop). */
export const SIMD_GREY = KERNEL !== null;

/** Working memory for one picture size. */
class GreyKernel {
  readonly rgb: Uint8Array;
  readonly grey: Uint8Array;
  readonly run: RgbToGrey;

  constructor(readonly pixels: number) {
    // The last group of 4 pixels reads 4 bytes past the picture: 16 bytes of room after it.
    const greyAt = Math.ceil((3 * pixels + 16) / 16) * 16;
    const { memory, run } = instantiate<RgbToGrey>(KERNEL!, 'rgbToGrey', greyAt + pixels);
    this.rgb = new Uint8Array(memory.buffer, 0, 3 * pixels);
    this.grey = new Uint8Array(memory.buffer, greyAt, pixels);
    this.run = run;
  }
}

let kernel: GreyKernel | null = null;

/** Pixels converted at a time (a multiple of 16): 64 KB of RGB, well inside a core's cache. */
const STRIP_PIXELS = 16 * 1365;

/**
 * Writes the grey of an RGB picture (3 bytes a pixel) into `dst` (1 byte a pixel), bit for bit
 * as cvtColor(COLOR_RGB2GRAY). `simd` false forces the plain loop (tests compare the two).
 */
export function rgbToGrey(rgb: Uint8Array, dst: Uint8Array, simd = true): void {
  const pixels = dst.length;
  if (rgb.length !== 3 * pixels) throw new Error(`rgbToGrey: ${rgb.length} RGB bytes for ${pixels} pixels`);
  let i = 0;
  if (KERNEL && simd && pixels >= 16) {
    const strip = Math.min(pixels, STRIP_PIXELS);
    if (kernel?.pixels !== strip) kernel = new GreyKernel(strip);
    // Strip by strip through the kernel's memory, which stays in the cache: copying the whole
    // frame in and its grey out went through main memory twice (2.8 → 2.2 ms a 1080p frame).
    const whole = (pixels >> 4) << 4;
    for (let at = 0; at < whole; at += strip) {
      const n = Math.min(strip, whole - at);
      kernel.rgb.set(rgb.subarray(3 * at, 3 * (at + n)));
      kernel.run(kernel.rgb.byteOffset, kernel.grey.byteOffset, n >> 4);
      dst.set(kernel.grey.subarray(0, n), at);
    }
    i = whole;
  }
  for (let j = 3 * i; i < pixels; i++, j += 3) dst[i] = greyOf(rgb[j]!, rgb[j + 1]!, rgb[j + 2]!);
}
