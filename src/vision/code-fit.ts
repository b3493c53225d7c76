import type { Pixel } from '../camera/projection.ts';
import { quadSide } from './candidates.ts';
import type { DictionaryCodes } from './code-book.ts';
import type { GreyImage } from './image.ts';
import { alignQuad, DEFAULT_ALIGN, markerPattern, type AlignedQuad, type Footprint } from './quad-align.ts';

type Corners = readonly [Pixel, Pixel, Pixel, Pixel];

/**
 * A quad's corners fitted to one code of the dictionary (quad-align.ts), with the code's
 * rendering pattern built once per id. Used to measure small tags, to settle a close call between
 * two codes (rival-check.ts) and to read an unsure small tag again (marker-finder.ts).
 */
export class CodeFit {
  constructor(private readonly codes: DictionaryCodes) {}

  /**
   * The corners moved until code `id` rendered through the camera's blur matches the picture
   * best; null when the fit fails or a corner moves further than `maxShiftPx`.
   */
  fit(
    grey: GreyImage,
    corners: Corners,
    id: number,
    options: { blurSigmaPx: number; maxShiftPx: number; coarse: boolean; footprint?: Footprint },
  ): AlignedQuad | null {
    const cells = this.codes.bitsPerSide + 2;
    return alignQuad(grey, corners, this.patternOf(id), cells, {
      ...DEFAULT_ALIGN,
      blurSigmaPx: options.blurSigmaPx,
      maxShiftPx: options.maxShiftPx,
      coarseBlurPx: options.coarse ? DEFAULT_ALIGN.coarseBlurPx : 0,
      footprint: options.footprint ?? DEFAULT_ALIGN.footprint,
    });
  }

  /** Width of one cell of a quad, px. */
  cellPx(corners: Corners): number {
    return quadSide(corners) / (this.codes.bitsPerSide + 2);
  }

  private patternOf(id: number): Float64Array {
    return codePattern(this.codes, id);
  }
}

/** Each dictionary's code patterns for rendering (markerPattern), built once per code. */
const patterns = new WeakMap<DictionaryCodes, Map<number, Float64Array>>();

/** Code `id`'s rendering pattern (quad-align.ts markerPattern), built once per dictionary and id. */
export function codePattern(codes: DictionaryCodes, id: number): Float64Array {
  let byId = patterns.get(codes);
  if (!byId) patterns.set(codes, (byId = new Map()));
  let pattern = byId.get(id);
  if (!pattern) {
    const white: number[] = [];
    codes.bits(id).forEach((b, k) => b && white.push(k));
    byId.set(id, (pattern = markerPattern(codes.bitsPerSide + 2, white)));
  }
  return pattern;
}
