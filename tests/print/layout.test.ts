import { describe, expect, test } from 'vitest';
import { baseExtent, largestMarkerMm, markerFits, parseBase } from '../../src/print/base-sizes.ts';
import { gridLayout, parseIds } from '../../src/print/layout.ts';
import { contentBox, mmToPt, PAPERS } from '../../src/print/paper.ts';

describe('print layout', () => {
  test('millimetres to points: 25.4 mm is 72 pt exactly', () => {
    expect(mmToPt(25.4)).toBe(72);
    expect(mmToPt(210)).toBeCloseTo(595.2756, 4);
  });

  test('marker ids parse as lists and ranges', () => {
    expect(parseIds('10-13')).toEqual([10, 11, 12, 13]);
    expect(parseIds('0-3, 7,5, 2')).toEqual([0, 1, 2, 3, 5, 7]);
    expect(() => parseIds('9-3')).toThrow(/backwards/);
    expect(() => parseIds('ten')).toThrow(/cannot read marker ids/);
  });

  test('base sizes parse', () => {
    expect(parseBase('40x20')).toEqual({ kind: 'rect', widthMm: 40, depthMm: 20 });
    expect(parseBase('60round')).toEqual({ kind: 'round', diameterMm: 60 });
    expect(parseBase('25 × 25 mm')).toEqual({ kind: 'rect', widthMm: 25, depthMm: 25 });
    expect(() => parseBase('big')).toThrow(/cannot read base size/);
  });

  test('largest marker keeps one white cell all round (AprilTag 36h11: 8 cells across its border)', () => {
    expect(largestMarkerMm(parseBase('20x20'), 8)).toBe(16);
    expect(largestMarkerMm(parseBase('40x20'), 8)).toBe(16);
    expect(largestMarkerMm(parseBase('50x50'), 8)).toBe(40);
    expect(largestMarkerMm(parseBase('60round'), 8)).toBe(33.5); // (60/√2)·8/10 = 33.94
    for (const name of ['20x20', '25x25', '40x20', '40x40', '50x50', '60round']) {
      const b = parseBase(name);
      for (const cells of [6, 7, 8]) {
        const s = largestMarkerMm(b, cells);
        expect(markerFits(b, s, cells)).toBe(true);
        expect(markerFits(b, s + 1, cells)).toBe(false);
      }
    }
  });

  test('grid tiles stay inside the printable area and never overlap', () => {
    for (const paper of Object.values(PAPERS)) {
      const box = contentBox(paper);
      for (const name of ['20x20', '40x20', '60round']) {
        const ext = baseExtent(parseBase(name));
        const g = gridLayout(100, ext.widthMm, ext.depthMm + 4, box, 3);
        expect(g.pages.flat()).toHaveLength(100);
        for (const page of g.pages) {
          for (const t of page) {
            expect(t.x).toBeGreaterThanOrEqual(box.x - 1e-9);
            expect(t.y).toBeGreaterThanOrEqual(box.y - 1e-9);
            expect(t.x + ext.widthMm).toBeLessThanOrEqual(box.x + box.width + 1e-9);
            expect(t.y + ext.depthMm + 4).toBeLessThanOrEqual(box.y + box.height + 1e-9);
          }
          for (let i = 0; i < page.length; i++)
            for (let j = i + 1; j < page.length; j++) {
              const a = page[i]!;
              const b = page[j]!;
              const apart =
                Math.abs(a.x - b.x) >= ext.widthMm + 3 - 1e-9 ||
                Math.abs(a.y - b.y) >= ext.depthMm + 4 + 3 - 1e-9;
              expect(apart).toBe(true);
            }
        }
      }
    }
    expect(() => gridLayout(1, 300, 10, contentBox(PAPERS.a4), 3)).toThrow(/does not fit/);
  });
});
