/**
 * The live demo's noise kernel: adds a fixed-point noise run to a fixed-point picture and rounds
 * and clamps to 8 bits, 16 samples per step with WebAssembly SIMD (a plain loop over the 6 million
 * samples of a 1080p frame cost ~30 ms of CPU, the demo's whole frame budget; this ~2 ms).
 *
 * Samples are Int16 with FIXED_SHIFT fractional bits, so sub-grey-level picture values and noise
 * survive until the final rounding, as `quantiseWithNoise` rounds floats.
 */

/** Fractional bits of the fixed-point samples (value × 64). */
export const FIXED_SHIFT = 6;
const ONE = 1 << FIXED_SHIFT;
/** Picture values are clamped to this range before the noise (|noise| ≤ NOISE_LIMIT keeps Int16 sums exact). */
export const PICTURE_MIN = -128;
export const PICTURE_MAX = 383;
export const NOISE_LIMIT = 127;

/** A picture value in fixed point, with half a grey level added so the final shift rounds. */
export function fixedPicture(v: number): number {
  const c = v < PICTURE_MIN ? PICTURE_MIN : v > PICTURE_MAX ? PICTURE_MAX : v;
  return Math.round(c * ONE) + (ONE >> 1);
}

export function fixedNoise(v: number): number {
  const c = v < -NOISE_LIMIT ? -NOISE_LIMIT : v > NOISE_LIMIT ? NOISE_LIMIT : v;
  return Math.round(c * ONE);
}

/*
 * (func (export "addNoise") (param $pic i32) (param $noise i32) (param $dst i32) (param $blocks i32)
 *   loop while $blocks: dst[0..16] = narrow_u(shr_s(pic[0..8] + noise[0..8], 6), shr_s(pic[8..16] + noise[8..16], 6))
 * i16x8.add wraps, but the clamps above keep every sum inside Int16; narrow_i16x8_u saturates to 0–255.
 */
// prettier-ignore
const MODULE = Uint8Array.of(
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x08, 0x01, 0x60, 0x04, 0x7f, 0x7f, 0x7f, 0x7f, 0x00, // type: (i32 i32 i32 i32) -> ()
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x05, 0x03, 0x01, 0x00, 0x01, // memory: at least 1 page (grown from JS)
  0x07, 0x15, 0x02, // exports: "memory", "addNoise"
  0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00,
  0x08, 0x61, 0x64, 0x64, 0x4e, 0x6f, 0x69, 0x73, 0x65, 0x00, 0x00,
  0x0a, 0x5d, 0x01, 0x5b, 0x00, // code: one body of 0x5b bytes, no locals
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0x03, 0x45, 0x0d, 0x01, // if blocks == 0: break
  0x20, 0x02, // dst (store address)
  0x20, 0x00, 0xfd, 0x00, 0x04, 0x00, // v128.load pic
  0x20, 0x01, 0xfd, 0x00, 0x04, 0x00, // v128.load noise
  0xfd, 0x8e, 0x01, 0x41, 0x06, 0xfd, 0x8c, 0x01, // i16x8.add, i16x8.shr_s 6
  0x20, 0x00, 0xfd, 0x00, 0x04, 0x10, // v128.load pic + 16
  0x20, 0x01, 0xfd, 0x00, 0x04, 0x10, // v128.load noise + 16
  0xfd, 0x8e, 0x01, 0x41, 0x06, 0xfd, 0x8c, 0x01, // i16x8.add, i16x8.shr_s 6
  0xfd, 0x66, // i8x16.narrow_i16x8_u
  0xfd, 0x0b, 0x04, 0x00, // v128.store dst
  0x20, 0x00, 0x41, 0x20, 0x6a, 0x21, 0x00, // pic += 32
  0x20, 0x01, 0x41, 0x20, 0x6a, 0x21, 0x01, // noise += 32
  0x20, 0x02, 0x41, 0x10, 0x6a, 0x21, 0x02, // dst += 16
  0x20, 0x03, 0x41, 0x01, 0x6b, 0x21, 0x03, // blocks -= 1
  0x0c, 0x00, 0x0b, 0x0b, 0x0b, // br loop; end loop, block, function
);

type AddNoise = (pic: number, noise: number, dst: number, blocks: number) => void;

/** The compiled kernel, or null where WebAssembly SIMD is missing (then a scalar loop runs). */
const KERNEL: WebAssembly.Module | null = WebAssembly.validate(MODULE)
  ? new WebAssembly.Module(MODULE)
  : null;

/** Whether the SIMD kernel runs here (else the scalar loop). */
export const SIMD_NOISE = KERNEL !== null;

/**
 * Working memory for one picture size: the fixed-point picture, the noise bank and the output,
 * side by side in one WebAssembly memory (or plain arrays without SIMD).
 */
export class NoiseKernel {
  readonly picture: Int16Array;
  readonly noise: Int16Array;
  readonly out: Uint8Array;
  private readonly add: AddNoise | null;

  constructor(samples: number, noiseLength: number) {
    const bytes = 2 * samples + 2 * noiseLength + samples;
    if (KERNEL) {
      const instance = new WebAssembly.Instance(KERNEL);
      const memory = instance.exports['memory'] as WebAssembly.Memory;
      const need = Math.ceil(bytes / 65536) + 1;
      memory.grow(need - memory.buffer.byteLength / 65536);
      this.picture = new Int16Array(memory.buffer, 0, samples);
      this.noise = new Int16Array(memory.buffer, 2 * samples, noiseLength);
      this.out = new Uint8Array(memory.buffer, 2 * samples + 2 * noiseLength, samples);
      this.add = instance.exports['addNoise'] as AddNoise;
    } else {
      this.picture = new Int16Array(samples);
      this.noise = new Int16Array(noiseLength);
      this.out = new Uint8Array(samples);
      this.add = null;
    }
  }

  /** out[i + j] = clamp(round(picture[i + j] + noise[k + j])) for j < length. */
  run(i: number, k: number, length: number): void {
    let j = 0;
    if (this.add) {
      const blocks = length >> 4;
      this.add(
        this.picture.byteOffset + 2 * i,
        this.noise.byteOffset + 2 * k,
        this.out.byteOffset + i,
        blocks,
      );
      j = blocks << 4;
    }
    const pic = this.picture;
    const noise = this.noise;
    const out = this.out;
    for (; j < length; j++) {
      const v = (pic[i + j]! + noise[k + j]!) >> FIXED_SHIFT;
      out[i + j] = v < 0 ? 0 : v > 255 ? 255 : v;
    }
  }
}
