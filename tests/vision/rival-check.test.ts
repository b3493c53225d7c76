import { describe, expect, it } from 'vitest';
import type { Pixel } from '../../src/camera/projection.ts';
import { dictionaryCodes } from '../../src/vision/code-book.ts';
import { DEFAULT_FINDER } from '../../src/vision/finder-types.ts';
import { RivalCheck } from '../../src/vision/rival-check.ts';
import { DEFAULT_TEMPLATE_DECODER } from '../../src/vision/template-decoder.ts';
import { at, BLUR, drawTag } from './drawn-tag.ts';

/** The fields of a reading the check looks at. */
function claim(id: number, runnerUpId: number, corners: [Pixel, Pixel, Pixel, Pixel]) {
  return { id, runnerUpId, corners, residualSigma: 18 };
}

/**
 * On a tag drawn by hand (drawn-tag.ts): a reading that names another code in play must lose to
 * the code drawn; a reading of the drawn code must hold.
 */
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
