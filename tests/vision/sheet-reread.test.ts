import { describe, expect, it } from 'vitest';
import type { Quad } from '../../src/vision/candidates.ts';
import { rereadSheets, tagInsidePaper } from '../../src/vision/sheet-reread.ts';

const square = (cu: number, cv: number, side: number): Quad => {
  const h = side / 2;
  return [
    { u: cu - h, v: cv - h },
    { u: cu + h, v: cv - h },
    { u: cu + h, v: cv + h },
    { u: cu - h, v: cv + h },
  ];
};

describe('reading missing reference sheets', () => {
  it('takes the tag inside the printed white square: 1½ cells in from each side', () => {
    // 8 cells across the tag: the white square is 11 cells, the tag its middle 8.
    const tag = tagInsidePaper(square(100, 50, 110), 8)!;
    const expected = square(100, 50, 80);
    tag.forEach((p, i) => {
      expect(p.u).toBeCloseTo(expected[i]!.u, 9);
      expect(p.v).toBeCloseTo(expected[i]!.v, 9);
    });
  });

  it('tries only quads sized like a sheet already read, the tag before its paper, one per id', () => {
    const asked: number[] = [];
    const reads = rereadSheets({
      candidates: [square(500, 500, 10), square(300, 300, 30), square(600, 300, 44), square(605, 300, 30)],
      sheetsRead: [square(100, 100, 40)],
      cells: 8,
      isCovered: () => false,
      readFirm: (quad) => {
        const side = quad[1].u - quad[0].u;
        asked.push(Math.round(side));
        // The 44 px quad is a paper: only its inner 32 px tag reads.
        if (side === 30) return { id: 2, corners: quad, evidence: 40 };
        if (Math.round(side) === 32) return { id: 3, corners: quad, evidence: 40 };
        return null;
      },
    });
    // 10 px is no sheet; the second 30 px quad lies on the paper already read as sheet 3.
    expect(asked).toEqual([30, 44, 32]);
    expect(reads.map((r) => r.id)).toEqual([2, 3]);
  });

  it('tries nothing before one sheet is read (the reference search looks then)', () => {
    const reads = rereadSheets({
      candidates: [square(300, 300, 30)],
      sheetsRead: [],
      cells: 8,
      isCovered: () => false,
      readFirm: () => ({ id: 1, corners: square(0, 0, 1), evidence: 1 }),
    });
    expect(reads).toEqual([]);
  });
});
