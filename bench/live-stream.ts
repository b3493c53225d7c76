/**
 * The live benchmark's network camera: an HTTP MJPEG stream (multipart/x-mixed-replace, as IP
 * cameras and phone camera apps serve it) from this process, one JPEG every 1/fps s on a fixed
 * cadence, logging when each frame was written and what its truth is. A client still taking the
 * previous frame misses this one (as from mjpg-streamer and most IP cameras: the newest frame
 * wins, nothing queues in the camera), counted; the cadence never waits for it.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type ServerResponse, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { StreamFrame } from './live-frames.ts';
import type { SentFrame } from './live-latency.ts';

const BOUNDARY = 'vedettebench';

export class MjpegStream {
  private readonly clients = new Set<ServerResponse>();
  private frames: readonly StreamFrame[] = [];
  private playFrom = 0;
  private tick = 0;
  private timer: NodeJS.Timeout | null = null;
  private startedAt = 0;
  /** Every frame written to a client, in order (index: the stream's frame number). */
  readonly sent: SentFrame[] = [];
  /** Frames a client was too far behind to be sent. */
  missed = 0;
  /** Ticks that came more than a frame late (this process was busy), and were skipped. */
  late = 0;

  private constructor(
    private readonly server: Server,
    readonly fps: number,
  ) {}

  static async start(fps: number): Promise<MjpegStream> {
    let stream: MjpegStream | null = null;
    const server = createServer((req, res) => stream?.connect(req.url ?? '/', res));
    stream = new MjpegStream(server, fps);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
    return stream;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/video`;
  }

  /** From the next tick on, loop these frames from their first. */
  play(frames: readonly StreamFrame[]): void {
    if (frames.length === 0) throw new Error('nothing to play');
    this.frames = frames;
    this.playFrom = this.tick;
    if (!this.timer) {
      this.startedAt = Date.now();
      this.tick = 0;
      this.playFrom = 0;
      this.schedule();
    }
  }

  private connect(path: string, res: ServerResponse): void {
    if (path !== '/video') {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, {
      'content-type': `multipart/x-mixed-replace; boundary=${BOUNDARY}`,
      'cache-control': 'no-cache',
      connection: 'close',
    });
    this.clients.add(res);
    res.on('close', () => this.clients.delete(res));
  }

  private schedule(): void {
    const period = 1000 / this.fps;
    const due = this.startedAt + this.tick * period;
    this.timer = setTimeout(() => this.send(), Math.max(0, due - Date.now()));
  }

  private send(): void {
    const period = 1000 / this.fps;
    // More than a frame behind the cadence: skip to the current tick, as a camera's clock would.
    const behind = Math.floor((Date.now() - this.startedAt) / period) - this.tick;
    if (behind > 1) {
      this.late += behind - 1;
      this.tick += behind - 1;
    }
    const frame = this.frames[(this.tick - this.playFrom) % this.frames.length]!;
    let written = false;
    for (const res of this.clients) {
      if (res.writableLength > 0) {
        this.missed++;
        continue;
      }
      res.write(`--${BOUNDARY}\r\nContent-Type: image/jpeg\r\nContent-Length: ${frame.jpeg.length}\r\n\r\n`);
      res.write(frame.jpeg);
      res.write('\r\n');
      written = true;
    }
    if (written) this.sent.push({ index: this.tick, sentAt: Date.now(), truth: frame.truth });
    this.tick++;
    this.schedule();
  }

  /**
   * Bytes of the stream waiting in the kernel now (both ends' socket queues, from `ss`): frames
   * written by the camera that its reader has not taken yet. Null when `ss` cannot tell.
   */
  queuedBytes(): number | null {
    const port = (this.server.address() as AddressInfo).port;
    try {
      const out = execFileSync(
        'ss',
        ['-tnH', 'state', 'established', `( sport = :${port} or dport = :${port} )`],
        { stdio: ['ignore', 'pipe', 'ignore'] },
      );
      return socketQueueBytes(out.toString());
    } catch {
      return null;
    }
  }

  async close(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    for (const res of this.clients) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** Sum of the Recv-Q and Send-Q columns of `ss -tnH state established …` output. */
export function socketQueueBytes(ssOutput: string): number {
  let total = 0;
  for (const line of ssOutput.split('\n')) {
    const [recv, send] = line.trim().split(/\s+/);
    if (recv !== undefined && send !== undefined && /^\d+$/.test(recv) && /^\d+$/.test(send))
      total += Number(recv) + Number(send);
  }
  return total;
}
