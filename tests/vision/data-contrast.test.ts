import { describe, expect, it } from 'vitest';
import { dictionaryCodes } from '../../src/vision/code-book.ts';
import { dataContrastShare } from '../../src/vision/data-contrast.ts';
import type { GreyImage } from '../../src/vision/image.ts';
import { markerPattern } from '../../src/vision/quad-align.ts';

/**
 * Drawn by hand (independent of the renderer and the decoder): a MIP 36h12 code with 4 px cells,
 * ink 30 and paper 200 on a cloth of 90, and a dark ring of the tag's size round a plain middle
 * of cloth (a base's outline). The code's data cells carry the whole contrast; the ring's middle
 * none of it.
 */
const CELL = 4;
const SIZE = 64;
const X0 = 16;

async function draw(kind: 'tag' | 'ring', id = 20) {
  const codes = await dictionaryCodes('aruco_mip_36h12');
  const n = codes.bitsPerSide;
  const bits = codes.bits(id);
  const data = new Uint8Array(SIZE * SIZE).fill(90);
  for (let y = 0; y < SIZE; y++)
    for (let x = 0; x < SIZE; x++) {
      const cx = Math.floor((x - X0) / CELL);
      const cy = Math.floor((y - X0) / CELL);
      const inTag = cx >= 0 && cy >= 0 && cx < n + 2 && cy < n + 2;
      const inQuiet = cx >= -1 && cy >= -1 && cx < n + 3 && cy < n + 3;
      const isData = cx >= 1 && cy >= 1 && cx <= n && cy <= n;
      if (kind === 'tag') {
        if (inTag) data[y * SIZE + x] = isData && bits[(cy - 1) * n + (cx - 1)] ? 200 : 30;
        else if (inQuiet) data[y * SIZE + x] = 200;
      } else if (inTag && !isData) data[y * SIZE + x] = 30;
    }
  const grey: GreyImage = { data, width: SIZE, height: SIZE };
  const side = (n + 2) * CELL;
  // Pixel centres: the tag's outer edge runs along pixel edges X0 − ½ … X0 + side − ½.
  const corners = [
    { u: X0 - 0.5, v: X0 - 0.5 },
    { u: X0 + side - 0.5, v: X0 - 0.5 },
    { u: X0 + side - 0.5, v: X0 + side - 0.5 },
    { u: X0 - 0.5, v: X0 + side - 0.5 },
  ] as const;
  const white: number[] = [];
  bits.forEach((b, k) => b && white.push(k));
  return { grey, corners, pattern: markerPattern(n + 2, white), cells: n + 2 };
}

describe('the data cells’ share of a reading’s contrast', () => {
  it('is about 1 for a printed code', async () => {
    const { grey, corners, pattern, cells } = await draw('tag');
    const share = dataContrastShare(grey, corners, cells, pattern, 0.3, 170);
    expect(share).toBeGreaterThan(0.85);
    expect(share).toBeLessThan(1.15);
  });

  it('is about 0 for a dark ring round a plain middle, read as the same code', async () => {
    const { grey, corners, pattern, cells } = await draw('ring');
    const share = dataContrastShare(grey, corners, cells, pattern, 0.3, 60);
    expect(Math.abs(share!)).toBeLessThan(0.1);
  });

  it('cannot be measured without a contrast', async () => {
    const { grey, corners, pattern, cells } = await draw('tag');
    expect(dataContrastShare(grey, corners, cells, pattern, 0.3, 0)).toBeNull();
  });
});
