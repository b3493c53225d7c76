/**
 * Markers seen but not bound, remembered for a few seconds. Between whole-frame searches the live
 * pipeline looks only where the tracker expects bases, so a marker no base owns is found in one
 * frame of many: listing only the latest frame's made the roster's chip blink in and out.
 */
export class RecentMarkers {
  private readonly lastSeen = new Map<number, number>();

  constructor(
    /** How long an id stays listed after the frame that last saw it (ms). */
    private readonly keepMs = 5000,
  ) {}

  note(ids: readonly number[], at: number): void {
    for (const id of ids) this.lastSeen.set(id, at);
  }

  /** Ids seen within keepMs of `now`, ascending; older ones are forgotten. */
  seenSince(now: number): number[] {
    for (const [id, at] of this.lastSeen) if (now - at > this.keepMs) this.lastSeen.delete(id);
    return [...this.lastSeen.keys()].sort((a, b) => a - b);
  }
}
