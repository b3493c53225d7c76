import { describe, expect, it } from 'vitest';
import { dictionaryCodes } from '../../src/vision/code-book.ts';
import type { GreyImage } from '../../src/vision/image.ts';
import { quietZoneLightness } from '../../src/vision/quiet-zone.ts';

/**
 * A printed marker has a white quiet zone one cell wide; a die on the cloth does not. Drawn here
 * by hand (independent of the renderer and the decoder): a MIP 36h12 code with 4 px cells, ink 30,
 * paper 200, on a cloth of 70, with and without its quiet zone, lightly blurred (3 × 3 box).
 */
const CELL = 4;
const INK = 30;
const PAPER = 200;
const CLOTH = 70;

async function drawTag(withQuietZone: boolean, id = 36): Promise<{ grey: GreyImage; bits: Uint8Array }> {
  const codes = await dictionaryCodes('aruco_mip_36h12');
  const bits = codes.bits(id);
  const n = codes.bitsPerSide;
  const size = 64;
  const x0 = 16;
  const raw = new Float32Array(size * size).fill(CLOTH);
  for (let y = 0; y < size; y++)
    for (let x = 0; x < size; x++) {
      const cx = Math.floor((x - x0) / CELL);
      const cy = Math.floor((y - x0) / CELL);
      const inTag = cx >= 0 && cy >= 0 && cx < n + 2 && cy < n + 2;
      const inQuiet = cx >= -1 && cy >= -1 && cx < n + 3 && cy < n + 3;
      if (inTag) {
        const data = cx >= 1 && cy >= 1 && cx <= n && cy <= n;
        raw[y * size + x] = data && bits[(cy - 1) * n + (cx - 1)] ? PAPER : INK;
      } else if (inQuiet && withQuietZone) raw[y * size + x] = PAPER;
    }
  const data = new Float32Array(size * size);
  for (let y = 1; y < size - 1; y++)
    for (let x = 1; x < size - 1; x++) {
      let s = 0;
      for (let dy = -1; dy <= 1; dy++) for (let dx = -1; dx <= 1; dx++) s += raw[(y + dy) * size + x + dx]!;
      data[y * size + x] = s / 9;
    }
  return { grey: { data, width: size, height: size }, bits };
}

// Pixel centres at integers: the tag's outer edge is at x0 − 0.5.
const side = 8 * CELL;
const corners = [
  { u: 15.5, v: 15.5 },
  { u: 15.5 + side, v: 15.5 },
  { u: 15.5 + side, v: 15.5 + side },
  { u: 15.5, v: 15.5 + side },
] as const;

describe('quiet zone lightness', () => {
  it('is near 1 for a printed marker with its quiet zone', async () => {
    const { grey, bits } = await drawTag(true);
    expect(quietZoneLightness(grey, corners, 6, bits)!).toBeGreaterThan(0.85);
  });

  it('is the cloth’s own lightness for the same pattern without paper around it', async () => {
    const { grey, bits } = await drawTag(false);
    const lightness = quietZoneLightness(grey, corners, 6, bits)!;
    expect(lightness).toBeLessThan(0.38);
    expect(lightness).toBeCloseTo((CLOTH - INK) / (PAPER - INK), 1);
  });

  it('has no answer off the picture', async () => {
    const { grey, bits } = await drawTag(true);
    const off = corners.map((c) => ({ u: c.u + 100, v: c.v })) as unknown as typeof corners;
    expect(quietZoneLightness(grey, off, 6, bits)).toBeNull();
  });
});
