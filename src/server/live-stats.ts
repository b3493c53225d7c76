/** The live loop's figures (stats()), and the rolling window its timings are taken over. */

export interface Figure {
  readonly last: number | null;
  readonly mean: number | null;
  readonly p95: number | null;
}

export interface LiveStats {
  /** Frames delivered by the source (these figures restart when the camera or scenario changes). */
  readonly framesIn: number;
  /** Frames through the pipeline and out to the page. */
  readonly framesProcessed: number;
  /** Frames replaced by a newer one while the pipeline was busy (latest wins). */
  readonly framesDropped: number;
  /** Frames the pipeline refused (e.g. wrong size for the camera profile). */
  readonly framesFailed: number;
  /** Frames per second through the pipeline over the last 10 s. */
  readonly processedFps: number;
  /** Detector time in the worker, ms (last 100 frames). */
  readonly detectionMs: Figure;
  /** Capture to picture ready to send, ms (last 100 frames). */
  readonly latencyMs: Figure;
}

/** Rolling window of the last `size` values. */
export class RollingWindow {
  private readonly values: number[] = [];
  constructor(private readonly size = 100) {}
  push(v: number): void {
    this.values.push(v);
    if (this.values.length > this.size) this.values.shift();
  }
  figure(): Figure {
    const n = this.values.length;
    if (n === 0) return { last: null, mean: null, p95: null };
    const sorted = [...this.values].sort((a, b) => a - b);
    return {
      last: this.values[n - 1]!,
      mean: this.values.reduce((t, v) => t + v, 0) / n,
      p95: sorted[Math.min(n - 1, Math.floor(0.95 * n))]!,
    };
  }
}
