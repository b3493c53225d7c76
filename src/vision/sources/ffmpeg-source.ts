import { spawn, type ChildProcessByStdio } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import type { Readable } from 'node:stream';
import type { Frame, FrameSource } from '../frame-source.ts';
import { decodeCameraJpeg, imageSize, jpegFrameSize } from './image-decoding.ts';
import { SourceError } from './source-error.ts';

/** What ffmpeg reads. */
export type FfmpegInput =
  /** A V4L2 webcam. `inputFormat` is what the camera sends (`mjpeg`, `yuyv422`, …); size and rate are asked of the camera. */
  | {
      readonly kind: 'v4l2';
      readonly device: string;
      readonly size?: { readonly width: number; readonly height: number };
      readonly fps?: number;
      readonly inputFormat?: string;
    }
  /** An RTSP or HTTP (MJPEG) camera stream. */
  | { readonly kind: 'url'; readonly url: string }
  /** A video file; `realtime` plays it at its own speed (ffmpeg -re), `loop` starts it again at the end. */
  | { readonly kind: 'file'; readonly path: string; readonly realtime: boolean; readonly loop: boolean };

export interface FfmpegSourceOptions {
  readonly input: FfmpegInput;
  /** Frames come out at exactly this size (the camera profile's), scaled by ffmpeg if need be. */
  readonly width: number;
  readonly height: number;
  /**
   * `raw`: rgb24 frames, width × height × 3 bytes each (exact, more bytes through the pipe).
   * `mjpeg`: JPEG frames split on their SOI/EOI markers and decoded with sharp (a webcam that
   * sends MJPEG at the profile's size is passed through without re-encoding).
   */
  readonly transport: 'raw' | 'mjpeg';
  /** No bytes from ffmpeg for this long: the camera is taken for gone and ffmpeg is stopped (ms). */
  readonly stallMs?: number;
  readonly ffmpegPath?: string;
  readonly name?: string;
}

/** The ffmpeg command line for a source (exported for `vedette sources` and the tests). */
export function ffmpegArgs(o: FfmpegSourceOptions): string[] {
  const args = ['-hide_banner', '-loglevel', 'error', '-nostdin'];
  const input = o.input;
  let passThrough = false;
  switch (input.kind) {
    case 'v4l2':
      args.push('-f', 'v4l2');
      if (input.inputFormat) args.push('-input_format', input.inputFormat);
      if (input.size) args.push('-video_size', `${input.size.width}x${input.size.height}`);
      if (input.fps) args.push('-framerate', String(input.fps));
      args.push('-i', input.device);
      passThrough =
        o.transport === 'mjpeg' &&
        input.inputFormat === 'mjpeg' &&
        input.size?.width === o.width &&
        input.size?.height === o.height;
      break;
    case 'url':
      if (/^rtsps?:/i.test(input.url)) args.push('-rtsp_transport', 'tcp');
      args.push('-fflags', 'nobuffer', '-flags', 'low_delay', '-i', input.url);
      break;
    case 'file':
      if (input.realtime) args.push('-re');
      if (input.loop) args.push('-stream_loop', '-1');
      args.push('-i', input.path);
      break;
  }
  args.push('-an', '-sn');
  if (passThrough) args.push('-c:v', 'copy', '-f', 'mjpeg', 'pipe:1');
  else {
    args.push('-vf', `scale=${o.width}:${o.height}`);
    if (o.transport === 'raw') args.push('-pix_fmt', 'rgb24', '-f', 'rawvideo', 'pipe:1');
    else args.push('-q:v', '2', '-f', 'mjpeg', 'pipe:1');
  }
  return args;
}

export function describeInput(input: FfmpegInput): string {
  switch (input.kind) {
    case 'v4l2':
      return `webcam ${input.device}`;
    case 'url':
      return `stream ${redactUrl(input.url)}`;
    case 'file':
      return `video ${input.path}`;
  }
}

/**
 * Why ffmpeg cannot even be started for this input, or null. A video file that does not exist is
 * a permanent failure (named with its path; retrying cannot help); a webcam device that is not
 * there is not (it may be plugged back in), and is said without starting ffmpeg each time.
 */
export function inputProblem(input: FfmpegInput): SourceError | null {
  if (input.kind === 'file') {
    if (!existsSync(input.path)) return new SourceError(`video file ${input.path} does not exist`, true);
    if (!statSync(input.path).isFile()) return new SourceError(`${input.path} is not a video file`, true);
  }
  if (input.kind === 'v4l2' && input.device.startsWith('/dev/') && !existsSync(input.device))
    return new SourceError(`webcam ${input.device} is not there (unplugged?)`);
  return null;
}

/** A URL without its password, for logs and the page. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return url;
  }
}

type Child = ChildProcessByStdio<null, Readable, Readable>;

const SOI = Buffer.from([0xff, 0xd8]);
const EOI = Buffer.from([0xff, 0xd9]);
const MAX_JPEG_BYTES = 32 * 1024 * 1024;

/**
 * A camera read through ffmpeg (Debian's `ffmpeg`), spawned as a child process writing frames
 * to its stdout. Webcams and streams are live: they are read as fast as they deliver and
 * `next()` resolves with the newest frame (older ones counted in `dropped`); with the MJPEG
 * transport only the newest JPEG is kept, and decoded when `next()` asks for it. A file read flat out
 * is paced by the reader: ffmpeg's output is paused while a frame waits, so none is lost.
 *
 * When ffmpeg exits or the picture stalls, waiting and later `next()` calls reject with the
 * reason (ffmpeg's last error lines); the `next()` after that starts ffmpeg again. The live loop
 * turns this into retries with back-off.
 */
export class FfmpegSource implements FrameSource {
  readonly name: string;
  readonly live: boolean;
  /** Frames replaced by a newer one before anybody asked for them. */
  dropped = 0;
  /** How many times ffmpeg was started. */
  starts = 0;
  private child: Child | null = null;
  private ready: Frame[] = [];
  private waiting: Array<{ resolve: (f: Frame) => void; reject: (e: Error) => void }> = [];
  private death: Error | null = null;
  /** A failure retrying cannot cure: every later `next()` rejects with it. */
  private gaveUp: SourceError | null = null;
  private closed = false;
  private sequence = 0;
  private stderrTail = '';
  private stallTimer: NodeJS.Timeout | null = null;
  // raw transport
  private raw: Buffer | null = null;
  private rawFill = 0;
  // mjpeg transport
  private pendingBytes: Buffer = Buffer.alloc(0);
  private jpegQueue: Array<{ jpeg: Buffer; at: number }> = [];
  private decoding = false;
  private undecodable = 0;

  constructor(private readonly options: FfmpegSourceOptions) {
    this.name = options.name ?? describeInput(options.input);
    this.live = !(options.input.kind === 'file' && !options.input.realtime);
  }

  /** ffmpeg's process id while it runs (tests kill it to play a camera that disappears). */
  get pid(): number | null {
    return this.child?.pid ?? null;
  }

  next(): Promise<Frame> {
    if (this.closed) return Promise.reject(new SourceError(`${this.name} is closed`, true));
    if (this.gaveUp && !this.death) return Promise.reject(this.gaveUp);
    const frame = this.ready.shift();
    if (frame) {
      this.resumeIfPaced();
      return Promise.resolve(frame);
    }
    // A JPEG still decoding when ffmpeg exited is delivered before the reason.
    if (this.death && !this.decoding && this.jpegQueue.length === 0) {
      const err = this.death;
      this.death = null;
      return Promise.reject(err);
    }
    if (!this.child && !this.death) {
      const refused = inputProblem(this.options.input);
      if (refused) return Promise.reject(refused);
      this.spawn();
    }
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.resumeIfPaced();
      // A live camera's newest JPEG is decoded now that somebody wants it.
      if (!this.decoding && this.jpegQueue.length > 0) void this.decodeLoop();
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.fail(new SourceError(`${this.name} is closed`, true));
    await this.stopChild();
  }

  private spawn(): void {
    this.starts++;
    this.stderrTail = '';
    this.raw = null;
    this.rawFill = 0;
    this.pendingBytes = Buffer.alloc(0);
    this.jpegQueue = [];
    this.undecodable = 0;
    const child = spawn(this.options.ffmpegPath ?? 'ffmpeg', ffmpegArgs(this.options), {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    child.stdout.on('data', (chunk: Buffer) => {
      this.armStall();
      if (this.options.transport === 'raw') this.onRaw(chunk);
      else this.onMjpeg(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      this.stderrTail = (this.stderrTail + chunk.toString()).slice(-2000);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      if (child !== this.child) return;
      this.child = null;
      this.clearStall();
      const missing = err.code === 'ENOENT';
      this.died(
        new SourceError(
          missing
            ? 'ffmpeg is not installed (Debian: apt-get install ffmpeg)'
            : `cannot start ffmpeg: ${err.message}`,
          missing,
        ),
      );
    });
    child.on('close', (code, signal) => {
      if (child !== this.child) return;
      this.child = null;
      this.clearStall();
      if (this.closed) return;
      const input = this.options.input;
      // ffmpeg's last distinct error lines, without its "[tcp @ 0x55…]" prefixes.
      const lines = this.stderrTail
        .trim()
        .split('\n')
        .map((l) => l.replace(/^\[[^\]]*@ 0x[0-9a-f]+\]\s*/, '').trim())
        .filter((l) => l.length > 0);
      const why = [...new Set(lines.slice(-2))].join(' / ');
      if (code === 0 && input.kind === 'file') {
        this.died(new SourceError(`${this.name}: the video ended`, !input.loop));
      } else {
        this.died(
          new SourceError(
            `${this.name}: ffmpeg stopped (${signal ?? `exit code ${code}`})${why ? `: ${why}` : ''}`,
          ),
        );
      }
    });
    this.armStall();
  }

  /** ffmpeg is gone: frames already complete are still handed out, then the reason. */
  private died(err: Error): void {
    if (this.gaveUp) return; // already said why, better than "ffmpeg stopped"
    if (this.decoding || this.jpegQueue.length > 0) {
      // Let the last JPEGs decode first; the decode loop reports the death when done.
      this.death = err;
      return;
    }
    if (this.waiting.length > 0) this.fail(err);
    else this.death = err;
  }

  private fail(err: Error): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w.reject(err);
  }

  private deliver(frame: Frame): void {
    const waiter = this.waiting.shift();
    if (waiter) return waiter.resolve(frame);
    if (this.live && this.ready.length > 0) {
      this.dropped += this.ready.length;
      this.ready = [];
    }
    this.ready.push(frame);
    this.pauseIfPaced();
  }

  private pauseIfPaced(): void {
    if (!this.live && this.ready.length + this.jpegQueue.length > 0) {
      this.child?.stdout.pause();
      this.clearStall(); // paused on purpose: silence is not a stall
    }
  }

  private resumeIfPaced(): void {
    if (!this.live && this.ready.length + this.jpegQueue.length === 0 && this.child?.stdout.isPaused()) {
      this.child.stdout.resume();
      this.armStall();
    }
  }

  private onRaw(chunk: Buffer): void {
    const frameBytes = this.options.width * this.options.height * 3;
    let offset = 0;
    while (offset < chunk.length) {
      if (!this.raw) {
        // A fresh buffer per frame: the pipeline takes it over (transferred to the worker).
        this.raw = Buffer.from(new ArrayBuffer(frameBytes));
        this.rawFill = 0;
      }
      const n = Math.min(frameBytes - this.rawFill, chunk.length - offset);
      chunk.copy(this.raw, this.rawFill, offset, offset + n);
      this.rawFill += n;
      offset += n;
      if (this.rawFill === frameBytes) {
        const data = new Uint8Array(this.raw.buffer, 0, frameBytes);
        this.raw = null;
        const { width, height } = this.options;
        this.deliver({
          image: { width, height, channels: 3, data },
          capturedAt: Date.now(),
          sequence: this.sequence++,
        });
      }
    }
  }

  private onMjpeg(chunk: Buffer): void {
    let buf = this.pendingBytes.length > 0 ? Buffer.concat([this.pendingBytes, chunk]) : chunk;
    for (;;) {
      const start = buf.indexOf(SOI);
      if (start < 0) {
        buf = buf.subarray(buf.length - 1); // keep a possible 0xFF of a marker split across chunks
        break;
      }
      const end = buf.indexOf(EOI, start + 2);
      if (end < 0) {
        buf = buf.subarray(start);
        if (buf.length > MAX_JPEG_BYTES) buf = Buffer.alloc(0); // not a JPEG stream: resynchronise
        break;
      }
      const jpeg = Buffer.from(buf.subarray(start, end + 2));
      buf = buf.subarray(end + 2);
      if (this.live && this.jpegQueue.length > 0) {
        this.dropped += this.jpegQueue.length;
        this.jpegQueue = [];
      }
      this.jpegQueue.push({ jpeg, at: Date.now() });
    }
    this.pendingBytes = Buffer.from(buf);
    this.pauseIfPaced();
    if (!this.decoding && this.jpegQueue.length > 0 && this.wantsDecode()) void this.decodeLoop();
  }

  /**
   * A live camera's JPEG is decoded only for a caller waiting for it: the newest one is kept and
   * replaced, never decoded to be dropped. A paced file decodes its next frame ahead.
   */
  private wantsDecode(): boolean {
    return !this.live || this.waiting.length > 0;
  }

  private async decodeLoop(): Promise<void> {
    this.decoding = true;
    while (this.jpegQueue.length > 0 && !this.closed && this.wantsDecode()) {
      const { jpeg, at } = this.jpegQueue.shift()!;
      const { width, height } = this.options;
      try {
        // The header first: a frame of another size is refused before any pixel is decoded.
        const size = jpegFrameSize(jpeg) ?? (await imageSize(jpeg));
        if (size.width !== width || size.height !== height) {
          // The camera sends another size than asked (a passed-through MJPEG webcam): every frame
          // would be refused, so this is a failure to report, not a stream to retry.
          this.stderrTail += `\nthe camera sends ${size.width}×${size.height} frames, not ${width}×${height}`;
          this.gaveUp = new SourceError(
            `${this.name} sends ${size.width}×${size.height} frames but the camera profile is for ${width}×${height}: ` +
              'use a profile of this size, or ask the camera for that size (--size)',
            true,
          );
          this.death = this.gaveUp;
          this.jpegQueue = [];
          this.child?.kill('SIGKILL');
          break;
        }
        const decoded = await decodeCameraJpeg(jpeg, width * height);
        const image = { ...decoded, channels: 3 as const };
        this.deliver({ image, capturedAt: at, sequence: this.sequence++, jpeg });
      } catch (err) {
        this.stderrTail += `\nundecodable frame: ${(err as Error).message}`;
        // A stream of frames that never decode is a dead camera too: say so and let it be retried.
        if (++this.undecodable >= 10 && this.child) {
          this.stderrTail += `\n${this.undecodable} frames in a row could not be decoded (try --transport raw)`;
          this.child.kill('SIGKILL');
        }
        continue;
      }
      this.undecodable = 0;
    }
    this.decoding = false;
    if (this.death && this.waiting.length > 0 && this.ready.length === 0) {
      const err = this.death;
      this.death = null;
      this.fail(err);
    }
    this.resumeIfPaced();
  }

  private armStall(): void {
    this.clearStall();
    const ms = this.options.stallMs ?? 10_000;
    this.stallTimer = setTimeout(() => {
      const child = this.child;
      if (!child) return;
      this.stderrTail += `\nno picture for ${(ms / 1000).toFixed(1)} s`;
      child.kill('SIGKILL');
    }, ms);
  }

  private clearStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
  }

  private async stopChild(): Promise<void> {
    this.clearStall();
    const child = this.child;
    this.child = null;
    if (!child || child.exitCode !== null || child.signalCode !== null) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(() => child.kill('SIGKILL'), 1000);
      child.once('close', () => {
        clearTimeout(timer);
        resolve();
      });
      child.kill('SIGTERM');
    });
  }
}
