/**
 * How many still tags may be measured again on their averaged pixels in a frame (~1 ms each),
 * as a budget that refills with the time between the frames processed (a token bucket).
 *
 * What a still tag gains from being measured again depends on how long it has stood, not on how
 * many frames were processed meanwhile: a camera processed at 30 fps and one processed at 5 fps
 * (a slow machine, a recording replayed, the recall benchmark's frames 200 ms apart) both sum
 * about as many frames of a tag that stood a second. A fixed count per frame gave the slow one a
 * sixth of the re-measures for the same time (1080p 15 mm tags ten frames 200 ms apart, most
 * measured once on their mean at four a frame); refilling with time gives each the same per
 * second, and never more than `most` in one frame, so a frame that comes late does not pay for
 * every tag at once.
 */
export class RemeasureBudget {
  private tokens: number;
  private lastAtMs: number | null = null;

  /** `perSecond`: re-measures earned per second of frames; `most`: held at most (and the first frame's). */
  constructor(
    readonly perSecond: number,
    readonly most: number,
  ) {
    this.tokens = most;
  }

  /** A new frame, captured at `atMs` (ms): the budget refills. A time that is not finite earns nothing. */
  nextFrame(atMs: number): void {
    if (!Number.isFinite(atMs)) return;
    // A clock that went back (a recording started again) earns nothing, and counts from there.
    if (this.lastAtMs !== null && atMs > this.lastAtMs)
      this.refill(((atMs - this.lastAtMs) * this.perSecond) / 1000);
    this.lastAtMs = atMs;
  }

  /** Whole re-measures left in this frame. */
  get left(): number {
    return Math.floor(this.tokens);
  }

  /** Spends `n` re-measures (at most those left). */
  spend(n: number): void {
    this.tokens = Math.max(0, this.tokens - n);
  }

  private refill(earned: number): void {
    this.tokens = Math.min(this.most, this.tokens + earned);
  }
}
