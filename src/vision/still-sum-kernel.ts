/**
 * The still average's per-frame addition (still-average.ts): a Uint16 sum per pixel plus the
 * frame's grey byte, 16 pixels a step with WebAssembly SIMD. A plain loop over the 2 million
 * pixels of a 1080p frame was 28–37 % of the vision worker's busy time in the live benchmark.
 *
 * The sums live in the kernel's own WebAssembly memory; each frame is copied in beside them (one
 * memcpy; OpenCV's grey Mat lives in another module's memory) and added there. Uint16 addition
 * wraps, but the still average restarts every sum before it could exceed 65 535 (250 frames).
 */

/*
 * (func (export "addFrame") (param $src i32) (param $sum i32) (param $blocks i32) (local $v v128)
 *   loop while $blocks: v = load src; sum[0..8] += extend_low_u(v); sum[8..16] += extend_high_u(v)
 */
// prettier-ignore
const MODULE = Uint8Array.of(
  0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00, // \0asm, version 1
  0x01, 0x07, 0x01, 0x60, 0x03, 0x7f, 0x7f, 0x7f, 0x00, // type: (i32 i32 i32) -> ()
  0x03, 0x02, 0x01, 0x00, // function 0 has type 0
  0x05, 0x03, 0x01, 0x00, 0x01, // memory: at least 1 page (grown from JS)
  0x07, 0x15, 0x02, // exports: "memory", "addFrame"
  0x06, 0x6d, 0x65, 0x6d, 0x6f, 0x72, 0x79, 0x02, 0x00,
  0x08, 0x61, 0x64, 0x64, 0x46, 0x72, 0x61, 0x6d, 0x65, 0x00, 0x00,
  0x0a, 0x58, 0x01, 0x56, // code: one body of 0x56 bytes
  0x01, 0x01, 0x7b, // one local: v128 ($v = local 3)
  0x02, 0x40, 0x03, 0x40, // block, loop
  0x20, 0x02, 0x45, 0x0d, 0x01, // if blocks == 0: break
  0x20, 0x00, 0xfd, 0x00, 0x00, 0x00, 0x21, 0x03, // v = v128.load src (16 grey bytes)
  0x20, 0x01, // sum (store address)
  0x20, 0x01, 0xfd, 0x00, 0x04, 0x00, // v128.load sum
  0x20, 0x03, 0xfd, 0x89, 0x01, // i16x8.extend_low_i8x16_u v
  0xfd, 0x8e, 0x01, // i16x8.add
  0xfd, 0x0b, 0x04, 0x00, // v128.store sum
  0x20, 0x01, // sum (store address)
  0x20, 0x01, 0xfd, 0x00, 0x04, 0x10, // v128.load sum + 16
  0x20, 0x03, 0xfd, 0x8a, 0x01, // i16x8.extend_high_i8x16_u v
  0xfd, 0x8e, 0x01, // i16x8.add
  0xfd, 0x0b, 0x04, 0x10, // v128.store sum + 16
  0x20, 0x00, 0x41, 0x10, 0x6a, 0x21, 0x00, // src += 16
  0x20, 0x01, 0x41, 0x20, 0x6a, 0x21, 0x01, // sum += 32
  0x20, 0x02, 0x41, 0x01, 0x6b, 0x21, 0x02, // blocks -= 1
  0x0c, 0x00, 0x0b, 0x0b, 0x0b, // br loop; end loop, block, function
);

type AddFrame = (src: number, sum: number, blocks: number) => void;

/** The compiled kernel, or null where WebAssembly SIMD is missing (then a plain loop runs). */
const KERNEL: WebAssembly.Module | null = WebAssembly.validate(MODULE)
  ? new WebAssembly.Module(MODULE)
  : null;

/** Whether the SIMD kernel runs here (else the plain loop). */
export const SIMD_STILL_SUM = KERNEL !== null;

/** Per-pixel Uint16 sums of grey frames of one size, and the room to add the next frame. */
export class StillSumKernel {
  /** The sums, one per pixel (in WebAssembly memory when SIMD runs). */
  readonly sum: Uint16Array;
  private readonly frame: Uint8Array | null;
  private readonly addFrame: AddFrame | null;

  /** `simd` false forces the plain loop (tests compare the two). */
  constructor(
    readonly pixels: number,
    simd = true,
  ) {
    if (KERNEL && simd) {
      const instance = new WebAssembly.Instance(KERNEL);
      const memory = instance.exports['memory'] as WebAssembly.Memory;
      // Sums first (2 bytes a pixel, 16-byte aligned), then the frame's copy.
      const need = Math.ceil((3 * pixels + 16) / 65536);
      memory.grow(need - memory.buffer.byteLength / 65536);
      this.sum = new Uint16Array(memory.buffer, 0, pixels);
      this.frame = new Uint8Array(memory.buffer, 2 * pixels + 16 - ((2 * pixels) % 16), pixels);
      this.addFrame = instance.exports['addFrame'] as AddFrame;
    } else {
      this.sum = new Uint16Array(pixels);
      this.frame = null;
      this.addFrame = null;
    }
  }

  /** sum[i] += data[i] (mod 65 536) for every pixel. */
  add(data: Uint8Array): void {
    const sum = this.sum;
    let i = 0;
    if (this.addFrame && this.frame) {
      this.frame.set(data);
      const blocks = this.pixels >> 4;
      this.addFrame(this.frame.byteOffset, sum.byteOffset, blocks);
      i = blocks << 4;
    }
    for (; i < data.length; i++) sum[i] = sum[i]! + data[i]!;
  }
}
