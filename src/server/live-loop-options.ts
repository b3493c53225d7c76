/** How the live loop paces its runs, encodes its pictures and retries its source (server options may override each). */
export interface LiveLoopOptions {
  /**
   * Mean time between the starts of pipeline runs, ms (caps the CPU the loop takes); a run that
   * started late lets the next start up to this much early (run-pacer.ts).
   */
  readonly minIntervalMs: number;
  readonly jpegQuality: number;
  /**
   * Back-off after the n-th consecutive failure: min(maxRetryMs, retryBaseMs × 2^(n−1)). The cap
   * is what a camera that comes back waits at most, so it stays short (a failed attempt costs a
   * process start, no more).
   */
  readonly retryBaseMs: number;
  readonly maxRetryMs: number;
  /** Give up (state `failed`) after this many consecutive failures. */
  readonly maxAttempts: number;
  /** A live source that has delivered no frame for this long is reported `stalled` (ms). */
  readonly stallAfterMs: number;
}

export const DEFAULT_LIVE_LOOP_OPTIONS: LiveLoopOptions = {
  minIntervalMs: 33, // camera rate (30 fps); change-driven detection makes still frames cheap
  jpegQuality: 80,
  retryBaseMs: 250,
  maxRetryMs: 2000,
  maxAttempts: Number.POSITIVE_INFINITY,
  stallAfterMs: 2000,
};
