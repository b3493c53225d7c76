import { describe, expect, it } from 'vitest';
import { markerBits } from '../../src/synth/marker-bits.ts';
import { MARKER_DICTIONARIES } from '../../src/table/scenario.ts';
import { codeBook, dictionaryCodes, rotateClockwise } from '../../src/vision/code-book.ts';

/**
 * The decoder's codes are unpacked from OpenCV's packed byte lists; the synthetic renderer's come
 * from OpenCV drawing each marker (generateImageMarker). Two different routes must agree bit for bit.
 */
describe('dictionary codes', () => {
  for (const dictionary of MARKER_DICTIONARIES) {
    it(`${dictionary}: every sampled id matches the printed marker`, async () => {
      const codes = await dictionaryCodes(dictionary);
      expect(codes.count).toBeGreaterThanOrEqual(250);
      for (const id of [0, 1, 7, 42, 99, 249, codes.count - 1]) {
        const printed = await markerBits(dictionary, id);
        const side = codes.bitsPerSide;
        expect(printed.cells).toBe(side + 2);
        const bits = codes.bits(id);
        for (let r = 0; r < side; r++)
          for (let c = 0; c < side; c++)
            expect(bits[r * side + c], `${dictionary} id ${id} bit (${r}, ${c})`).toBe(
              printed.white[(r + 1) * printed.cells + (c + 1)],
            );
      }
    });
  }

  it('refuses an id outside the dictionary, naming its range', async () => {
    const codes = await dictionaryCodes('aruco_mip_36h12');
    expect(() => codes.bits(250)).toThrow(/aruco_mip_36h12 \(ids 0\.\.249\)/);
  });
});

describe('code book', () => {
  it('turns a grid a quarter clockwise, four turns giving it back', () => {
    const grid = Uint8Array.from([1, 0, 0, 0, 1, 1, 0, 0, 0]); // 3 × 3
    const once = rotateClockwise(grid, 3);
    // Row 0 (1 0 0) becomes column 2, top to bottom.
    expect([...once]).toEqual([0, 0, 1, 0, 1, 0, 0, 1, 0]);
    let g: Uint8Array = grid;
    for (let k = 0; k < 4; k++) g = rotateClockwise(g, 3);
    expect([...g]).toEqual([...grid]);
  });

  it('holds four views per id, each with its white bits', async () => {
    const codes = await dictionaryCodes('apriltag_36h11');
    const book = codeBook(codes, [5, 3, 5]);
    expect(book.ids).toEqual([3, 5]);
    expect(book.views).toHaveLength(8);
    const whites = codes.bits(3).reduce((n, b) => n + b, 0);
    for (const v of book.views.filter((x) => x.id === 3)) expect(v.white.length).toBe(whites);
  });
});
