import type { Pixel } from '../camera/projection.ts';
import { quadCentre, quadSide, type Quad } from './candidates.ts';
import type { GreyImage } from './image.ts';

/**
 * Temporal evidence for markers that stand still: the same small region averaged over frames.
 *
 * A wargames table is still most of the time. While the pixels of a region agree with their
 * running average (nothing moved there), the camera's pixels are the same scene with fresh sensor
 * noise, so they are simply summed — no resampling, no drift — and the decoder reads the average,
 * whose noise falls with the square root of the frames. Its evidence is computed from the
 * average's own residual, so frames are not counted as more independent than they are. The quad
 * read is the running mean of the quads proposed there (their corners wander by a pixel on tiny
 * tags). A region whose pixels change (a hand, a base being pushed) starts again.
 */

export interface EvidenceOptions {
  /** A quad whose centre is within this share of its side of a region's belongs to that region. */
  readonly sameShare: number;
  /** Frames averaged at most (older frames fade, so a slow drift cannot blur the average). */
  readonly maxFrames: number;
  /** A region not seen for this many frames is dropped. */
  readonly forgetAfterFrames: number;
  /** Region around the quad, in quad sides beyond its edge (the quiet zone and a little more). */
  readonly marginSides: number;
  /** Pixels further than this from the average (grey levels) count as changed… */
  readonly changedLevel: number;
  /** …and more than this share of them means the region changed. */
  readonly maxChangedShare: number;
}

export const DEFAULT_EVIDENCE: EvidenceOptions = {
  sameShare: 0.25,
  maxFrames: 16,
  forgetAfterFrames: 3,
  marginSides: 0.45,
  changedLevel: 40,
  maxChangedShare: 0.02,
};

interface Region {
  readonly x0: number;
  readonly y0: number;
  readonly w: number;
  readonly h: number;
  readonly sum: Float32Array;
  frames: number;
  /** Sum of the quads proposed, corner by corner (u, v × 4). */
  readonly quadSum: Float64Array;
  quads: number;
  readonly side: number;
  lastFrame: number;
}

/** An averaged region: a grey image of the region, and the mean quad in its coordinates. */
export interface AveragedRegion {
  readonly image: GreyImage;
  readonly quad: Quad;
  readonly frames: number;
  /** Region origin in the full image (add back to the quad's corners). */
  readonly origin: Pixel;
}

export class PatchEvidence {
  private regions: Region[] = [];
  private frame = 0;

  constructor(readonly options: EvidenceOptions = DEFAULT_EVIDENCE) {}

  /** Starts a new frame; regions not observed for a while are forgotten. */
  nextFrame(): void {
    this.frame++;
    this.regions = this.regions.filter((r) => this.frame - r.lastFrame <= this.options.forgetAfterFrames);
  }

  /** Adds this frame's pixels around `quad` and returns the average so far (null off the image). */
  observe(grey: GreyImage, quad: Quad): AveragedRegion | null {
    const centre = quadCentre(quad);
    const side = quadSide(quad);
    let region = this.regions.find((r) => {
      const c = { u: r.x0 + r.w / 2, v: r.y0 + r.h / 2 };
      return Math.hypot(c.u - centre.u, c.v - centre.v) <= this.options.sameShare * r.side;
    });
    if (region && region.lastFrame === this.frame) return null; // already looked at this frame
    if (region && !this.agrees(grey, region)) {
      this.regions = this.regions.filter((r) => r !== region);
      region = undefined;
    }
    if (!region) {
      const half = Math.ceil(side * (0.5 + this.options.marginSides)) + 2;
      const x0 = Math.round(centre.u) - half;
      const y0 = Math.round(centre.v) - half;
      if (x0 < 0 || y0 < 0 || x0 + 2 * half > grey.width || y0 + 2 * half > grey.height) return null;
      region = {
        x0,
        y0,
        w: 2 * half,
        h: 2 * half,
        sum: new Float32Array(4 * half * half),
        frames: 0,
        quadSum: new Float64Array(8),
        quads: 0,
        side,
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
    for (let k = 0; k < 4; k++) {
      region.quadSum[2 * k]! += quad[k]!.u;
      region.quadSum[2 * k + 1]! += quad[k]!.v;
    }
    region.quads++;
    region.lastFrame = this.frame;
    const average = new Float32Array(sum.length);
    for (let i = 0; i < sum.length; i++) average[i] = sum[i]! / region.frames;
    const mean = [0, 1, 2, 3].map((k) => ({
      u: region.quadSum[2 * k]! / region.quads - x0,
      v: region.quadSum[2 * k + 1]! / region.quads - y0,
    }));
    return {
      image: { data: average, width: w, height: h },
      quad: mean as unknown as Quad,
      frames: region.frames,
      origin: { u: x0, v: y0 },
    };
  }

  /** Whether this frame's pixels of the region still look like its average. */
  private agrees(grey: GreyImage, r: Region): boolean {
    if (r.frames === 0) return true;
    let changed = 0;
    for (let y = 0; y < r.h; y++) {
      const row = (r.y0 + y) * grey.width + r.x0;
      for (let x = 0; x < r.w; x++)
        if (Math.abs(grey.data[row + x]! - r.sum[y * r.w + x]! / r.frames) > this.options.changedLevel)
          changed++;
    }
    return changed <= this.options.maxChangedShare * r.w * r.h;
  }
}
