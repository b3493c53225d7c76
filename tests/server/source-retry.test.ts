import { createServer, type Server } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer, ServerStatus } from '../../src/server/app.ts';
import type { HelloMessage } from '../../src/server/protocol.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { FfmpegSource } from '../../src/vision/sources/ffmpeg-source.ts';
import { HttpMjpegSource } from '../../src/vision/sources/http-mjpeg-source.ts';
import { haveFfmpeg } from '../vision/sources/programs.ts';
import { DEMO, liveUrl, startTestServer, syntheticJpeg, until } from './server-harness.ts';

/**
 * A network camera (an HTTP MJPEG stream, as phone camera apps and IP cameras serve) read through
 * the real ffmpeg source by the real server (raw transport: an MJPEG transport is read without
 * ffmpeg, by HttpMjpegSource, tested below). The camera is killed mid-stream twice — ffmpeg
 * killed, then the camera itself gone for a few seconds — and the pipeline reports it, retries
 * with back-off, and resumes when the camera returns; the server answers throughout.
 */

const enabled = haveFfmpeg();

/** An IP camera: multipart/x-mixed-replace JPEG frames at `fps`. */
function startCamera(jpeg: Buffer, port: number, fps = 5): Promise<Server> {
  const server = createServer((req, res) => {
    res.writeHead(200, {
      'content-type': 'multipart/x-mixed-replace; boundary=vedetteframe',
      connection: 'close',
    });
    const timer = setInterval(() => {
      res.write(`--vedetteframe\r\nContent-Type: image/jpeg\r\nContent-Length: ${jpeg.length}\r\n\r\n`);
      res.write(jpeg);
      res.write('\r\n');
    }, 1000 / fps);
    req.on('close', () => clearInterval(timer));
  });
  return new Promise((resolve) => server.listen(port, '127.0.0.1', () => resolve(server)));
}

function stopCamera(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}

describe.skipIf(!enabled)('a camera that disappears', () => {
  let dir = '';
  let jpeg: Buffer;
  let camera: Server | undefined;
  let port = 0;
  let server: RunningServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vedette-retry-'));
    const scenario = parseScenarioText(readFileSync(DEMO, 'utf8'));
    const { table, jpeg: picture } = await syntheticJpeg(scenario, 92);
    jpeg = picture;
    writeFileSync(join(dir, 'camera.json'), JSON.stringify(table.profile));
    camera = await startCamera(jpeg, 0);
    port = (camera.address() as AddressInfo).port;
    server = await startTestServer({
      source: {
        kind: 'ffmpeg',
        input: { kind: 'url', url: `http://127.0.0.1:${port}/video` },
        transport: 'raw',
        cameraPath: join(dir, 'camera.json'),
      },
      loop: { retryBaseMs: 250, maxRetryMs: 1000 },
    });
  });

  afterAll(async () => {
    await server?.close();
    if (camera) await stopCamera(camera);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function status(): Promise<ServerStatus> {
    const started = Date.now();
    const res = await fetch(`${server.url}/api/status`, { signal: AbortSignal.timeout(2000) });
    expect(res.status).toBe(200);
    slowest = Math.max(slowest, Date.now() - started);
    return (await res.json()) as ServerStatus;
  }
  let slowest = 0;

  it('reports the failure, retries with back-off, resumes, and keeps answering', async () => {
    const ws = new WebSocket(liveUrl(server));
    const hellos: HelloMessage[] = [];
    ws.on('message', (data, isBinary) => {
      if (isBinary) return;
      const msg = JSON.parse(data.toString()) as { type: string };
      if (msg.type === 'hello') hellos.push(msg as HelloMessage);
    });

    await until('the first frames from the stream', async () => (await status()).frames.framesProcessed >= 3);
    expect((await status()).source.state).toBe('live');

    // 1. ffmpeg is killed mid-stream.
    const source = server.loop.currentSource as FfmpegSource;
    expect(source).toBeInstanceOf(FfmpegSource);
    const pid = source.pid!;
    expect(pid).toBeGreaterThan(0);
    const before = (await status()).frames.framesProcessed;
    process.kill(pid, 'SIGKILL');
    let seen = await status();
    await until('the kill to be reported', async () => {
      seen = await status();
      return seen.source.state === 'retrying' || seen.frames.framesProcessed > before + 5;
    });
    expect(
      hellos.some((h) => h.sourceStatus?.state === 'retrying' && /SIGKILL/.test(h.sourceStatus.error ?? '')),
    ).toBe(true);
    await until(
      'frames again after the kill',
      async () => (await status()).frames.framesProcessed > before + 2,
    );
    expect(source.pid).not.toBe(pid);

    // 2. The camera itself goes away for a while: ffmpeg cannot connect, attempt after attempt.
    await stopCamera(camera!);
    camera = undefined;
    await until('retries to pile up', async () => {
      const s = await status();
      return s.source.state === 'retrying' && s.source.attempt >= 3;
    });
    const down = await status();
    expect(down.source.retryInMs).not.toBeNull();
    expect(down.source.text).toMatch(/^retrying \(attempt \d+, next in \d+ s\)/);
    const health = await fetch(`${server.url}/api/health`);
    expect(health.status).toBe(200);
    const lastHello = hellos.at(-1)!;
    expect(lastHello.source).toMatch(/retrying/);
    const processedWhileDown = down.frames.framesProcessed;

    // 3. The camera returns on the same address: the stream resumes.
    camera = await startCamera(jpeg, port);
    await until('the stream to resume', async () => {
      const s = await status();
      return s.source.state === 'live' && s.frames.framesProcessed > processedWhileDown + 2;
    });
    const after = await status();
    ws.close();
    console.log(
      `camera kill test: ${source.starts} ffmpeg starts, ${after.frames.framesProcessed} frames processed, ` +
        `${after.frames.framesDropped} dropped (latest wins), latency mean ${after.frames.latencyMs.mean?.toFixed(0)} ms, ` +
        `p95 ${after.frames.latencyMs.p95?.toFixed(0)} ms; slowest /api/status answer ${slowest} ms`,
    );
    expect(slowest).toBeLessThan(2000);
  });
});

describe('an MJPEG camera read directly that disappears', () => {
  let dir = '';
  let jpeg: Buffer;
  let camera: Server | undefined;
  let server: RunningServer;

  afterAll(async () => {
    await server?.close();
    if (camera) await stopCamera(camera);
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('is read without ffmpeg, retried while gone, and live again when it returns', async () => {
    dir = mkdtempSync(join(tmpdir(), 'vedette-retry-direct-'));
    const scenario = parseScenarioText(readFileSync(DEMO, 'utf8'));
    const { table, jpeg: picture } = await syntheticJpeg(scenario, 92);
    jpeg = picture;
    writeFileSync(join(dir, 'camera.json'), JSON.stringify(table.profile));
    camera = await startCamera(jpeg, 0, 10);
    const port = (camera.address() as AddressInfo).port;
    server = await startTestServer({
      source: {
        kind: 'ffmpeg',
        input: { kind: 'url', url: `http://127.0.0.1:${port}/video` },
        transport: 'mjpeg',
        cameraPath: join(dir, 'camera.json'),
      },
      loop: { retryBaseMs: 250, maxRetryMs: 1000 },
    });
    const status = async () =>
      (await (
        await fetch(`${server.url}/api/status`, { signal: AbortSignal.timeout(2000) })
      ).json()) as ServerStatus;
    await until('the first frames from the stream', async () => (await status()).frames.framesProcessed >= 3);
    expect(server.loop.currentSource).toBeInstanceOf(HttpMjpegSource);
    expect((await status()).source.state).toBe('live');

    await stopCamera(camera);
    camera = undefined;
    await until('retries to pile up', async () => {
      const s = await status();
      return s.source.state === 'retrying' && s.source.attempt >= 2;
    });
    const down = await status();
    expect(down.source.error).toMatch(
      /MJPEG stream http:\/\/127\.0\.0\.1:\d+\/video: (cannot read the stream|the camera ended the stream)/,
    );

    camera = await startCamera(jpeg, port, 10);
    await until('the stream to resume', async () => {
      const s = await status();
      return s.source.state === 'live' && s.frames.framesProcessed > down.frames.framesProcessed + 2;
    });
    const after = await status();
    console.log(
      `direct MJPEG camera: ${after.frames.framesProcessed} processed, ${after.frames.framesDropped} skipped undecoded, ` +
        `latency mean ${after.frames.latencyMs.mean?.toFixed(0)} ms`,
    );
  });
});
