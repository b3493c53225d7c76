import sharp from 'sharp';
import WebSocket from 'ws';
import { classify } from '../live/live-message.ts';

/**
 * The table's one upload of its live view to the hub. It watches the table's own live socket
 * exactly as a viewer's browser does (`/live`, read-only) and passes every message on to the hub
 * unchanged — `hello`, `state`, `error`, and any message a later version of the table server sends
 * its viewers (threat overlays included) — so the hub's viewers get what a viewer at the table
 * gets. Two things save the table's upload link: at most `fps` frames a second go up (a frame
 * and the `state` that follows it travel together or not at all), and pictures wider than
 * `pictureWidth` are scaled down (the overlays are drawn in the camera's own coordinates, so a
 * smaller picture still lines up). Both sockets reconnect by themselves.
 */

export interface LiveUplinkOptions {
  /** The table server's live socket, e.g. ws://127.0.0.1:8080/live. */
  readonly localUrl: string;
  /** A token the table server accepts (its spectator token is enough), if it needs one. */
  readonly localToken?: string | null;
  readonly hubUrl: string;
  /** `Bearer <table token>`. */
  readonly hubAuthorization: string;
  /** Frames a second sent up (default 4). */
  readonly fps?: number;
  /** Widest picture sent up, px (default 960; 0: as the table sends it). */
  readonly pictureWidth?: number;
  /** Frames are skipped while this much is waiting to go up. */
  readonly maxBufferedBytes?: number;
  readonly log?: (line: string) => void;
}

export interface LiveUplinkStatus {
  readonly local: boolean;
  readonly hub: boolean;
  readonly framesSent: number;
  readonly framesSkipped: number;
  readonly messagesSent: number;
}

export class LiveUplink {
  private local: WebSocket | null = null;
  private hub: WebSocket | null = null;
  private stopped = false;
  private lastHello: Buffer | null = null;
  private lastFrameAt = 0;
  private skipState = false;
  private encoding = false;
  /** Messages in order: a scaled frame must go before the state that follows it. */
  private chain: Promise<void> = Promise.resolve();
  private readonly timers = new Set<NodeJS.Timeout>();
  private counts = { framesSent: 0, framesSkipped: 0, messagesSent: 0 };

  constructor(private readonly options: LiveUplinkOptions) {}

  status(): LiveUplinkStatus {
    return {
      local: this.local?.readyState === WebSocket.OPEN,
      hub: this.hub?.readyState === WebSocket.OPEN,
      ...this.counts,
    };
  }

  start(): void {
    this.connectLocal(0);
    this.connectHub(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    for (const t of this.timers) clearTimeout(t);
    this.local?.terminate();
    this.hub?.terminate();
    await this.chain;
  }

  private later(fn: () => void, attempt: number): void {
    const delay = Math.min(10_000, 500 * 2 ** Math.min(attempt, 5)) * (0.75 + Math.random() * 0.5);
    const t = setTimeout(() => {
      this.timers.delete(t);
      if (!this.stopped) fn();
    }, delay);
    this.timers.add(t);
  }

  private connectLocal(attempt: number): void {
    const headers: Record<string, string> = this.options.localToken
      ? { Authorization: `Bearer ${this.options.localToken}` }
      : {};
    const ws = new WebSocket(this.options.localUrl, { headers });
    this.local = ws;
    let opened = false;
    ws.on('open', () => {
      opened = true;
      // Asked as a page asks (its `view` message): the table then scales the picture from the
      // frame's own pixels, and makes no full-size JPEG of every frame for the uplink's sake.
      const width = this.options.pictureWidth ?? 960;
      if (width > 0) ws.send(JSON.stringify({ type: 'view', width: Math.max(64, width) }));
    });
    ws.on('message', (data, isBinary) => this.fromTable(toBuffer(data), isBinary));
    ws.on('error', () => undefined);
    ws.on('close', () => {
      if (this.local === ws) this.local = null;
      if (!this.stopped) this.later(() => this.connectLocal(opened ? 0 : attempt + 1), opened ? 0 : attempt);
    });
  }

  private connectHub(attempt: number): void {
    const ws = new WebSocket(this.options.hubUrl, {
      headers: { Authorization: this.options.hubAuthorization },
    });
    this.hub = ws;
    let opened = false;
    ws.on('open', () => {
      opened = true;
      if (attempt > 0) this.options.log?.('hub live: connected again');
      // The hub learns the table's scenario and camera at once.
      if (this.lastHello) ws.send(this.lastHello, { binary: false });
    });
    ws.on('unexpected-response', (_req, res) => {
      this.options.log?.(`hub live: the hub refused the upload (HTTP ${res.statusCode}): check --hub-token`);
    });
    ws.on('error', (err) => {
      if (attempt === 0) this.options.log?.(`hub live: ${err.message} (will retry)`);
    });
    ws.on('close', () => {
      if (this.hub === ws) this.hub = null;
      if (!this.stopped) this.later(() => this.connectHub(opened ? 0 : attempt + 1), opened ? 0 : attempt);
    });
  }

  private fromTable(data: Buffer, isBinary: boolean): void {
    const message = classify(data, isBinary);
    if (message.kind === 'hello') this.lastHello = data;
    const hub = this.hub;
    const open = hub?.readyState === WebSocket.OPEN;
    if (message.kind === 'frame') {
      const now = Date.now();
      const fps = this.options.fps ?? 4;
      const tooSoon = now - this.lastFrameAt < 1000 / fps;
      const backedUp = !open || hub.bufferedAmount > (this.options.maxBufferedBytes ?? 1024 * 1024);
      this.skipState = tooSoon || backedUp || this.encoding;
      if (this.skipState) {
        if (open) this.counts.framesSkipped++;
        return;
      }
      this.lastFrameAt = now;
      const width = this.options.pictureWidth ?? 960;
      if (width <= 0) return this.send(data, true, true);
      this.encoding = true;
      const scaled = sharp(data)
        .resize({ width, withoutEnlargement: true })
        .jpeg({ quality: 75 })
        .toBuffer()
        .catch(() => data)
        .finally(() => {
          this.encoding = false;
        });
      this.chain = this.chain.then(async () => this.sendNow(await scaled, true, true));
      return;
    }
    if (message.kind === 'state' && this.skipState) {
      this.skipState = false;
      return;
    }
    if (!open) return;
    this.send(data, false, false);
  }

  private send(data: Buffer, binary: boolean, frame: boolean): void {
    this.chain = this.chain.then(() => this.sendNow(data, binary, frame));
  }

  private sendNow(data: Buffer, binary: boolean, frame: boolean): void {
    const hub = this.hub;
    if (!hub || hub.readyState !== WebSocket.OPEN) return;
    hub.send(data, { binary });
    this.counts.messagesSent++;
    if (frame) this.counts.framesSent++;
  }
}

function toBuffer(data: WebSocket.RawData): Buffer {
  if (Buffer.isBuffer(data)) return data;
  if (Array.isArray(data)) return Buffer.concat(data);
  return Buffer.from(data);
}
