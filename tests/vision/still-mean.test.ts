import { describe, expect, it } from 'vitest';
import type { Rect } from '../../src/vision/mosaic.ts';
import { StillAverage } from '../../src/vision/still-average.ts';
import { StillMean } from '../../src/vision/still-mean.ts';

/**
 * StillMean skips the mean when the sums hold one frame. What it must keep: every frame the
 * pipeline searches is exactly what feeding the average plainly gives (add every frame, take
 * the mean on every whole-frame search), over long random runs of still, changing and
 * whole-frame frames.
 */
describe('still mean', () => {
  it('gives every frame exactly as adding every frame and taking the mean on every whole-frame search does', () => {
    let state = 99;
    const rand = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
    const width = 32;
    const height = 24;
    for (let run = 0; run < 20; run++) {
      const plain = new StillAverage();
      const skipping = new StillMean(new StillAverage());
      // Runs differ in how often frames are searched whole and how often the picture changes.
      const fullShare = [0.05, 0.3, 0.7, 1][run % 4]!;
      const changeShare = [0, 0.2, 0.5][run % 3]!;
      let meansTaken = 0;
      let firstDifference = -1;
      for (let f = 0; f < 300; f++) {
        const level = 60 + 100 * rand();
        const data = Uint8Array.from({ length: width * height }, () =>
          Math.round(level + 20 * (rand() - 0.5)),
        );
        const roll = rand();
        const changed: Rect[] | null =
          f === 0 || roll < changeShare / 4
            ? null
            : roll < changeShare
              ? [
                  {
                    x0: Math.floor(rand() * width),
                    y0: Math.floor(rand() * height),
                    w: 1 + rand() * 12,
                    h: 1 + rand() * 9,
                  },
                ]
              : [];
        const full = f === 0 || rand() < fullShare;
        const a = { data: Uint8Array.from(data), width, height };
        const b = { data: Uint8Array.from(data), width, height };
        plain.add(a, changed);
        if (full) plain.takeMean(a);
        skipping.feed(b, changed, full);
        if (firstDifference < 0 && a.data.some((v, i) => v !== b.data[i])) firstDifference = f;
        if (full && a.data.some((v, i) => v !== data[i])) meansTaken++;
      }
      expect(firstDifference).toBe(-1);
      // The runs where frames are summed between searches really average them (the check is not empty).
      if (fullShare < 1 && changeShare < 0.5) expect(meansTaken).toBeGreaterThan(0);
    }
  });
});
