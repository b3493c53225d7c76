import type { BasePose } from './locator.ts';

export interface TrackedBase extends BasePose {
  /** True when the marker was measured in the latest frame; false means last known pose. */
  readonly seen: boolean;
  readonly lastSeenAt: number;
}

/**
 * Remembers each base's last measured pose, so a hand over the table hides a base without
 * losing it. (Filtering and "settled" events belong here as the tracker grows.)
 */
export class Tracker {
  private readonly bases = new Map<number, TrackedBase>();

  update(measured: readonly BasePose[], at: number): TrackedBase[] {
    const seenNow = new Set<number>();
    for (const pose of measured) {
      seenNow.add(pose.markerId);
      this.bases.set(pose.markerId, { ...pose, seen: true, lastSeenAt: at });
    }
    for (const [id, base] of this.bases) {
      if (!seenNow.has(id) && base.seen) this.bases.set(id, { ...base, seen: false });
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
