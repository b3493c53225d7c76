import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { RunningServer, ServerStatus } from '../../src/server/app.ts';
import type { MeasurementView } from '../../src/server/protocol.ts';
import { distanceBetween, measuredUnits } from '../../src/table/measured-units.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';
import { DEMO, liveUrl, startTestServer, syntheticJpeg, until } from './server-harness.ts';

/**
 * A browser's camera, as web/src/live/camera-sender.ts sends it: a `camera` message, then JPEG frames
 * as binary WebSocket messages. The server decodes them (sharp), watches the table through them,
 * and other browsers see the picture and measure on it; the sender is not sent its picture back.
 */

const scenario = parseScenarioText(readFileSync(DEMO, 'utf8'));
let server: RunningServer;
let jpeg: Buffer;
let directIn = 0;

beforeAll(async () => {
  const { table, image, jpeg: picture } = await syntheticJpeg(scenario, 85);
  jpeg = picture;
  // The distance the pipeline measures on the uncompressed frame, to compare with.
  const pipeline = await VisionPipeline.create(table.profile, scenario);
  const result = pipeline.process({ image: { ...image, channels: 3 }, capturedAt: 0, sequence: 0 });
  directIn = distanceBetween(measuredUnits(scenario, result.bases), 'lees', 'camerons')!.distanceIn;
  pipeline.dispose();
  server = await startTestServer({
    record: false,
    loop: { minIntervalMs: 200 },
  });
});

afterAll(async () => {
  await server?.close();
});

type Message = { type: string; [k: string]: unknown };

function open(): Promise<{ ws: WebSocket; messages: Message[]; pictures: () => number }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(liveUrl(server));
    const messages: Message[] = [];
    let pictures = 0;
    ws.on('message', (data, isBinary) => {
      if (isBinary) pictures++;
      else messages.push(JSON.parse(data.toString()) as Message);
    });
    ws.once('open', () => resolve({ ws, messages, pictures: () => pictures }));
    ws.once('error', reject);
  });
}

const status = async () => (await (await fetch(`${server.url}/api/status`)).json()) as ServerStatus;

describe('the browser camera', () => {
  it('is watched through, measured on, and reported when it goes away', async () => {
    const camera = await open();
    camera.ws.send(JSON.stringify({ type: 'camera', width: 1920, height: 1080, profile: 'synthetic-1080p' }));
    await until('the go-ahead', () =>
      camera.messages.some((m) => m.type === 'hello' && m['cameraAccepted'] === true),
    );
    expect((await status()).source.name).toBe('browser camera');
    expect((await status()).source.state).toBe('connecting');

    // Frames, a little faster than the pipeline takes them (latest wins).
    const sender = setInterval(() => camera.ws.send(jpeg, { binary: true }), 100);
    const viewer = await open();
    viewer.ws.send(JSON.stringify({ type: 'measure', a: 'lees', b: 'camerons' }));
    let measured: MeasurementView | null = null;
    await until('a valid measurement through the browser camera', () => {
      const state = viewer.messages.filter((m) => m.type === 'state').at(-1);
      measured = (state?.['measurement'] as MeasurementView | null) ?? null;
      return measured?.valid === true;
    });
    const s = await status();
    expect(s.source.state).toBe('live');
    expect(s.camera).toMatchObject({ name: 'synthetic-1080p', kind: 'synthetic', width: 1920, height: 1080 });
    expect(viewer.pictures()).toBeGreaterThan(0);
    expect(camera.pictures()).toBe(0);
    expect(Math.abs(measured!.distanceIn - directIn)).toBeLessThan(0.01);

    // A frame of the wrong kind is refused with a reason.
    camera.ws.send(Buffer.from('not a jpeg'), { binary: true });
    await until('the refusal', () =>
      camera.messages.some((m) => m.type === 'error' && /JPEG/.test(String(m['message']))),
    );
    // A phone turned on its side sends another size: the sender is told.
    const small = await sharp({ create: { width: 96, height: 64, channels: 3, background: '#808080' } })
      .jpeg()
      .toBuffer();
    await new Promise((r) => setTimeout(r, 1100));
    camera.ws.send(small, { binary: true });
    await until('the size refusal', () =>
      camera.messages.some((m) => m.type === 'error' && /announced as 1920×1080/.test(String(m['message']))),
    );

    // The phone walks away: the camera state says so; a new sender brings it back.
    clearInterval(sender);
    camera.ws.close();
    await until('the loss to be reported', async () => (await status()).source.state === 'retrying');
    expect((await status()).source.error).toMatch(/disconnected/);
    const again = await open();
    again.ws.send(JSON.stringify({ type: 'camera', width: 1920, height: 1080, profile: 'synthetic-1080p' }));
    const sender2 = setInterval(() => again.ws.send(jpeg, { binary: true }), 150);
    await until('frames again', async () => (await status()).source.state === 'live');
    clearInterval(sender2);
    const after = await status();
    console.log(
      `browser camera: ${after.frames.framesIn} frames in, ${after.frames.framesProcessed} processed, ${after.frames.framesDropped} dropped; ` +
        `latency mean ${after.frames.latencyMs.mean?.toFixed(0)} ms; distance ${measured!.distanceIn.toFixed(3)} in (uncompressed ${directIn.toFixed(3)} in)`,
    );
    again.ws.close();
    viewer.ws.close();
  });

  it('estimates a camera without a profile, flagged as an estimate', async () => {
    const camera = await open();
    camera.ws.send(JSON.stringify({ type: 'camera', width: 640, height: 480 }));
    await until('the estimated camera', async () => (await status()).camera.kind === 'estimate');
    expect((await status()).camera).toMatchObject({ width: 640, height: 480 });
    // A profile must fit the picture it is used for.
    const other = await open();
    other.ws.send(JSON.stringify({ type: 'camera', width: 1280, height: 720, profile: 'synthetic-1080p' }));
    await until('the size mismatch', () =>
      other.messages.some((m) => m.type === 'error' && /is for 1920×1080/.test(String(m['message']))),
    );
    // And changes are limited (refusals do not count): a second request at once is refused.
    other.ws.send(JSON.stringify({ type: 'camera', width: 640, height: 480 }));
    other.ws.send(JSON.stringify({ type: 'camera', width: 640, height: 480 }));
    await until('the limit', () =>
      other.messages.some((m) => m.type === 'error' && /limited to one every 2 s/.test(String(m['message']))),
    );
    other.ws.close();
    camera.ws.close();
  });
});
