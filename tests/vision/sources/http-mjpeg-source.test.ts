import { createServer, type Server, type ServerResponse } from 'node:http';
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterEach, describe, expect, it } from 'vitest';
import { parseScenarioText } from '../../../src/table/scenario.ts';
import { createSource } from '../../../src/vision/sources/create-source.ts';
import { FfmpegSource } from '../../../src/vision/sources/ffmpeg-source.ts';
import { HttpMjpegSource } from '../../../src/vision/sources/http-mjpeg-source.ts';
import { multipartBoundary, MultipartSplitter } from '../../../src/vision/sources/multipart-jpeg.ts';
import { isPermanent } from '../../../src/vision/sources/source-error.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A small JPEG whose grey level says which frame it is. */
function jpegOf(level: number, width = 64, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 3, background: { r: level, g: level, b: level } } })
    .jpeg({ quality: 95 })
    .toBuffer();
}

/** One multipart part as cameras write it, with or without Content-Length. */
function part(boundary: string, jpeg: Buffer, withLength: boolean): Buffer {
  const head =
    `--${boundary}\r\nContent-Type: image/jpeg\r\n` +
    (withLength ? `Content-Length: ${jpeg.length}\r\n` : '') +
    '\r\n';
  return Buffer.concat([Buffer.from(head), jpeg, Buffer.from('\r\n')]);
}

const servers: Server[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) {
    s.closeAllConnections();
    s.close();
  }
});

async function serve(handler: (res: ServerResponse) => void): Promise<string> {
  const server = createServer((_req, res) => handler(res));
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/video`;
}

/** A camera that sends its first picture at once and each next one when the test says. */
async function steppedCamera(first: Buffer): Promise<{ url: string; camera: () => ServerResponse }> {
  let response: ServerResponse | null = null;
  const url = await serve((res) => {
    res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=cam' });
    response = res;
    res.write(part('cam', first, true));
  });
  return {
    url,
    camera: () => {
      if (!response) throw new Error('the source has not connected yet');
      return response;
    },
  };
}

describe('multipart splitting', () => {
  it('reads the boundary of a Content-Type, with or without quotes and a leading "--"', () => {
    expect(multipartBoundary('multipart/x-mixed-replace; boundary=frame')).toBe('frame');
    expect(multipartBoundary('multipart/x-mixed-replace;boundary="--myboundary"')).toBe('myboundary');
    expect(multipartBoundary('image/jpeg')).toBeNull();
    expect(multipartBoundary('multipart/x-mixed-replace')).toBeNull();
  });

  it('gives back every part as sent, however the stream is cut into chunks', async () => {
    const jpegs = await Promise.all([10, 90, 170, 250].map((l) => jpegOf(l)));
    const stream = Buffer.concat(jpegs.map((j, i) => part('b0undary', j, i % 2 === 0)));
    for (const cut of [1, 7, 1000, stream.length]) {
      const got: Buffer[] = [];
      const splitter = new MultipartSplitter('b0undary', (p) => got.push(Buffer.from(p)));
      for (let at = 0; at < stream.length; at += cut) splitter.push(stream.subarray(at, at + cut));
      // The last part without a length ends only at the next boundary: end the stream with one.
      splitter.push(Buffer.from('--b0undary\r\n'));
      expect(got.map((g) => g.toString('hex'))).toEqual(jpegs.map((j) => j.toString('hex')));
    }
  });

  it('refuses a stream with no boundary', () => {
    const splitter = new MultipartSplitter('x', () => undefined);
    expect(() => splitter.push(Buffer.alloc(20_000, 0x41))).toThrow(/no multipart boundary/);
  });
});

describe('HttpMjpegSource (an MJPEG camera without ffmpeg)', () => {
  it('decodes only the newest picture, when asked, and counts the ones it skipped', async () => {
    const jpegs = await Promise.all(Array.from({ length: 12 }, (_, i) => jpegOf(20 * i)));
    let sent = 0;
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=cam' });
      const timer = setInterval(() => {
        if (sent >= jpegs.length) return clearInterval(timer);
        res.write(part('cam', jpegs[sent++]!, true));
      }, 10);
      res.on('close', () => clearInterval(timer));
    });
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    const first = await source.next();
    expect(first.image).toMatchObject({ width: 64, height: 48, channels: 3 });
    while (sent < jpegs.length) await sleep(20);
    await sleep(50);
    // The part before the newest is kept to catch up with (once a second), then the newest.
    const behind = await source.next();
    expect(Buffer.from(behind.jpeg!).equals(jpegs[jpegs.length - 2]!)).toBe(true);
    const last = await source.next();
    // The newest part, decoded: the same pixels sharp gives for the JPEG the camera sent last.
    expect(Buffer.from(last.jpeg!).equals(jpegs[jpegs.length - 1]!)).toBe(true);
    const expected = await sharp(jpegs[jpegs.length - 1]!)
      .raw()
      .toBuffer();
    expect(Buffer.from(last.image.data).equals(expected)).toBe(true);
    expect(source.dropped).toBeGreaterThan(5);
    expect(source.dropped).toBeLessThanOrEqual(jpegs.length - 3);
    expect(last.sequence).toBe(2); // three frames decoded in all
    expect(source.connects).toBe(1);
    await source.close();
  });

  it('decodes ahead for a pipeline about to be free, and gives that picture unless two newer ones came since', async () => {
    const jpegs = await Promise.all([30, 120, 210].map((l) => jpegOf(l)));
    const { url, camera } = await steppedCamera(jpegs[0]!);
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    const first = await source.next();
    expect(first.sequence).toBe(0);
    camera().write(part('cam', jpegs[1]!, true));
    await sleep(60);
    // Free "now": decoded at once, before anybody asks.
    source.prepare(Date.now());
    await sleep(150);
    const asked = Date.now();
    const second = await source.next();
    expect(second.sequence).toBe(1);
    expect(second.capturedAt).toBeLessThan(asked - 100);
    expect(Buffer.from(second.jpeg!).equals(jpegs[1]!)).toBe(true);
    expect(source.dropped).toBe(0);
    // Prepared again, then two pictures come after it: the prepared one, too old to catch up with
    // (over 100 ms and 2.5 camera frames), is dropped; the two newer are given in turn.
    camera().write(part('cam', jpegs[0]!, true));
    await sleep(60);
    source.prepare(Date.now());
    await sleep(150);
    camera().write(part('cam', jpegs[2]!, true));
    await sleep(40);
    camera().write(part('cam', jpegs[1]!, true));
    await sleep(20);
    const third = await source.next();
    expect(Buffer.from(third.jpeg!).equals(jpegs[2]!)).toBe(true);
    const expected = await sharp(jpegs[2]!).raw().toBuffer();
    expect(Buffer.from(third.image.data).equals(expected)).toBe(true);
    // The prepared picture, decoded before anybody asked, was sequence 2.
    expect(third.sequence).toBe(3);
    expect(source.dropped).toBe(1);
    const fourth = await source.next();
    expect(Buffer.from(fourth.jpeg!).equals(jpegs[1]!)).toBe(true);
    expect(source.dropped).toBe(1);
    await source.close();
  });

  it('catches up with the picture before the newest after one slow turn, at most once a second', async () => {
    const jpegs = await Promise.all([10, 60, 110, 160, 210].map((l) => jpegOf(l)));
    const { url, camera } = await steppedCamera(jpegs[0]!);
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    await source.next();
    // A turn two camera frames long: both pictures that came meanwhile are given, in order.
    camera().write(part('cam', jpegs[1]!, true));
    await sleep(20);
    camera().write(part('cam', jpegs[2]!, true));
    await sleep(10);
    const caughtUp = [await source.next(), await source.next()];
    expect(
      caughtUp.map((f) =>
        Buffer.from(f.jpeg!).equals(jpegs[1]!) ? 1 : Buffer.from(f.jpeg!).equals(jpegs[2]!) ? 2 : -1,
      ),
    ).toEqual([1, 2]);
    expect(source.dropped).toBe(0);
    // Another slow turn within the second: the newest only, the one before it dropped.
    camera().write(part('cam', jpegs[3]!, true));
    await sleep(20);
    camera().write(part('cam', jpegs[4]!, true));
    await sleep(10);
    const newest = await source.next();
    expect(Buffer.from(newest.jpeg!).equals(jpegs[4]!)).toBe(true);
    expect(source.dropped).toBe(1);
    await source.close();
  });

  it('hands out pixels that can be transferred to a worker, and fills recycled ones again', async () => {
    const jpegs = await Promise.all([40, 200].map((l) => jpegOf(l)));
    let sent = 0;
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=cam' });
      const timer = setInterval(() => res.write(part('cam', jpegs[sent++ % 2]!, true)), 20);
      res.on('close', () => clearInterval(timer));
    });
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    const first = await source.next();
    const buffer = first.image.data.buffer;
    source.recycle(first.image.data);
    const second = await source.next();
    expect(second.image.data.buffer).toBe(buffer); // the same memory, filled again
    const expected = await sharp(Buffer.from(second.jpeg!)).raw().toBuffer();
    expect(Buffer.from(second.image.data).equals(expected)).toBe(true);
    // Transferable: posting it detaches it here (a buffer made by sharp would be copied instead).
    const { port1, port2 } = new MessageChannel();
    port1.postMessage(null, [second.image.data.buffer as ArrayBuffer]);
    expect(second.image.data.byteLength).toBe(0);
    port1.close();
    port2.close();
    // A detached or foreign buffer is not taken back.
    source.recycle(second.image.data);
    source.recycle(new Uint8Array(new ArrayBuffer(64 * 48 * 3 + 8), 8));
    const third = await source.next();
    expect(third.image.data.byteLength).toBe(64 * 48 * 3);
    await source.close();
  });

  it('says why when the camera answers an HTTP error, and connects again on the next call', async () => {
    const url = await serve((res) => {
      res.writeHead(404, 'Not Found');
      res.end();
    });
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    const err = await source.next().catch((e: unknown) => e);
    expect(String(err)).toMatch(/HTTP 404 Not Found/);
    expect(isPermanent(err)).toBe(false);
    await source.next().catch(() => undefined);
    expect(source.connects).toBe(2);
    await source.close();
  });

  it('says when nobody listens', async () => {
    const url = await serve(() => undefined);
    servers[0]!.close();
    await sleep(50);
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    const err = await source.next().catch((e: unknown) => e);
    expect(String(err)).toMatch(/cannot read the stream: .*ECONNREFUSED/);
    await source.close();
  });

  it('refuses for good a URL that is not an MJPEG stream, naming what it is', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html></html>');
    });
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    const err = await source.next().catch((e: unknown) => e);
    expect(String(err)).toMatch(/not an MJPEG stream \(Content-Type text\/html\)/);
    expect(isPermanent(err)).toBe(true);
    await source.close();
  });

  it('stops a stream that sends no picture, and says why', async () => {
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=x' });
      res.write('--x\r\n');
    });
    const source = new HttpMjpegSource({ url, width: 64, height: 48, stallMs: 300 });
    const started = Date.now();
    const err = await source.next().catch((e: unknown) => e);
    expect(String(err)).toMatch(/no picture for 0\.3 s/);
    expect(isPermanent(err)).toBe(false);
    expect(Date.now() - started).toBeLessThan(5000);
    await source.close();
  });

  it('refuses frames of another size than the profile, naming both, before decoding them', async () => {
    const jpeg = await jpegOf(100, 80, 60);
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=x' });
      res.write(part('x', jpeg, true));
    });
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    const err = await source.next().catch((e: unknown) => e);
    expect(String(err)).toMatch(/sends 80×60 frames but the camera profile is for 64×48/);
    expect(isPermanent(err)).toBe(true);
    await source.close();
  });

  it('drops a camera whose frames never decode, saying so', async () => {
    const bad = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0]), Buffer.alloc(200, 7)]);
    const url = await serve((res) => {
      res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=x' });
      const timer = setInterval(() => res.write(part('x', bad, true)), 5);
      res.on('close', () => clearInterval(timer));
    });
    const source = new HttpMjpegSource({ url, width: 64, height: 48 });
    const err = await source.next().catch((e: unknown) => e);
    expect(String(err)).toMatch(/10 frames in a row could not be decoded/);
    expect(isPermanent(err)).toBe(false);
    await source.close();
  });
});

describe('choosing the reader of an http URL', () => {
  const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));

  it('reads a multipart MJPEG camera directly, sized by its first picture; anything else through ffmpeg', async () => {
    const jpeg = await jpegOf(128, 96, 64);
    const mjpeg = await serve((res) => {
      res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=x' });
      res.write(part('x', jpeg, true));
    });
    const direct = await createSource(
      { kind: 'ffmpeg', input: { kind: 'url', url: mjpeg }, transport: 'mjpeg' },
      scenario,
    );
    expect(direct.source).toBeInstanceOf(HttpMjpegSource);
    expect([direct.camera.imageWidth, direct.camera.imageHeight]).toEqual([96, 64]);
    const frame = await direct.source.next();
    expect(frame.image.width).toBe(96);
    await direct.source.close();

    const other = await serve((res) => {
      res.writeHead(200, { 'content-type': 'video/mp4' });
      res.end();
    });
    const viaFfmpeg = await createSource(
      {
        kind: 'ffmpeg',
        input: { kind: 'url', url: other },
        transport: 'mjpeg',
        size: { width: 96, height: 64 },
      },
      scenario,
    );
    expect(viaFfmpeg.source).toBeInstanceOf(FfmpegSource);
    await viaFfmpeg.source.close();
  });
});
