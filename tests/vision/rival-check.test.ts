import { describe, expect, it } from 'vitest';
import type { Pixel } from '../../src/camera/projection.ts';
import { dictionaryCodes } from '../../src/vision/code-book.ts';
import type { GreyImage } from '../../src/vision/image.ts';
import { DEFAULT_FINDER } from '../../src/vision/finder-types.ts';
import { RivalCheck } from '../../src/vision/rival-check.ts';
import { DEFAULT_TEMPLATE_DECODER } from '../../src/vision/template-decoder.ts';

/**
 * A small blurred tag drawn by hand (independent of the renderer and the decoder): MIP 36h12 code
 * 42, cells of 2.4 px, ink 30 on paper 200 with its quiet zone on a cloth of 70, drawn 8 × 8
 * supersampled, Gaussian blur σ 1.4 px, seeded noise σ 3. A reading that names another code in
 * play must lose to the code drawn; a reading of the drawn code must hold.
 */
const CELL_PX = 2.4;
const ORIGIN = 12.3; // the tag's outer corner, px (pixel centres at integers)
const SIZE = 48;
const BLUR = 1.4;

async function drawTag(id: number, CELL = CELL_PX): Promise<GreyImage> {
  const codes = await dictionaryCodes('aruco_mip_36h12');
  const bits = codes.bits(id);
  const n = codes.bitsPerSide;
  const sharp = new Float32Array(SIZE * SIZE);
  const S = 8;
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      let sum = 0;
      for (let sy = 0; sy < S; sy++)
        for (let sx = 0; sx < S; sx++) {
          const cx = Math.floor((x - 0.5 + (sx + 0.5) / S - ORIGIN) / CELL);
          const cy = Math.floor((y - 0.5 + (sy + 0.5) / S - ORIGIN) / CELL);
          const inTag = cx >= 0 && cy >= 0 && cx < n + 2 && cy < n + 2;
          const inQuiet = cx >= -1 && cy >= -1 && cx < n + 3 && cy < n + 3;
          const data = cx >= 1 && cy >= 1 && cx <= n && cy <= n;
          sum += inTag ? (data && bits[(cy - 1) * n + (cx - 1)] ? 200 : 30) : inQuiet ? 200 : 70;
        }
      sharp[y * SIZE + x] = sum / (S * S);
    }
  const radius = Math.ceil(3 * BLUR);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) =>
    Math.exp(-((i - radius) ** 2) / (2 * BLUR * BLUR)),
  );
  const total = kernel.reduce((a, b) => a + b, 0);
  const blurAlong = (src: Float32Array, dx: number, dy: number) => {
    const out = new Float32Array(SIZE * SIZE);
    for (let y = 0; y < SIZE; y++)
      for (let x = 0; x < SIZE; x++) {
        let s = 0;
        for (let k = -radius; k <= radius; k++) {
          const xx = Math.min(SIZE - 1, Math.max(0, x + k * dx));
          const yy = Math.min(SIZE - 1, Math.max(0, y + k * dy));
          s += kernel[k + radius]! * src[yy * SIZE + xx]!;
        }
        out[y * SIZE + x] = s / total;
      }
    return out;
  };
  const data = blurAlong(blurAlong(sharp, 1, 0), 0, 1);
  let state = 7;
  const uniform = () => ((state = (state * 1103515245 + 12345) % 2147483648) + 0.5) / 2147483648;
  for (let i = 0; i < data.length; i++)
    data[i] = data[i]! + 3 * Math.sqrt(-2 * Math.log(uniform())) * Math.cos(2 * Math.PI * uniform());
  return { data, width: SIZE, height: SIZE };
}

const at = (du: number, dv: number, side = 8 * CELL_PX): [Pixel, Pixel, Pixel, Pixel] => [
  { u: ORIGIN - 0.5 + du, v: ORIGIN - 0.5 + dv },
  { u: ORIGIN - 0.5 + side + du, v: ORIGIN - 0.5 + dv },
  { u: ORIGIN - 0.5 + side + du, v: ORIGIN - 0.5 + side + dv },
  { u: ORIGIN - 0.5 + du, v: ORIGIN - 0.5 + side + dv },
];

/** The fields of a reading the check looks at. */
function claim(id: number, runnerUpId: number, corners: [Pixel, Pixel, Pixel, Pixel]) {
  return { id, runnerUpId, corners, residualSigma: 18 };
}

describe('rival check', () => {
  const decoder = { ...DEFAULT_TEMPLATE_DECODER, blurSigmaPx: BLUR };
  const asFound = (q: readonly [Pixel, Pixel, Pixel, Pixel]) => q;

  it('refuses a reading of another code in play when the drawn code fits better, quad a pixel off', async () => {
    const codes = await dictionaryCodes('aruco_mip_36h12');
    const grey = await drawTag(42);
    const check = new RivalCheck(codes);
    for (const [du, dv] of [
      [0, 0],
      [0.8, -0.6],
    ] as const)
      expect(check.holds(grey, claim(32, 42, at(du, dv)), decoder, asFound)).toBe(false);
  });

  it('keeps a reading of the drawn code against the same rival', async () => {
    const codes = await dictionaryCodes('aruco_mip_36h12');
    const grey = await drawTag(42);
    const check = new RivalCheck(codes);
    for (const [du, dv] of [
      [0, 0],
      [0.8, -0.6],
    ] as const)
      expect(check.holds(grey, claim(42, 32, at(du, dv)), decoder, asFound)).toBe(true);
  });

  it('has nothing to say without a rival in play', async () => {
    const codes = await dictionaryCodes('aruco_mip_36h12');
    const grey = await drawTag(42);
    expect(new RivalCheck(codes).holds(grey, claim(32, -1, at(0, 0)), decoder, asFound)).toBe(true);
  });

  // Cells of 1.9 px under σ 1.4 (σ/cell 0.74, where a reading's own evidence is overstated).
  // Where the quad is right, the drawn code, fitted at its best, leaves less residual than every
  // rival, fitted or (when its fit runs away) where it was read; with the quad up to two pixels
  // off (as one inferred from a sticker can be), no rival's reading reaches the margin that makes
  // a blurred reading firm.
  it('measures the fitted margin of the drawn code over rivals on a small blurred tag', async () => {
    const codes = await dictionaryCodes('aruco_mip_36h12');
    const cell = 1.9;
    const grey = await drawTag(42, cell);
    const check = new RivalCheck(codes);
    const rivals = [32, 7, 19, 5, 58, 22];
    const tagSide = 8 * cell;
    let compared = 0;
    for (const rival of rivals) {
      const mine = check.fittedMargin(grey, claim(42, rival, at(0, 0, tagSide)), rival, decoder, asFound);
      const theirs = check.fittedMargin(grey, claim(rival, 42, at(0, 0, tagSide)), 42, decoder, asFound);
      expect(theirs).not.toBeNull();
      expect(theirs!).toBeLessThan(0);
      // Rival 7's own fit runs off the tag: it counts where it was read, and loses.
      expect(mine).not.toBeNull();
      expect(mine!).toBeGreaterThan(0.5);
      compared++;
    }
    expect(compared).toBe(rivals.length);
    for (const [du, dv] of [
      [1.5, -1.2],
      [-2, 0.5],
    ] as const)
      for (const rival of rivals) {
        const margin = check.fittedMargin(grey, claim(rival, 42, at(du, dv, tagSide)), 42, decoder, asFound);
        expect(margin ?? -Infinity).toBeLessThan(DEFAULT_FINDER.blurredFitMargin);
      }
    expect(check.fittedMargin(grey, claim(42, -1, at(0, 0, tagSide)), -1, decoder, asFound)).toBeNull();
  });
});
