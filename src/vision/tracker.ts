import type { BasePose } from './locator.ts';

export interface TrackedBase extends BasePose {
  /**
   * True while the base counts as where it was measured: measured in this frame, or missed for
   * no longer than the tracker's hold (a passing hand, one unread frame). False: the pose is only
   * where the base was last seen.
   */
  readonly seen: boolean;
  /** capturedAt of the frame that last measured it. */
  readonly lastSeenAt: number;
  /** How long it has not been measured (0 when measured in this frame), ms. */
  readonly missingMs: number;
  /** Not measured, and the picture is changing where it was: a hand over it, or it is being carried. */
  readonly moving: boolean;
}

export interface TrackerOptions {
  /** A base missed for up to this long is still shown as seen, so one unread frame does not flicker. */
  readonly holdMs: number;
}

export const DEFAULT_TRACKER: TrackerOptions = { holdMs: 500 };

/**
 * Remembers each base's last measured pose, so a hand over the table hides a base without
 * losing it: briefly missed, it is held as seen; missed where the picture is changing, it is being
 * moved; missed for longer, it is shown where it was last seen (and for how long), never silently
 * kept as current nor dropped.
 */
export class Tracker {
  private readonly bases = new Map<number, TrackedBase>();
  private readonly movedSinceSeen = new Set<number>();

  constructor(readonly options: TrackerOptions = DEFAULT_TRACKER) {}

  /** `moving`: bases not measured where the picture changed this frame (see TrackedBase.moving). */
  update(measured: readonly BasePose[], at: number, moving: ReadonlySet<number> = new Set()): TrackedBase[] {
    const seenNow = new Set<number>();
    for (const pose of measured) {
      seenNow.add(pose.markerId);
      this.bases.set(pose.markerId, { ...pose, seen: true, lastSeenAt: at, missingMs: 0, moving: false });
      this.movedSinceSeen.delete(pose.markerId);
    }
    for (const [id, base] of this.bases) {
      if (seenNow.has(id)) continue;
      const missingMs = Math.max(0, at - base.lastSeenAt);
      // A base being moved is not where it was: from then on it is never held as seen until measured again.
      if (moving.has(id)) this.movedSinceSeen.add(id);
      const held = !this.movedSinceSeen.has(id) && missingMs <= this.options.holdMs;
      this.bases.set(id, { ...base, missingMs, moving: moving.has(id), seen: held });
    }
    return [...this.bases.values()];
  }

  get(markerId: number): TrackedBase | undefined {
    return this.bases.get(markerId);
  }

  /** Every base seen so far, with its last known pose. */
  all(): TrackedBase[] {
    return [...this.bases.values()];
  }
}
