import { describe, expect, it } from 'vitest';
import { ChangeMap } from '../../src/vision/change-map.ts';
import { dimRegions } from '../../src/vision/dim-regions.ts';

/** A 640 × 360 grey picture lit at `level` everywhere but a dark rectangle at `dark`, with ±10 noise. */
function picture(
  level: number,
  dark: { x0: number; y0: number; x1: number; y1: number } | null,
  darkLevel: number,
) {
  const width = 640;
  const height = 360;
  const data = new Uint8Array(width * height);
  let s = 7;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      s = (s * 1103515245 + 12345) >>> 0;
      const inDark = dark && x >= dark.x0 && x < dark.x1 && y >= dark.y0 && y < dark.y1;
      data[y * width + x] = (inDark ? darkLevel : level) + ((s >>> 16) % 21) - 10;
    }
  return { data, width, height };
}

describe('dimly lit regions', () => {
  it('are none on an evenly lit picture', () => {
    expect(dimRegions(picture(150, null, 0), 20)).toEqual([]);
  });

  it('are not a mild shadow, which the whole-frame threshold already sees through', () => {
    // 0.7 of the light: the dim pass's threshold would be 5 grey levels against the whole frame's 7.
    expect(dimRegions(picture(160, { x0: 96, y0: 64, x1: 288, y1: 192 }, 112), 20)).toEqual([]);
    expect(dimRegions(picture(160, { x0: 96, y0: 64, x1: 288, y1: 192 }, 88), 20).length).toBeGreaterThan(0);
  });

  it('cover a shadow whole, widened by the margin, and nothing lit', () => {
    const shadow = { x0: 96, y0: 64, x1: 288, y1: 192 };
    const regions = dimRegions(picture(160, shadow, 70), 20);
    expect(regions.length).toBeGreaterThan(0);
    const inside = (x: number, y: number) =>
      regions.some((r) => x >= r.x0 && x < r.x0 + r.w && y >= r.y0 && y < r.y0 + r.h);
    // Every pixel of the shadow, and a margin's width around it, is in some region.
    for (let y = shadow.y0 - 20; y < shadow.y1 + 20; y += 4)
      for (let x = shadow.x0 - 20; x < shadow.x1 + 20; x += 4) expect(inside(x, y)).toBe(true);
    // Well away from it, nothing is.
    for (let y = 0; y < 360; y += 8)
      for (let x = 0; x < 640; x += 8)
        if (x < shadow.x0 - 60 || x >= shadow.x1 + 60 || y < shadow.y0 - 60 || y >= shadow.y1 + 60)
          expect(inside(x, y)).toBe(false);
  });

  it("carry the light in them: the dimmest block's brightest part over the median block's", () => {
    const shadow = { x0: 96, y0: 64, x1: 288, y1: 192 };
    for (const darkLevel of [50, 80, 90]) {
      const regions = dimRegions(picture(160, shadow, darkLevel), 20);
      expect(regions.length).toBe(1);
      // A block's brightest 8 px square averages its level (noise ±10 averages out over 64 px).
      expect(regions[0]!.light).toBeCloseTo(darkLevel / 160, 1);
    }
  });

  it('are not dark things on well-lit cloth, but are a shadow over a white card', () => {
    // Dark 24 px squares (bare bases, dice) scattered over the lit picture, one on every other
    // 32 px block: each block's mean falls well under three quarters of the median, its cloth does not.
    const cluttered = picture(160, null, 0);
    for (let by = 0; by < 10; by += 2)
      for (let bx = 0; bx < 20; bx += 3)
        for (let y = by * 32 + 4; y < by * 32 + 28; y++)
          for (let x = bx * 32 + 4; x < bx * 32 + 28; x++) cluttered.data[y * 640 + x] = 20;
    expect(dimRegions(cluttered, 20)).toEqual([]);
    // A white card (230) in a shadow that halves the light: its white is dim too.
    const shaded = picture(160, { x0: 320, y0: 96, x1: 448, y1: 224 }, 80);
    for (let y = 128; y < 192; y++) for (let x = 352; x < 416; x++) shaded.data[y * 640 + x] = 115;
    const regions = dimRegions(shaded, 20);
    const inside = (x: number, y: number) =>
      regions.some((r) => x >= r.x0 && x < r.x0 + r.w && y >= r.y0 && y < r.y0 + r.h);
    for (let y = 96; y < 224; y += 8) for (let x = 320; x < 448; x += 8) expect(inside(x, y)).toBe(true);
  });

  it('are the same from the change map block means as from the picture', () => {
    const shaded = picture(160, { x0: 100, y0: 40, x1: 330, y1: 250 }, 75);
    const changes = new ChangeMap();
    changes.update(shaded, 20);
    const reused = dimRegions(shaded, 20, undefined, null, changes.latest);
    expect(reused.length).toBeGreaterThan(0);
    expect(reused).toEqual(dimRegions(shaded, 20));
  });

  it('never overlap, so no pixel is searched twice', () => {
    // Two shadows whose widened blocks touch: one rectangle, not two overlapping ones.
    const pic = picture(160, { x0: 64, y0: 64, x1: 160, y1: 128 }, 60);
    for (let y = 160; y < 224; y++) for (let x = 200; x < 300; x++) pic.data[y * 640 + x] = 60;
    const regions = dimRegions(pic, 20);
    for (let i = 0; i < regions.length; i++)
      for (let j = i + 1; j < regions.length; j++) {
        const a = regions[i]!;
        const b = regions[j]!;
        const apart = a.x0 + a.w <= b.x0 || b.x0 + b.w <= a.x0 || a.y0 + a.h <= b.y0 || b.y0 + b.h <= a.y0;
        expect(apart).toBe(true);
      }
  });

  it('are the whole picture when most of it is dim', () => {
    // 9 of 20 block columns dim, widened by two blocks: 11 of 20, over half the picture.
    const regions = dimRegions(picture(160, { x0: 0, y0: 0, x1: 288, y1: 360 }, 60), 64);
    expect(regions).toEqual([{ x0: 0, y0: 0, w: 640, h: 360, light: expect.closeTo(60 / 160, 1) }]);
  });

  it('stay inside the picture', () => {
    const regions = dimRegions(picture(160, { x0: 0, y0: 0, x1: 64, y1: 64 }, 60), 40);
    for (const r of regions) {
      expect(r.x0).toBeGreaterThanOrEqual(0);
      expect(r.y0).toBeGreaterThanOrEqual(0);
      expect(r.x0 + r.w).toBeLessThanOrEqual(640);
      expect(r.y0 + r.h).toBeLessThanOrEqual(360);
    }
  });

  it('leave out the dark floor round the table when the table is known, and still find a shadow on it', () => {
    // A table lit at 160 from (80, 48) to (560, 312), floor at 40 all round, a shadow on the table.
    const pic = picture(160, { x0: 256, y0: 128, x1: 352, y1: 192 }, 70);
    const table = { x0: 80, y0: 48, x1: 560, y1: 312 };
    for (let y = 0; y < 360; y++)
      for (let x = 0; x < 640; x++)
        if (x < table.x0 || x >= table.x1 || y < table.y0 || y >= table.y1) pic.data[y * 640 + x] = 40;
    // The floor is a ring round the frame: one patch whose box is the whole picture.
    expect(dimRegions(pic, 20)).toEqual([
      { x0: 0, y0: 0, w: 640, h: 360, light: expect.closeTo(40 / 160, 1) },
    ]);
    const onTable = (u: number, v: number) =>
      u >= table.x0 && u <= table.x1 && v >= table.y0 && v <= table.y1;
    const regions = dimRegions(pic, 20, undefined, onTable);
    const area = regions.reduce((sum, r) => sum + r.w * r.h, 0);
    expect(area).toBeLessThan(0.25 * 640 * 360);
    const covers = (x: number, y: number) =>
      regions.some((r) => x >= r.x0 && x < r.x0 + r.w && y >= r.y0 && y < r.y0 + r.h);
    for (let y = 128; y < 192; y += 4) for (let x = 256; x < 352; x += 4) expect(covers(x, y)).toBe(true);
  });
});
