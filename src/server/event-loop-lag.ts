/**
 * How late a 100 ms timer fires: the server's responsiveness, reported in /api/status as the
 * worst delay of the last 2 s window. The timers are unref'd so that they never keep a process up.
 */
export class EventLoopLag {
  private reported = 0;
  private worst = 0;
  private expected = Date.now() + 100;
  private readonly tick: NodeJS.Timeout;
  private readonly report: NodeJS.Timeout;

  constructor() {
    this.tick = setInterval(() => {
      const now = Date.now();
      this.worst = Math.max(this.worst, now - this.expected);
      this.expected = now + 100;
    }, 100);
    this.report = setInterval(() => {
      this.reported = this.worst;
      this.worst = 0;
    }, 2000);
    this.tick.unref();
    this.report.unref();
  }

  /** Worst lag in the last complete window, ms. */
  get ms(): number {
    return this.reported;
  }

  stop(): void {
    clearInterval(this.tick);
    clearInterval(this.report);
  }
}
