/**
 * When the live loop's next pipeline run may start: runs start `intervalMs` apart on average (the
 * cap on the CPU the loop takes), and a run that started late lets the next start early, by up
 * to one interval.
 *
 * The loop used to keep every two starts at least an interval apart. A 30 fps camera's frames
 * come 33.3 ms apart on average but not each time, so with a 33 ms gap the loop could never
 * catch up: a frame that came early waited in the slot, and when the next one came before its
 * turn it was dropped, and a frame that waited out the gap reached the page that much later.
 * `npm run bench -- live --only mjpeg --seconds 10`, two alternations with the plain gap:
 * - still table: 0 and 2 frames dropped of ~310, against 8 and 9;
 * - a unit carried 1 in a frame: 0 and 1 dropped against 8 and 8, and its overlay 40 / 68 and
 *   36 / 66 ms (p50 / p95) after the frame against 65 / 96 and 65 / 100 ms.
 */
export class RunPacer {
  private nextAt = Number.NEGATIVE_INFINITY;

  constructor(private readonly intervalMs: number) {}

  /** How long to wait before a run may start, ms. */
  waitMs(now: number): number {
    return Math.max(0, this.nextAt - now);
  }

  /** A run started at `now`: the next is due an interval after the later of its due time and `now` less an interval. */
  started(now: number): void {
    this.nextAt = Math.max(this.nextAt, now - this.intervalMs) + this.intervalMs;
  }
}
