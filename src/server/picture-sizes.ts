import { PictureGoneError } from '../vision/frame-picture.ts';
import type { LiveFrame } from './live-loop.ts';

/**
 * The camera picture at the size a page draws it. A page says how many device pixels wide its
 * picture canvas is (the `view` message); a picture wider than that only costs the browser a
 * larger decode and a downscale on every frame. On a 2-core machine headless Chromium showed 11
 * frames a second of 1920-px pictures and 18 of 960-px ones from the same server, and a phone or
 * tablet at the table is slower still.
 *
 * Widths are rounded up to a step, so pages of about the same size share one encode, and a page as
 * wide as the camera (or wider) gets the full-size JPEG (the camera's own, or made once for every
 * such page). Scaled pictures are made off the event loop (sharp), from the frame's pixels while
 * the loop holds them (frame-picture.ts); while one frame is being scaled, a newer frame replaces
 * any frame still waiting, so a slow encode drops frames rather than queueing them.
 */

/** Requested widths are rounded up to a multiple of this, px. */
export const PICTURE_WIDTH_STEP = 128;

/**
 * The width to send a page that asked for `requested` px, null for the camera's own picture, or
 * 0 for none (a page that draws no picture).
 */
export function pictureWidthFor(requested: number | null, cameraWidth: number): number | null {
  if (requested === null || requested === 0) return requested;
  const width = Math.ceil(requested / PICTURE_WIDTH_STEP) * PICTURE_WIDTH_STEP;
  return width >= cameraWidth ? null : width;
}

/** Scaled pictures of one frame, by width. */
export type ScaledPictures = ReadonlyMap<number, Buffer>;

export class PictureScaler {
  private busy = false;
  private waiting: { frame: LiveFrame; order: number; widths: ReadonlySet<number> } | null = null;
  private failures = 0;

  constructor(
    /** JPEG quality of the scaled pictures: the live loop's own. */
    private readonly quality: () => number,
    private readonly deliver: (frame: LiveFrame, order: number, pictures: ScaledPictures) => void,
  ) {}

  /**
   * Scales `frame` to each of `widths` and delivers them together (later, unless a newer frame
   * replaces it first). `order` is handed back with them: the caller's count of frames.
   */
  push(frame: LiveFrame, order: number, widths: ReadonlySet<number>): void {
    if (widths.size === 0) return;
    if (this.busy) this.waiting = { frame, order, widths };
    else void this.run(frame, order, widths);
  }

  /** Frames that could not be scaled (an undecodable JPEG): they were skipped. */
  get failed(): number {
    return this.failures;
  }

  private async run(frame: LiveFrame, order: number, widths: ReadonlySet<number>): Promise<void> {
    this.busy = true;
    try {
      const pictures = new Map<number, Buffer>();
      await Promise.all(
        [...widths].map(async (width) => {
          pictures.set(width, (await frame.picture.scaledJpeg(width, this.quality())).data);
        }),
      );
      this.deliver(frame, order, pictures);
    } catch (err) {
      // A frame replaced before it was scaled (the loop stopped or changed camera) is no failure.
      if (!(err instanceof PictureGoneError)) this.failures += 1;
    } finally {
      this.busy = false;
      const next = this.waiting;
      this.waiting = null;
      if (next) void this.run(next.frame, next.order, next.widths);
    }
  }
}
