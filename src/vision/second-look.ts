import { DEFAULT_CANDIDATE_PASS, type CandidatePassResult } from './candidate-pass.ts';
import { quadDistance, quadSide, type Quad } from './candidates.ts';
import type { DimRegion } from './dim-regions.ts';
import type { OpenCV } from './opencv.ts';
import type { RegionPass } from './region-pass.ts';

/**
 * The pipeline's second looks (pipeline.ts): dimly lit regions, a first frame, and changed regions
 * searched again at lower thresholds than the whole-frame pass, and the quads they add.
 */

/**
 * Lowest threshold constant in dimly lit regions (grey levels; OpenCV's default, used elsewhere,
 * is 7). A region's constant is 7 times its light, not below this: a constant of 3 everywhere dim
 * broke the noisy cloth of moderately dim patches (light 0.7) into thousands of contours, and
 * whole-frame searches after the first found the same bases or more with the scaled constant
 * (tuning scenes, seeds 1605–1606, uneven light, 1080p 12–20 mm and 720p 20–25 mm: 1,440 against
 * 1,438 of 1,620).
 */
export const DIM_THRESHOLD_CONSTANT = 3;

/**
 * Changed regions are looked at again as a first look does (changedPass) when the smallest
 * declared marker's cells are under this (px), or the lens is blurred. Bases put down at once on a
 * known table, found in that frame without the second look and with it (tuning seeds 1795–1796,
 * tilt 15°, noise σ 6): cells of 1.2–1.3 px (1080p 15 mm, 720p 25 mm) 95 → 103 and 97 → 105 of
 * 108; of 1.6 and 2 px (1080p 20 and 25 mm) the same 107 and 108. Larger tags do not pay for it:
 * on the live bench's table (cells of 2.5 px and more) it cost a moving frame about 8 ms.
 */
export const SECOND_LOOK_BELOW_CELL_PX = 2;

/** Dim regions are searched for light squares (a tag's sticker) where their light is under this. */
const LIGHT_SQUARES_BELOW = 0.5;

/**
 * The dim regions' pass, each with a threshold constant in proportion to its light (a tag's
 * contrast is): the whole-frame constant where the light is the median's, down to
 * DIM_THRESHOLD_CONSTANT. One run per constant, for dark squares and for light ones: in deep
 * shadow a small tag's one-cell border sinks into the dark cloth and base (grey 3–12 against
 * paper at 20–29: no closed contour at any window), while its white sticker still stands out
 * (tuning scenes under uneven light: 720p 25 mm at 15° 28 → 1 bases missed of 540, 1080p 15 mm
 * 35 → 1 of 324, 1080p 20 mm 1 → 0 of 540; one frame).
 */
export function dimLook(
  dimPass: RegionPass,
  gray: OpenCV,
  dim: readonly DimRegion[],
  minPerimeterPx: number,
  lightSquares = true,
): CandidatePassResult {
  const byConstant = new Map<number, DimRegion[]>();
  for (const r of dim) {
    const constant = Math.max(
      DIM_THRESHOLD_CONSTANT,
      Math.floor(DEFAULT_CANDIDATE_PASS.thresholdConstant * r.light),
    );
    byConstant.set(constant, [...(byConstant.get(constant) ?? []), r]);
  }
  const read: CandidatePassResult['read'][number][] = [];
  const unread: Quad[] = [];
  const light: Quad[] = [];
  for (const [constant, regions] of byConstant) {
    const found = dimPass.run(gray, regions, minPerimeterPx, constant);
    read.push(...found.read);
    unread.push(...found.unread);
    // Light squares only where the light is low (a region's light is its dimmest block's):
    // shadows of hands and dark clutter at 0.7 of the median sent most clutter frames through
    // this pass, ~2 ms each, for nothing (tuning clutter seed 1390).
    const darkest = lightSquares ? regions.filter((r) => r.light < LIGHT_SQUARES_BELOW) : [];
    if (darkest.length > 0) {
      const negative = dimPass.run(gray, darkest, minPerimeterPx, constant, true);
      light.push(...negative.unread, ...negative.read.map((r) => r.quad));
    }
  }
  return { read, unread, light };
}

/**
 * A first look (no table pose yet) searches the whole frame again at the dim pass's lowest
 * threshold, light squares included: a region of light 0, which dimLook searches as the dimmest.
 * Small tags of a few pixels a cell (720p 15 mm: 8 px) keep too little contrast for the
 * whole-frame threshold, and the table does not know yet where its bases are to look for them.
 * Before this was deliberate it happened by accident: with no table to compare against, the dark
 * floor and the table's vignetted rim made the frame one dim region (light 0.3–0.48 of the
 * median, so the same lowest threshold). Where the floor came out as two strips instead, a third
 * of the tags were missed (test seeds 1–8, 720p 15 mm at tilt 0: 33–38 of ~58 markers in five
 * first frames, 55–58 with the first look); a dim share of 0.6 made strips the rule and lost the
 * recall bench's 720p tags at tilt 0 (stop 32, docs/recall.md).
 */
export function firstLook(width: number, height: number): DimRegion {
  return { x0: 0, y0: 0, w: width, h: height, light: 0 };
}

/**
 * A pass and a second look at the same pixels: of the second, only what the first did not see. A
 * quad the first already had (a marker it read, one not in play among them) must not come back as
 * an unread candidate to be read as something else.
 */
export function withSecondLook(pass: CandidatePassResult, again: CandidatePassResult): CandidatePassResult {
  const seen = [...pass.read.map((r) => r.quad), ...pass.unread];
  const isNew = (q: Quad) => !seen.some((s) => quadDistance(s, q) < 0.3 * quadSide(s));
  return {
    read: [...pass.read, ...again.read.filter((r) => isNew(r.quad))],
    unread: [...pass.unread, ...again.unread.filter(isNew)],
    light: [...(pass.light ?? []), ...(again.light ?? [])],
  };
}
