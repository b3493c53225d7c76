import type { ClientMessage, ServerMessage } from '../../../src/server/protocol.ts';
import { parseServerMessage } from './messages.ts';

/**
 * The live WebSocket: connects to `/live` on the page's own origin, reconnects with exponential
 * back-off (with jitter, capped), and reports its state so the page can show it. A connection
 * that goes silent for `staleAfterMs` is treated as dead and replaced.
 */

export type ConnectionPhase = 'connecting' | 'open' | 'waiting';

export interface ConnectionStatus {
  readonly phase: ConnectionPhase;
  /** When phase is 'waiting': the time (performance.now) of the next attempt. */
  readonly retryAt: number | null;
  /** Consecutive failed attempts. */
  readonly attempts: number;
}

export interface ConnectionHandlers {
  onFrame(jpeg: ArrayBuffer): void;
  onMessage(message: ServerMessage): void;
  onStatus(status: ConnectionStatus): void;
  /** A text message that is not a known server message. */
  onBadMessage(text: string): void;
  /** Called each time a connection opens (after a reconnect the server knows nothing of us). */
  onOpen(): void;
}

export interface ConnectionOptions {
  readonly url: string;
  readonly minDelayMs: number;
  readonly maxDelayMs: number;
  readonly staleAfterMs: number;
}

export function defaultLiveUrl(loc: Location = window.location): string {
  return `${loc.protocol === 'https:' ? 'wss' : 'ws'}://${loc.host}/live`;
}

export function defaultConnectionOptions(): ConnectionOptions {
  return { url: defaultLiveUrl(), minDelayMs: 500, maxDelayMs: 10_000, staleAfterMs: 15_000 };
}

/** Delay before attempt number `attempts` (1-based): doubling from min, capped, ±25 % jitter. */
export function backoffDelay(
  attempts: number,
  minMs: number,
  maxMs: number,
  random: () => number = Math.random,
): number {
  const base = Math.min(maxMs, minMs * 2 ** Math.max(0, attempts - 1));
  return Math.round(base * (0.75 + 0.5 * random()));
}

export class LiveConnection {
  private socket: WebSocket | null = null;
  private attempts = 0;
  private retryTimer: number | null = null;
  private staleTimer: number | null = null;
  private stopped = false;

  constructor(
    private readonly handlers: ConnectionHandlers,
    private readonly options: ConnectionOptions = defaultConnectionOptions(),
  ) {}

  start(): void {
    this.stopped = false;
    this.connect();
  }

  stop(): void {
    this.stopped = true;
    this.clearTimers();
    this.socket?.close();
    this.socket = null;
  }

  /** Sends a message if the socket is open; returns whether it was sent. */
  send(message: ClientMessage): boolean {
    if (this.socket?.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  get isOpen(): boolean {
    return this.socket?.readyState === WebSocket.OPEN;
  }

  private connect(): void {
    this.clearTimers();
    this.handlers.onStatus({ phase: 'connecting', retryAt: null, attempts: this.attempts });
    let socket: WebSocket;
    try {
      socket = new WebSocket(this.options.url);
    } catch {
      this.scheduleRetry();
      return;
    }
    socket.binaryType = 'arraybuffer';
    this.socket = socket;
    socket.addEventListener('open', () => {
      if (socket !== this.socket) return;
      this.handlers.onStatus({ phase: 'open', retryAt: null, attempts: this.attempts });
      this.armStaleTimer();
      this.handlers.onOpen();
    });
    socket.addEventListener('message', (event: MessageEvent<unknown>) => {
      if (socket !== this.socket) return;
      // Only a connection that delivers data counts as healthy: reset the back-off here.
      this.attempts = 0;
      this.armStaleTimer();
      const data = event.data;
      if (data instanceof ArrayBuffer) this.handlers.onFrame(data);
      else if (typeof data === 'string') {
        const message = parseServerMessage(data);
        if (message) this.handlers.onMessage(message);
        else this.handlers.onBadMessage(data);
      }
    });
    socket.addEventListener('close', () => {
      if (socket !== this.socket) return;
      this.socket = null;
      if (!this.stopped) this.scheduleRetry();
    });
    // 'error' is always followed by 'close'; nothing to do here.
  }

  private scheduleRetry(): void {
    this.clearTimers();
    this.attempts += 1;
    const delay = backoffDelay(this.attempts, this.options.minDelayMs, this.options.maxDelayMs);
    this.handlers.onStatus({ phase: 'waiting', retryAt: performance.now() + delay, attempts: this.attempts });
    this.retryTimer = window.setTimeout(() => {
      this.retryTimer = null;
      if (!this.stopped) this.connect();
    }, delay);
  }

  private armStaleTimer(): void {
    if (this.staleTimer !== null) window.clearTimeout(this.staleTimer);
    this.staleTimer = window.setTimeout(() => {
      this.staleTimer = null;
      // Silent for too long: drop this socket (its close event will not be waited for).
      const socket = this.socket;
      this.socket = null;
      socket?.close();
      if (!this.stopped) this.scheduleRetry();
    }, this.options.staleAfterMs);
  }

  private clearTimers(): void {
    if (this.retryTimer !== null) window.clearTimeout(this.retryTimer);
    if (this.staleTimer !== null) window.clearTimeout(this.staleTimer);
    this.retryTimer = null;
    this.staleTimer = null;
  }
}
