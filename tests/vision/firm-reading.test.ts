import { beforeAll, describe, expect, it } from 'vitest';
import { blurredScene } from './blurred-scene.ts';
import type { SynthFrame } from '../../src/synth/render.ts';
import type { Quad } from '../../src/vision/candidates.ts';
import {
  codeBook,
  dictionaryCodes,
  type CodeBook,
  type DictionaryCodes,
} from '../../src/vision/code-book.ts';
import { edgeFitted } from '../../src/vision/corner-measure.ts';
import { DEFAULT_FINDER } from '../../src/vision/finder-types.ts';
import { FirmReadings } from '../../src/vision/firm-reading.ts';
import type { GreyImage } from '../../src/vision/image.ts';
import { readQuad, type TemplateReading } from '../../src/vision/template-decoder.ts';

/**
 * Firm readings of blurred small tags against codes not in play (the renderer's truth: 25 mm MIP
 * 36h12 tags at 720p under lens blur σ 1.4, cells of 1.3–2.2 px, tilt 15°; half the scene's ids in
 * play, the other half markers no base declares). Each tag is read from its true corners moved up
 * to half a pixel (as a found quad is). A code not in play that fits a blurred grid better by
 * chance may be outfitted by the code in play, each fitted at its best; a tag not in play must
 * never be taken for one in play that way.
 */
describe('firm readings of blurred small tags, codes not in play', () => {
  // Two scenes: only a few tags per scene are rivalled, so one scene alone swings by a tag or two.
  const SEEDS = [29, 41];
  let scenes: Array<{ frame: SynthFrame; grey: GreyImage; book: CodeBook; inPlay: Set<number> }>;
  let codes: DictionaryCodes;
  const decoder = { blurSigmaPx: 1.3, marginCells: 0.5 };
  const MOVE_PX = 1.2;

  beforeAll(async () => {
    codes = await dictionaryCodes('aruco_mip_36h12');
    scenes = [];
    for (const seed of SEEDS) {
      const { frame, grey } = await blurredScene(seed);
      const ids = frame.truth.bases.map((b) => b.markerId);
      const inPlay = new Set(ids.filter((_, i) => i % 2 === 0));
      scenes.push({ frame, grey, book: codeBook(codes, inPlay), inPlay });
    }
  });

  /** Every tag's readings from its true corners moved by up to MOVE_PX (seeded), four moves each. */
  const readings = (
    frame: SynthFrame,
    grey: GreyImage,
    book: CodeBook,
  ): Array<{ truthId: number; reading: TemplateReading }> => {
    let state = 12345;
    const next = () => ((state = (state * 1103515245 + 12345) % 2 ** 31) / 2 ** 31) * 2 - 1;
    return frame.truth.bases
      .filter((b) => b.marker.inView)
      .flatMap((b) =>
        [0, 1, 2, 3].flatMap(() => {
          const quad = b.marker.cornersPx.map((c) => ({
            u: c.u + MOVE_PX * next(),
            v: c.v + MOVE_PX * next(),
          })) as unknown as Quad;
          const reading = readQuad(grey, quad, book, decoder);
          return reading ? [{ truthId: b.markerId, reading }] : [];
        }),
      );
  };

  it('takes tags in play that a code not in play rivals, and no tag not in play', () => {
    const firmness = new FirmReadings(codes, DEFAULT_FINDER);
    let rivalledFirm = 0;
    let rivalled = 0;
    let firm = 0;
    let inPlayCount = 0;
    let foreignTaken = 0;
    for (const { frame, grey, book, inPlay } of scenes) {
      const edges = (q: Quad) => edgeFitted(grey, q, 8);
      for (const { truthId, reading } of readings(frame, grey, book)) {
        const isFirm = firmness.isFirm(reading, grey, decoder, edges);
        if (!inPlay.has(truthId)) {
          if (isFirm) foreignTaken++;
          continue;
        }
        inPlayCount++;
        if (isFirm && reading.id === truthId) firm++;
        if (reading.id === truthId && reading.plausibility < DEFAULT_FINDER.minPlausibility) {
          rivalled++;
          if (isFirm) rivalledFirm++;
        }
      }
    }
    console.log(
      `in play: ${firm} of ${inPlayCount} readings firm; ${rivalledFirm} of ${rivalled} rivalled by a code not in play; ` +
        `tags not in play taken: ${foreignTaken}`,
    );
    expect(foreignTaken).toBe(0);
    expect(rivalled).toBeGreaterThan(0);
    // Many of those must not be thrown away with the foreign codes. Rendered with point samples
    // the two scenes gave 10 of 19 (seed 29 alone 4 of 8, the bound was a half); with ink
    // integrated over each sample, 8 of 19 (3 of 8).
    expect(rivalledFirm).toBeGreaterThanOrEqual(0.35 * rivalled);
  });
});
