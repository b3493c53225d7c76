import type { Rect } from './mosaic.ts';
import { StillSumKernel } from './still-sum-kernel.ts';

/**
 * A still table's picture averaged over frames, where it has not changed.
 *
 * Sensor noise is what loses small tags on a still table: on the tuning scenes (seeds 1503–1504,
 * 1080p, tilt 15°) 15 mm tags are found 80 of 108 at noise σ 6 and 98 of 108 at σ 1. Every frame
 * is added to a per-pixel sum (one addition a pixel); where the change map saw something move the
 * sum restarts from that frame, so a moving base is never smeared. The whole-frame searches a
 * still table gets every second or two take the mean of the frames summed since the previous one
 * (or since the pixel last changed), then the sums start again. The addition runs 16 pixels a step
 * in WebAssembly SIMD (still-sum-kernel.ts), with the same sums as a plain loop.
 */
export class StillAverage {
  /** The sums' storage, kept across restarts for one picture size. */
  private kernel: StillSumKernel | null = null;
  private sum: Uint16Array | null = null;
  /** Frame number from which each pixel is summed. */
  private since: Uint32Array | null = null;
  /** `since`'s storage, kept across restarts like the sums'. */
  private sinceStore: Uint32Array | null = null;
  private frame = 0;
  /** Frame number of the last full restart (a Uint16 sum holds 257 frames of white). */
  private restartedAt = 0;
  private width = 0;
  private height = 0;

  /** `simd` false: the plain loop even where WebAssembly SIMD runs (tests compare the two). */
  constructor(private readonly simd = true) {}

  /**
   * Adds a frame. `changed`: the regions that changed since the previous frame, or null when the
   * frame cannot be compared (first frame, a new size, most of the picture changed): then every
   * sum restarts.
   */
  add(grey: Grey, changed: readonly Rect[] | null): void {
    const { data, width, height } = grey;
    this.frame++;
    if (
      !this.sum ||
      !this.since ||
      width !== this.width ||
      height !== this.height ||
      changed === null ||
      this.frame - this.restartedAt >= MAX_FRAMES
    ) {
      if (this.kernel?.pixels !== data.length) {
        this.kernel = new StillSumKernel(data.length, this.simd);
        this.sinceStore = new Uint32Array(data.length);
      }
      this.sum = this.kernel.sum;
      this.sum.set(data);
      this.since = (this.sinceStore ?? new Uint32Array(data.length)).fill(this.frame);
      this.restartedAt = this.frame;
      this.width = width;
      this.height = height;
      return;
    }
    const { sum, kernel } = this;
    for (const r of changed) {
      const x0 = Math.max(0, Math.floor(r.x0));
      const x1 = Math.min(width, Math.ceil(r.x0 + r.w));
      const y1 = Math.min(height, Math.ceil(r.y0 + r.h));
      // A region wholly left of the picture: nothing (fill's negative end would count from the end).
      if (x1 <= x0) continue;
      for (let y = Math.max(0, Math.floor(r.y0)); y < y1; y++) {
        sum.fill(0, y * width + x0, y * width + x1);
        this.since.fill(this.frame, y * width + x0, y * width + x1);
      }
    }
    if (kernel) kernel.add(data);
  }

  /**
   * Replaces the last frame added (in place) by the mean of the frames summed, and starts the
   * sums again from it.
   */
  takeMean(grey: Grey): void {
    const { sum, since } = this;
    const { data } = grey;
    if (!sum || !since || data.length !== sum.length) return;
    const next = this.frame + 1;
    for (let i = 0; i < data.length; i++) {
      const n = next - since[i]!;
      data[i] = (sum[i]! + (n >> 1)) / n;
    }
    this.sum = null;
    this.since = null;
  }
}

type Grey = { data: Uint8Array; width: number; height: number };

const MAX_FRAMES = 250;
