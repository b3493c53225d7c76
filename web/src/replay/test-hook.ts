/**
 * A read-only window into the replay page for browser tests (and the console).
 */
export interface ReplayTestHook {
  /** The battle is loaded and a frame has been drawn. */
  readonly ready: boolean;
  readonly battleId: number | null;
  readonly start: number;
  readonly end: number;
  /** The moment drawn on screen now (epoch ms). */
  readonly drawnAt: number | null;
  readonly playing: boolean;
  /** Jumps to a moment (epoch ms) and draws it. */
  seek(t: number): void;
  /** The bases of a unit as drawn now (table mm), or null when it is not on the table. */
  basesOf(
    unitId: string,
  ): ReadonlyArray<{ markerId: number; x: number; y: number; headingDeg: number }> | null;
  /** The ruling re-shown now (its id), the kept picture drawn (its id) and whether it has loaded. */
  readonly shownRuling: number | null;
  readonly shownSnapshot: number | null;
  readonly pictureDrawn: boolean;
  readonly trailPoints: number;
  /** The clock as shown: "elapsed / length". */
  readonly clock: string;
  /** Rulings in the list now (after the unit and kind filters), by id. */
  readonly listedRulings: readonly number[];
}

declare global {
  interface Window {
    __vedetteReplay?: ReplayTestHook;
  }
}

export function installReplayHook(hook: ReplayTestHook): void {
  window.__vedetteReplay = hook;
}
