import { describe, expect, it } from 'vitest';
import { blockSums8Simd, SIMD_BLOCK_SUMS } from '../../src/vision/block-sum-kernel.ts';
import { Prng } from '../../src/synth/noise.ts';

/** Brute force: every whole 8 × 8 block's sum. */
function bruteSums(data: Uint8Array, width: number, rows: number): number[] {
  const cols = Math.floor(width / 8);
  const out: number[] = [];
  for (let by = 0; by < rows; by++)
    for (let bx = 0; bx < cols; bx++) {
      let s = 0;
      for (let y = 8 * by; y < 8 * by + 8; y++)
        for (let x = 8 * bx; x < 8 * bx + 8; x++) s += data[y * width + x]!;
      out.push(s);
    }
  return out;
}

describe('block sums kernel (8 × 8 block sums, 16 pixels × 8 rows a step)', () => {
  it('compiles to WebAssembly SIMD on this Node', () => {
    expect(SIMD_BLOCK_SUMS).toBe(true);
  });

  it('equals brute-force sums: random, all white (fullest lanes), a view at an odd offset, rows left over', () => {
    const rng = new Prng(23);
    for (const [width, height, offset, fill] of [
      [16, 8, 0, -1],
      [64, 48, 0, 255],
      [1920, 1080, 0, -1],
      [48, 21, 3, -1], // 2 block rows; the last 5 rows are not a whole block
      [1280, 720, 0, 255],
    ] as const) {
      const buffer = new Uint8Array(width * height + offset);
      for (let i = 0; i < buffer.length; i++) buffer[i] = fill >= 0 ? fill : rng.nextU32() & 0xff;
      const data = buffer.subarray(offset);
      const rows = Math.floor(height / 8);
      const sums = blockSums8Simd(data, width, rows);
      expect(sums, `${width}×${height}`).not.toBeNull();
      expect(Array.from(sums!), `${width}×${height}`).toEqual(bruteSums(data, width, rows));
    }
  });

  it('declines widths that are not a multiple of 16 (the change map then sums in JavaScript)', () => {
    expect(blockSums8Simd(new Uint8Array(40 * 8), 40, 1)).toBeNull();
  });
});
