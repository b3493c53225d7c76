import type { ConnectionStatus } from './connection.ts';

/**
 * The status line's numbers and words. `FpsMeter` counts presented frames over a sliding
 * window; `describeConnection` turns the connection state into the words shown to players.
 */

export class FpsMeter {
  private times: number[] = [];

  constructor(private readonly windowMs = 10_000) {}

  tick(now: number): void {
    this.times.push(now);
    this.trim(now);
  }

  /** Frames per second over the window, or null with fewer than two frames in it. */
  rate(now: number): number | null {
    this.trim(now);
    const first = this.times[0];
    const last = this.times[this.times.length - 1];
    if (this.times.length < 2 || first === undefined || last === undefined || last === first) return null;
    return (this.times.length - 1) / ((last - first) / 1000);
  }

  reset(): void {
    this.times = [];
  }

  private trim(now: number): void {
    while (this.times.length > 0 && (this.times[0] ?? now) < now - this.windowMs) this.times.shift();
  }
}

export function describeConnection(status: ConnectionStatus, now: number): string {
  switch (status.phase) {
    case 'open':
      return 'live';
    case 'connecting':
      return status.attempts > 0 ? `reconnecting (attempt ${status.attempts + 1})…` : 'connecting…';
    case 'waiting': {
      const s = status.retryAt === null ? 0 : Math.max(0, Math.ceil((status.retryAt - now) / 1000));
      return `disconnected — retrying in ${s} s`;
    }
  }
}

export function formatFps(fps: number | null): string {
  return fps === null ? '— fps' : `${fps.toFixed(fps < 10 ? 1 : 0)} fps`;
}

export function formatDetection(ms: number | null): string {
  return ms === null ? '' : `detection ${Math.round(ms)} ms`;
}
