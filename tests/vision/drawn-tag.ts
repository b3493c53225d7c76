import type { Pixel } from '../../src/camera/projection.ts';
import { dictionaryCodes } from '../../src/vision/code-book.ts';
import type { GreyImage } from '../../src/vision/image.ts';

/**
 * A small blurred tag drawn by hand (independent of the renderer and the decoder): MIP 36h12 code
 * 42, cells of 2.4 px, ink 30 on paper 200 with its quiet zone on a cloth of 70, drawn 8 × 8
 * supersampled, Gaussian blur σ 1.4 px, seeded noise σ 3; `at` gives its corners (shifted, or
 * for another cell size). Shared by the tests that read or measure it.
 */
export const CELL_PX = 2.4;
export const ORIGIN = 12.3; // the tag's outer corner, px (pixel centres at integers)
export const SIZE = 48;
export const BLUR = 1.4;

export async function drawTag(id: number, CELL = CELL_PX): Promise<GreyImage> {
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

export const at = (du: number, dv: number, side = 8 * CELL_PX): [Pixel, Pixel, Pixel, Pixel] => [
  { u: ORIGIN - 0.5 + du, v: ORIGIN - 0.5 + dv },
  { u: ORIGIN - 0.5 + side + du, v: ORIGIN - 0.5 + dv },
  { u: ORIGIN - 0.5 + side + du, v: ORIGIN - 0.5 + side + dv },
  { u: ORIGIN - 0.5 + du, v: ORIGIN - 0.5 + side + dv },
];
