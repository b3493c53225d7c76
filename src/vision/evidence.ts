import type { Pixel } from '../camera/projection.ts';
import { quadCentre, quadDistance, quadSide, type Quad } from './candidates.ts';
import type { GreyImage } from './image.ts';

/**
 * Temporal evidence for markers that stand still: the same small region averaged over frames.
 *
 * A wargames table is still most of the time. When a candidate quad is where it was in the
 * previous frames (corners within a fraction of a pixel), the camera's pixels of that region are
 * the same scene with fresh sensor noise, so they are simply summed — no resampling, no drift.
 * The decoder then reads the average, whose noise falls with the square root of the frames;
 * its evidence is computed from the average's own residual, so frames are not counted as more
 * independent than they are. A region that moves (a hand, a base being pushed) starts again.
 */

export interface EvidenceOptions {
  /** Corners may wander this far (px) and still count as the same still marker. */
  readonly stillPx: number;
  /** Frames averaged at most (older frames are forgotten, so a slow drift cannot blur the average). */
  readonly maxFrames: number;
  /** A region not seen for this many frames is dropped. */
  readonly forgetAfterFrames: number;
  /** Region around the quad, in quad sides (the quiet zone and a little more). */
  readonly marginSides: number;
}

export const DEFAULT_EVIDENCE: EvidenceOptions = {
  stillPx: 0.6,
  maxFrames: 16,
  forgetAfterFrames: 3,
  marginSides: 0.45,
};

interface Region {
  x0: number;
  y0: number;
  w: number;
  h: number;
  sum: Float32Array;
  frames: number;
  quad: Quad;
  lastFrame: number;
}

/** An averaged region: a grey image of the region, and the quad in its coordinates. */
export interface AveragedRegion {
  readonly image: GreyImage;
  readonly quad: Quad;
  readonly frames: number;
  /** Region origin in the full image (add back to the quad's corners). */
  readonly origin: Pixel;
}

export class PatchEvidence {
  private readonly regions: Region[] = [];
  private frame = 0;

  constructor(readonly options: EvidenceOptions = DEFAULT_EVIDENCE) {}

  /** Starts a new frame; regions not observed for a while are forgotten. */
  nextFrame(): void {
    this.frame++;
    for (let i = this.regions.length - 1; i >= 0; i--)
      if (this.frame - this.regions[i]!.lastFrame > this.options.forgetAfterFrames) this.regions.splice(i, 1);
  }

  /** Adds this frame's pixels around `quad` and returns the average so far (null off the image). */
  observe(grey: GreyImage, quad: Quad): AveragedRegion | null {
    const centre = quadCentre(quad);
    let region = this.regions.find(
      (r) => r.lastFrame !== this.frame && quadDistance(r.quad, quad) <= this.options.stillPx,
    );
    if (!region) {
      const half = Math.ceil(quadSide(quad) * (0.5 + this.options.marginSides)) + 2;
      const x0 = Math.round(centre.u) - half;
      const y0 = Math.round(centre.v) - half;
      if (x0 < 0 || y0 < 0 || x0 + 2 * half > grey.width || y0 + 2 * half > grey.height) return null;
      // A region that overlaps this one and moved is the same marker starting again.
      const moved = this.regions.findIndex(
        (r) => Math.hypot(quadCentre(r.quad).u - centre.u, quadCentre(r.quad).v - centre.v) < quadSide(quad),
      );
      if (moved >= 0) this.regions.splice(moved, 1);
      region = {
        x0,
        y0,
        w: 2 * half,
        h: 2 * half,
        sum: new Float32Array(4 * half * half),
        frames: 0,
        quad,
        lastFrame: this.frame,
      };
      this.regions.push(region);
    }
    if (region.frames >= this.options.maxFrames) {
      // Keep a running average of at most maxFrames frames.
      const keep = (this.options.maxFrames - 1) / region.frames;
      for (let i = 0; i < region.sum.length; i++) region.sum[i]! *= keep;
      region.frames = this.options.maxFrames - 1;
    }
    const { x0, y0, w, h, sum } = region;
    for (let y = 0; y < h; y++) {
      const row = (y0 + y) * grey.width + x0;
      for (let x = 0; x < w; x++) sum[y * w + x]! += grey.data[row + x]!;
    }
    region.frames++;
    region.lastFrame = this.frame;
    const average = new Float32Array(sum.length);
    for (let i = 0; i < sum.length; i++) average[i] = sum[i]! / region.frames;
    return {
      image: { data: average, width: w, height: h },
      quad: quad.map((c) => ({ u: c.u - x0, v: c.v - y0 })) as unknown as Quad,
      frames: region.frames,
      origin: { u: x0, v: y0 },
    };
  }
}
