import type { Rect } from './mosaic.ts';
import type { StillAverage } from './still-average.ts';

/**
 * How the pipeline feeds the still table's average (still-average.ts): every frame is added, and
 * a whole-frame search replaces the frame by the mean of the frames summed, which starts the
 * sums again.
 *
 * When the sums hold this frame only (the first frame, most of the picture changed, or the
 * previous frame was a whole-frame search, which spent the sums), that mean is the frame itself:
 * taking it is a pass over every pixel that changes nothing (10–18 ms at 1080p, on every
 * whole-frame search of a camera searched whole frame after frame). It is skipped, and the sums
 * are started again on the next frame instead, which leaves the average exactly as taking the
 * mean would have (tests/vision/still-mean.test.ts compares the two, frame by frame). Such a frame
 * is not even added: the sums it would start are spent by its own search.
 */
export class StillMean {
  /** Whether the sums were spent (or never started): the next frame starts them again. */
  private spent = true;

  constructor(private readonly average: StillAverage) {}

  /**
   * Adds a frame (`changed`: the regions that changed, or null when it cannot be compared); on a
   * whole-frame search (`full`), replaces `grey` in place by the mean of the frames summed.
   */
  feed(
    grey: { data: Uint8Array; width: number; height: number },
    changed: readonly Rect[] | null,
    full: boolean,
  ): void {
    const restart = changed === null || this.spent;
    this.spent = full;
    // A whole-frame search of a frame that starts the sums spends them at once: the next frame
    // starts them again, so adding this one would be a pass over every pixel for nothing.
    if (full && restart) return;
    this.average.add(grey, restart ? null : changed);
    if (full) this.average.takeMean(grey);
  }
}
