import { get as httpGet, type ClientRequest, type IncomingMessage } from 'node:http';
import { get as httpsGet } from 'node:https';
import type { Frame, FrameSource } from '../frame-source.ts';
import { redactUrl } from './ffmpeg-source.ts';
import { decodeCameraJpeg, imageSize, jpegFrameSize } from './image-decoding.ts';
import { multipartBoundary, MultipartSplitter } from './multipart-jpeg.ts';
import { PixelPool } from './pixel-pool.ts';
import { SourceError } from './source-error.ts';

export interface HttpMjpegSourceOptions {
  readonly url: string;
  /** Frames must be this size (the camera profile's): nothing scales them. */
  readonly width: number;
  readonly height: number;
  /** No complete picture for this long: the camera is taken for gone and the connection closed (ms). */
  readonly stallMs?: number;
  readonly name?: string;
}

const MAX_JPEG_BYTES = 32 * 1024 * 1024;
/**
 * At most one picture every quarter second is given from behind the newest, to catch up after a
 * slow pipeline run (a whole-frame search, a collection, the machine busy elsewhere); a pipeline
 * slower than the camera for longer gets the newest picture, as before. How far behind a picture
 * may be is capped below (2.5 frames), so catching up more often cannot build a lag. It was once
 * a second: on a still table at 30 fps, 8–27 of ~370 frames were still dropped; a quarter second
 * gave 3–21 (`npm run bench -- live --only mjpeg`, three alternations on a machine whose speed
 * swung by half between runs), and the moving unit's overlay p95 117–132 ms against 118–156 ms.
 */
const CATCH_UP_EVERY_MS = 250;
/** A picture kept to catch up with is given only while it is at most this many camera frames old… */
const CATCH_UP_MAX_FRAMES_BEHIND = 2.5;
/** …or this many ms (a timer on a busy machine is late by tens of ms). */
const CATCH_UP_MAX_MS_BEHIND = 100;
/** Frames in a row that do not decode before the connection is dropped as a dead camera. */
const MAX_UNDECODABLE = 10;

type Waiter = { resolve: (f: Frame) => void; reject: (e: Error) => void };

function openStream(url: string, onResponse: (res: IncomingMessage) => void): ClientRequest {
  const u = new URL(url);
  const get = u.protocol === 'https:' ? httpsGet : httpGet;
  return get(u, { headers: { accept: 'multipart/x-mixed-replace, */*' } }, onResponse);
}

/**
 * An HTTP MJPEG camera (multipart/x-mixed-replace) read directly, without ffmpeg: the stream is
 * read as fast as the camera sends (so nothing waits in the socket queues and every picture is
 * recent), split into its JPEG parts, and only the newest part is kept (and the one before it,
 * to catch up after a slow pipeline run, at most once a quarter second); it is decoded with sharp when
 * `next()` asks, so a frame the pipeline never takes costs a copy, not a decode. Parts replaced
 * unread are counted in `dropped`. The JPEG goes with the frame (re-sent as is).
 *
 * Failures reject the waiting and next `next()` with the reason (cannot connect, an HTTP error,
 * not a multipart stream, the stream ended, no picture for `stallMs`, frames that do not decode);
 * the `next()` after that connects again, and the live loop retries with back-off. Frames of
 * another size than the profile's are refused for good, before any pixel is decoded.
 */
export class HttpMjpegSource implements FrameSource {
  readonly name: string;
  readonly live = true;
  dropped = 0;
  /** How many times the stream was opened. */
  connects = 0;
  private request: ClientRequest | null = null;
  /** Parts not yet decoded, oldest first: the newest, and the one before it while catching up is allowed. */
  private parts: Array<{ jpeg: Buffer; at: number }> = [];
  private lastCatchUpAt = -Infinity;
  /** Mean time between the camera's parts (ms), for how old a picture to catch up with may be. */
  private partIntervalMs = 33;
  private lastPartAt: number | null = null;
  private waiting: Waiter[] = [];
  private decoding = false;
  private death: SourceError | null = null;
  private gaveUp: SourceError | null = null;
  private closed = false;
  private sequence = 0;
  private undecodable = 0;
  private stallTimer: NodeJS.Timeout | null = null;
  private readonly pixels = new PixelPool();
  /** A picture decoded ahead (`prepare`), not yet asked for, and how many parts came after its own. */
  private prepared: Frame | null = null;
  private partsSincePrepared = 0;
  private prepareTimer: NodeJS.Timeout | null = null;
  /** Wall time of the last decodes (ms): how long before the pipeline is free a decode starts. */
  private decodeMs = 15;

  constructor(private readonly options: HttpMjpegSourceOptions) {
    this.name = options.name ?? `MJPEG stream ${redactUrl(options.url)}`;
  }

  next(): Promise<Frame> {
    if (this.closed) return Promise.reject(new SourceError(`${this.name} is closed`, true));
    if (this.gaveUp) return Promise.reject(this.gaveUp);
    return new Promise((resolve, reject) => {
      this.waiting.push({ resolve, reject });
      this.pump();
    });
  }

  recycle(pixels: Uint8Array): void {
    this.pixels.give(pixels);
  }

  /**
   * The pipeline expects to be free at `freeAt` (ms since the epoch): the newest picture is
   * decoded so as to be ready then (a decode's time before it), not after it is asked for, so the
   * decode no longer adds to each frame's turn. `next()` gives the prepared picture unless more
   * than one part came after it (the pipeline ran longer than expected); the prepared one is then
   * dropped and counted, and the newest decoded.
   */
  prepare(freeAt: number): void {
    if (this.closed) return;
    if (this.prepareTimer) clearTimeout(this.prepareTimer);
    const start = () => {
      this.prepareTimer = null;
      if (this.closed || this.decoding || this.prepared) return;
      const part = this.takePart();
      if (!part) return;
      this.partsSincePrepared = this.parts.length;
      void this.decode(part.jpeg, part.at);
    };
    const wait = freeAt - this.decodeMs - Date.now();
    if (wait <= 0) return start();
    this.prepareTimer = setTimeout(start, wait);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.hangUp();
    this.parts = [];
    this.prepared = null;
    if (this.prepareTimer) clearTimeout(this.prepareTimer);
    this.prepareTimer = null;
    this.failWaiting(new SourceError(`${this.name} is closed`, true));
  }

  /** Serves the first waiter: the newest JPEG decoded, else the reason the stream died, else connects. */
  private pump(): void {
    if (this.decoding || this.waiting.length === 0 || this.closed) return;
    const ready = this.prepared;
    if (ready) {
      this.prepared = null;
      // At most one camera frame behind: given at once (decoding the newer part would make the
      // pipeline wait a decode for a picture one frame newer). Two behind, when catching up.
      const catchingUp = this.partsSincePrepared === 2 && this.mayCatchUpWith(ready.capturedAt);
      if (this.partsSincePrepared <= 1 || catchingUp) {
        if (catchingUp) this.lastCatchUpAt = Date.now();
        this.waiting.shift()!.resolve(ready);
        return;
      }
      // Newer pictures came meanwhile (the pipeline took longer than it expected).
      this.dropped++;
      this.pixels.give(ready.image.data);
    }
    const part = this.takePart();
    if (part) {
      void this.decode(part.jpeg, part.at);
      return;
    }
    if (this.gaveUp || this.death) {
      const err = this.gaveUp ?? this.death!;
      this.death = null;
      const waiter = this.waiting.shift()!;
      waiter.reject(err);
      return;
    }
    if (!this.request) this.connect();
  }

  private async decode(jpeg: Buffer, at: number): Promise<void> {
    this.decoding = true;
    const started = performance.now();
    const { width, height } = this.options;
    try {
      // The header first: a frame of another size is refused before any pixel is decoded.
      const size = jpegFrameSize(jpeg) ?? (await imageSize(jpeg));
      if (size.width !== width || size.height !== height) {
        this.gaveUp = new SourceError(
          `${this.name} sends ${size.width}×${size.height} frames but the camera profile is for ${width}×${height}: ` +
            'use a profile of this size, or set the camera to that size',
          true,
        );
        this.hangUp();
        this.failWaiting(this.gaveUp);
        return;
      }
      const { data } = await decodeCameraJpeg(jpeg, width * height);
      this.undecodable = 0;
      // Into a buffer of our own: transferred to the vision worker, not copied, and reused.
      const pixels = this.pixels.take(data.length);
      pixels.set(data);
      const frame: Frame = {
        image: { width, height, channels: 3, data: pixels },
        capturedAt: at,
        sequence: this.sequence++,
        jpeg,
      };
      this.decodeMs = 0.7 * this.decodeMs + 0.3 * (performance.now() - started);
      const waiter = this.waiting.shift();
      if (waiter) waiter.resolve(frame);
      else if (!this.closed) this.prepared = frame;
    } catch (err) {
      // A stream of frames that never decode is a dead camera too: say so and let it be retried.
      if (++this.undecodable >= MAX_UNDECODABLE && this.request) {
        this.died(`${this.undecodable} frames in a row could not be decoded (${(err as Error).message})`);
      }
    } finally {
      this.decoding = false;
      this.pump();
    }
  }

  private connect(): void {
    this.connects++;
    this.undecodable = 0;
    const url = this.options.url;
    let request: ClientRequest;
    try {
      request = openStream(url, (res) => this.onResponse(request, res));
    } catch (err) {
      this.gaveUp = new SourceError(`${this.name}: ${(err as Error).message}`, true);
      this.failWaiting(this.gaveUp);
      return;
    }
    this.request = request;
    request.on('error', (err) => {
      if (request === this.request) this.died(`cannot read the stream: ${err.message}`);
    });
    this.armStall();
  }

  private onResponse(request: ClientRequest, res: IncomingMessage): void {
    if (request !== this.request) return void res.resume();
    if (res.statusCode !== 200) {
      res.resume();
      return this.died(`the camera answered HTTP ${res.statusCode} ${res.statusMessage ?? ''}`.trim());
    }
    const boundary = multipartBoundary(res.headers['content-type']);
    if (!boundary) {
      res.resume();
      this.gaveUp = new SourceError(
        `${this.name} is not an MJPEG stream (Content-Type ${res.headers['content-type'] ?? 'missing'})`,
        true,
      );
      this.hangUp();
      this.failWaiting(this.gaveUp);
      return;
    }
    const splitter = new MultipartSplitter(boundary, (part) => this.onPart(part), MAX_JPEG_BYTES);
    res.on('data', (chunk: Buffer) => {
      if (request !== this.request) return;
      try {
        splitter.push(chunk);
      } catch (err) {
        this.died(`not an MJPEG stream: ${(err as Error).message}`);
      }
    });
    res.on('end', () => {
      if (request === this.request) this.died('the camera ended the stream');
    });
    res.on('error', (err) => {
      if (request === this.request) this.died(`the stream broke: ${err.message}`);
    });
  }

  private onPart(jpeg: Buffer): void {
    this.armStall();
    const now = Date.now();
    if (this.lastPartAt !== null)
      this.partIntervalMs = 0.8 * this.partIntervalMs + 0.2 * (now - this.lastPartAt);
    this.lastPartAt = now;
    this.parts.push({ jpeg, at: now });
    this.partsSincePrepared++;
    const keep = this.mayCatchUpWith(now) ? 2 : 1;
    while (this.parts.length > keep) {
      this.parts.shift();
      this.dropped++;
    }
    this.pump();
  }

  /**
   * The part to decode next: the oldest kept while it may be caught up with (the newest stays for
   * the next turn), else the newest, the older ones counted as dropped.
   */
  private takePart(): { jpeg: Buffer; at: number } | null {
    while (this.parts.length > 1 && !this.mayCatchUpWith(this.parts[0]!.at)) {
      this.parts.shift();
      this.dropped++;
    }
    const part = this.parts.shift() ?? null;
    if (part && this.parts.length > 0) this.lastCatchUpAt = Date.now();
    return part;
  }

  /** A picture taken at `at` may be given from behind the newest (see CATCH_UP_EVERY_MS). */
  private mayCatchUpWith(at: number): boolean {
    const now = Date.now();
    return (
      now - this.lastCatchUpAt >= CATCH_UP_EVERY_MS &&
      now - at <= Math.max(CATCH_UP_MAX_MS_BEHIND, CATCH_UP_MAX_FRAMES_BEHIND * this.partIntervalMs)
    );
  }

  /** The connection is lost: the next waiter hears why (after the newest JPEG, if any). */
  private died(why: string): void {
    this.hangUp();
    this.death = new SourceError(`${this.name}: ${why}`);
    this.pump();
  }

  private hangUp(): void {
    this.clearStall();
    const request = this.request;
    this.request = null;
    request?.destroy();
  }

  private failWaiting(err: Error): void {
    const waiting = this.waiting;
    this.waiting = [];
    for (const w of waiting) w.reject(err);
  }

  private armStall(): void {
    this.clearStall();
    const ms = this.options.stallMs ?? 10_000;
    this.stallTimer = setTimeout(() => {
      if (this.request) this.died(`no picture for ${(ms / 1000).toFixed(1)} s`);
    }, ms);
  }

  private clearStall(): void {
    if (this.stallTimer) clearTimeout(this.stallTimer);
    this.stallTimer = null;
  }
}

export type HttpStreamProbe =
  | { readonly kind: 'mjpeg'; readonly size: { readonly width: number; readonly height: number } | null }
  | { readonly kind: 'other'; readonly contentType: string }
  | { readonly kind: 'unreachable'; readonly error: string };

/**
 * What an http(s) URL serves: an MJPEG stream (with the size of its first picture, from the JPEG
 * header) or something else (for ffmpeg), or that it could not be reached in `timeoutMs`.
 */
export function probeHttpStream(url: string, timeoutMs = 10_000): Promise<HttpStreamProbe> {
  return new Promise((resolve) => {
    let request: ClientRequest | null = null;
    const done = (answer: HttpStreamProbe) => {
      clearTimeout(timer);
      request?.destroy();
      resolve(answer);
    };
    const timer = setTimeout(() => done({ kind: 'unreachable', error: 'no answer' }), timeoutMs);
    try {
      request = openStream(url, (res) => {
        const boundary = res.statusCode === 200 ? multipartBoundary(res.headers['content-type']) : null;
        if (!boundary) {
          res.resume();
          if (res.statusCode !== 200) return done({ kind: 'unreachable', error: `HTTP ${res.statusCode}` });
          return done({ kind: 'other', contentType: res.headers['content-type'] ?? '' });
        }
        const splitter = new MultipartSplitter(boundary, (part) =>
          done({ kind: 'mjpeg', size: jpegFrameSize(part) }),
        );
        res.on('data', (chunk: Buffer) => {
          try {
            splitter.push(chunk);
          } catch {
            done({ kind: 'mjpeg', size: null });
          }
        });
        res.on('end', () => done({ kind: 'mjpeg', size: null }));
        res.on('error', () => done({ kind: 'mjpeg', size: null }));
      });
      request.on('error', (err) => done({ kind: 'unreachable', error: err.message }));
    } catch (err) {
      done({ kind: 'unreachable', error: (err as Error).message });
    }
  });
}
