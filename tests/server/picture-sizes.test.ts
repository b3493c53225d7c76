import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { LiveFrame } from '../../src/server/live-loop.ts';
import { PictureScaler, pictureWidthFor, PICTURE_WIDTH_STEP } from '../../src/server/picture-sizes.ts';
import type { RunningServer } from '../../src/server/app.ts';
import { liveUrl, startTestServer, until } from './server-harness.ts';
import { FramePicture } from '../../src/vision/frame-picture.ts';

describe('picture widths', () => {
  it('round a page up to the step and give pages as wide as the camera its own picture', () => {
    expect(pictureWidthFor(null, 1920)).toBeNull();
    expect(pictureWidthFor(700, 1920)).toBe(768);
    expect(pictureWidthFor(768, 1920)).toBe(768);
    expect(pictureWidthFor(1900, 1920)).toBeNull();
    expect(pictureWidthFor(2560, 1920)).toBeNull();
    expect(pictureWidthFor(64, 1280)).toBe(PICTURE_WIDTH_STEP);
    expect(pictureWidthFor(0, 1920)).toBe(0); // a page that draws no picture
  });

  it('scales each frame to every width asked, and a newer frame replaces one still waiting', async () => {
    const jpeg = await sharp({ create: { width: 1920, height: 1080, channels: 3, background: '#3a5' } })
      .jpeg()
      .toBuffer();
    const frame = (n: number) =>
      ({ picture: FramePicture.ofJpeg(jpeg), snapshot: { n } }) as unknown as LiveFrame;
    const delivered: Array<{ order: number; widths: number[]; pictures: ReadonlyMap<number, Buffer> }> = [];
    const scaler = new PictureScaler(
      () => 80,
      (_frame, order, pictures) =>
        delivered.push({ order, widths: [...pictures.keys()].sort((a, b) => a - b), pictures }),
    );
    // Frame 1 starts at once; 2 waits; 3 replaces it; nobody asked for 4.
    scaler.push(frame(1), 1, new Set([640, 1024]));
    scaler.push(frame(2), 2, new Set([640]));
    scaler.push(frame(3), 3, new Set([640]));
    scaler.push(frame(4), 4, new Set());
    await until('two deliveries', () => delivered.length >= 2, 10_000, 10);
    await new Promise((r) => setTimeout(r, 200));
    expect(delivered.map((d) => [d.order, d.widths])).toEqual([
      [1, [640, 1024]],
      [3, [640]],
    ]);
    // What is delivered is a JPEG of that width, in the frame's proportions.
    const meta = await sharp(delivered[0]!.pictures.get(640)!).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 640, height: 360 });
    // A picture that is not a JPEG is skipped and counted, and the scaler goes on.
    const broken = {
      picture: FramePicture.ofJpeg(Buffer.from('not a jpeg')),
      snapshot: {},
    } as unknown as LiveFrame;
    scaler.push(broken, 5, new Set([640]));
    await until('the failure', () => scaler.failed === 1, 10_000, 10);
    scaler.push(frame(6), 6, new Set([640]));
    await until('the next frame', () => delivered.length === 3, 10_000, 10);
    expect(delivered[2]!.order).toBe(6);
  });
});

describe('the live socket sends each page pictures as wide as it draws them', () => {
  let server: RunningServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(async () => {
    await server?.close();
  });

  /** Binary widths and state frames, in the order received, from a page that sends `hello`. */
  async function watch(hello: object | null, frames: number) {
    const ws = new WebSocket(liveUrl(server));
    const got: Array<{ kind: 'picture'; width: number } | { kind: 'state'; frame: number }> = [];
    const errors: string[] = [];
    const pending: Array<Promise<void>> = [];
    ws.on('message', (data, isBinary) => {
      if (isBinary) {
        const slot = { kind: 'picture' as const, width: 0 };
        got.push(slot);
        pending.push(
          sharp(data as Buffer)
            .metadata()
            .then((m) => void (slot.width = m.width ?? -1)),
        );
        return;
      }
      const m = JSON.parse(String(data)) as { type: string; frame?: number; message?: string };
      if (m.type === 'state') got.push({ kind: 'state', frame: m.frame! });
      if (m.type === 'error') errors.push(m.message ?? '');
    });
    await new Promise((r) => ws.once('open', r));
    if (hello) ws.send(JSON.stringify(hello));
    await until(`${frames} pictures`, () => got.filter((g) => g.kind === 'picture').length >= frames, 90_000);
    ws.close();
    await Promise.all(pending);
    return { got, errors };
  }

  it('scaled for a page that said how wide, whole for one that did not, each picture followed by its state', async () => {
    const [small, whole] = await Promise.all([watch({ type: 'view', width: 700 }, 10), watch(null, 6)]);
    for (const { got, errors } of [small, whole]) {
      expect(errors).toEqual([]);
      // Pictures and states alternate, and frames only go forward.
      const pairs = got.slice(got.findIndex((g) => g.kind === 'picture'));
      const states = pairs.filter((g) => g.kind === 'state').map((g) => (g as { frame: number }).frame);
      for (let i = 0; i + 1 < pairs.length; i += 2) {
        expect(pairs[i]!.kind).toBe('picture');
        expect(pairs[i + 1]!.kind).toBe('state');
      }
      expect(states).toEqual([...states].sort((a, b) => a - b));
      expect(new Set(states).size).toBe(states.length);
    }
    const widths = (g: typeof small.got) =>
      g.filter((x) => x.kind === 'picture').map((x) => (x as { width: number }).width);
    // Pictures already on their way when the view message is read come whole (a loaded machine
    // may queue several); from the first scaled one on, every picture is scaled.
    const smallWidths = widths(small.got);
    const firstScaled = smallWidths.indexOf(768);
    expect(firstScaled, `widths ${smallWidths.join(', ')}`).toBeGreaterThanOrEqual(0);
    expect(smallWidths.slice(firstScaled).every((w) => w === 768)).toBe(true);
    expect(smallWidths.slice(0, firstScaled).every((w) => w === 1920)).toBe(true);
    expect(widths(whole.got).every((w) => w === 1920)).toBe(true);
  });

  it('sends a page that draws no picture (the streamer overlay) its states only', async () => {
    const ws = new WebSocket(liveUrl(server));
    let pictures = 0;
    const frames: number[] = [];
    ws.on('message', (data, isBinary) => {
      if (isBinary) return void pictures++;
      const m = JSON.parse(String(data)) as { type: string; frame?: number };
      if (m.type === 'state') frames.push(m.frame!);
    });
    await new Promise((r) => ws.once('open', r));
    ws.send(JSON.stringify({ type: 'view', width: 0 }));
    await until('a state after the view message', () => frames.length >= 3, 90_000);
    const before = pictures;
    const statesBefore = frames.length;
    await until('more states', () => frames.length >= statesBefore + 5, 90_000);
    ws.close();
    expect(pictures, 'no picture once the page said it draws none').toBe(before);
    expect(frames).toEqual([...frames].sort((a, b) => a - b));
  });

  it('refuses a width out of bounds, with a reason, and keeps the page', async () => {
    const { errors } = await watch({ type: 'view', width: 10 }, 2);
    expect(errors.join('\n')).toMatch(/bad message/);
  });
});
