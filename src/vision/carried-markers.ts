import type { Pixel } from '../camera/projection.ts';
import { quadCentre, type Quad } from './candidates.ts';

/**
 * Which markers are being carried: found in the frame before, and found now more than
 * `minMovePx` from there.
 *
 * A carried base's tag is measured by its edges alone, not fitted as its code (corner-measure.ts)
 * and as a square on the table (table-fit.ts). Those two fits are what place a still small tag to
 * hundredths of a millimetre, and what a moving frame spent most of its time on: on the live
 * benchmark's MJPEG loop (a unit of 20 mm tags carried 1 in a frame at 1080p) they were 3.8 of
 * the finder's 5.0 s, and detection took 26.5 ms a frame (9.5 ms without them). A base in a hand
 * is shown where it is to a few tenths of a millimetre (0.15 mm p95 on that loop, 0.03 mm
 * fitted). Once it stands it is measured as finely as before: from the frame after its last move
 * its picture is unchanged, so it is recalled and measured again on the mean of the frames it has
 * stood in, first at two (still-markers.ts, still-remeasure.ts): within two
 * frames of its last move (tests/vision/pipeline-carried.test.ts).
 *
 * A marker with no place in the frame before (a base put down, one seen again after a hand) is
 * measured in full: its first pose may be all a ruling gets.
 */
export class CarriedMarkers {
  private previous = new Map<number, Pixel>();
  private current = new Map<number, Pixel>();

  constructor(private readonly minMovePx: number) {}

  /** A new frame: what was found in the last one becomes the frame before. */
  nextFrame(): void {
    this.previous = this.current;
    this.current = new Map();
  }

  /** Markers found in this frame (a frame searched twice notes both searches' finds). */
  note(markers: readonly { readonly id: number; readonly corners: Quad }[]): void {
    for (const m of markers) this.current.set(m.id, quadCentre(m.corners));
  }

  /** Whether marker `id`, found now at `corners`, has moved since the frame before. */
  isCarried(id: number, corners: Quad): boolean {
    const before = this.previous.get(id);
    if (!before) return false;
    const now = quadCentre(corners);
    return Math.hypot(now.u - before.u, now.v - before.v) > this.minMovePx;
  }
}
