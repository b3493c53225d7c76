/**
 * Splits an HTTP multipart stream (multipart/x-mixed-replace, as IP cameras, mjpg-streamer and
 * phone camera apps serve MJPEG) into its parts, without decoding anything. A part with a
 * Content-Length is copied straight into a buffer of its own; one without is found by the next
 * boundary. Cameras differ in whether the boundary they declare carries the leading "--", so
 * the boundary text itself is searched for.
 */

const EMPTY = Buffer.alloc(0);
const HEADER_END = Buffer.from('\r\n\r\n');
/** Longest boundary line and part headers before the stream is taken for something else. */
const MAX_HEADER_BYTES = 16 * 1024;

export class MultipartError extends Error {
  override name = 'MultipartError';
}

/** The boundary of a multipart Content-Type, or null when it is not multipart or names none. */
export function multipartBoundary(contentType: string | undefined): string | null {
  if (!contentType || !/^\s*multipart\//i.test(contentType)) return null;
  const m = /;\s*boundary\s*=\s*(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  const b = m?.[1] ?? m?.[2];
  return b ? b.replace(/^--/, '') : null;
}

export class MultipartSplitter {
  private readonly boundary: Buffer;
  private state: 'head' | 'body' | 'scan' = 'head';
  /** Bytes of the boundary line and part headers read so far. */
  private head: Buffer = EMPTY;
  /** The part being filled (known length). */
  private body: Buffer = EMPTY;
  private fill = 0;
  /** The part being read up to the next boundary (no length given). */
  private loose: Buffer = EMPTY;

  constructor(
    boundary: string,
    private readonly onPart: (part: Buffer) => void,
    private readonly maxPartBytes = 32 * 1024 * 1024,
  ) {
    this.boundary = Buffer.from(boundary);
  }

  /** Feeds bytes from the stream; throws MultipartError when they cannot be a multipart stream. */
  push(chunk: Buffer): void {
    let rest = chunk;
    while (rest.length > 0) {
      if (this.state === 'body') {
        const n = Math.min(this.body.length - this.fill, rest.length);
        rest.copy(this.body, this.fill, 0, n);
        this.fill += n;
        rest = rest.subarray(n);
        if (this.fill === this.body.length) {
          const part = this.body;
          this.body = EMPTY;
          this.state = 'head';
          this.onPart(part);
        }
      } else if (this.state === 'scan') {
        this.loose = this.loose.length > 0 ? Buffer.concat([this.loose, rest]) : Buffer.from(rest);
        rest = EMPTY;
        const at = this.loose.indexOf(this.boundary);
        if (at < 0) {
          if (this.loose.length > this.maxPartBytes)
            throw new MultipartError(`a part of more than ${this.maxPartBytes} bytes`);
          continue;
        }
        let end = at;
        if (end >= 2 && this.loose[end - 1] === 0x2d && this.loose[end - 2] === 0x2d) end -= 2; // "--"
        if (end >= 1 && this.loose[end - 1] === 0x0a) end -= 1;
        if (end >= 1 && this.loose[end - 1] === 0x0d) end -= 1;
        const part = this.loose.subarray(0, end);
        rest = this.loose.subarray(at);
        this.loose = EMPTY;
        this.state = 'head';
        this.onPart(part);
      } else {
        this.head = this.head.length > 0 ? Buffer.concat([this.head, rest]) : rest;
        rest = EMPTY;
        const start = this.head.indexOf(this.boundary);
        const end = start < 0 ? -1 : this.head.indexOf(HEADER_END, start);
        if (end < 0) {
          if (this.head.length > MAX_HEADER_BYTES)
            throw new MultipartError(
              start < 0 ? 'no multipart boundary in the stream' : 'part headers never end',
            );
          this.head = Buffer.from(this.head); // a copy of its own, not a view keeping a whole chunk alive
          continue;
        }
        const headers = this.head.subarray(start + this.boundary.length, end).toString('latin1');
        rest = this.head.subarray(end + HEADER_END.length);
        this.head = EMPTY;
        const m = /\r?\ncontent-length\s*:\s*(\d+)/i.exec(headers);
        if (m) {
          const length = Number(m[1]);
          if (length > this.maxPartBytes) throw new MultipartError(`a part of ${length} bytes`);
          this.body = Buffer.allocUnsafe(length);
          this.fill = 0;
          this.state = 'body';
          if (length === 0) {
            this.state = 'head';
            this.onPart(this.body);
          }
        } else this.state = 'scan';
      }
    }
  }
}
