import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sourceFromOptions } from '../../../src/cli/serve-command.ts';
import { findVideoDevices, formatSourcesReport } from '../../../src/cli/sources-command.ts';
import { LiveLoop } from '../../../src/server/live-loop.ts';
import { defaultSyntheticProfile } from '../../../src/synth/calibration.ts';
import { parseScenarioText } from '../../../src/table/scenario.ts';
import { estimateCameraProfile } from '../../../src/vision/sources/camera-estimate.ts';
import { createSource } from '../../../src/vision/sources/create-source.ts';
import { ffmpegArgs, FfmpegSource, redactUrl } from '../../../src/vision/sources/ffmpeg-source.ts';
import { imagesInFolder } from '../../../src/vision/sources/folder-source.ts';
import { isPermanent } from '../../../src/vision/sources/source-error.ts';
import { haveFfmpeg } from './programs.ts';

describe('ffmpeg command lines', () => {
  it('asks a webcam for its format, size and rate, and passes matching MJPEG through', () => {
    const args = ffmpegArgs({
      input: {
        kind: 'v4l2',
        device: '/dev/video2',
        size: { width: 1920, height: 1080 },
        fps: 30,
        inputFormat: 'mjpeg',
      },
      width: 1920,
      height: 1080,
      transport: 'mjpeg',
    });
    expect(args.join(' ')).toContain(
      '-f v4l2 -input_format mjpeg -video_size 1920x1080 -framerate 30 -i /dev/video2',
    );
    expect(args.join(' ')).toContain('-c:v copy -f mjpeg pipe:1');
    const scaled = ffmpegArgs({
      input: { kind: 'v4l2', device: '/dev/video0', inputFormat: 'yuyv422' },
      width: 1280,
      height: 720,
      transport: 'raw',
    });
    expect(scaled.join(' ')).toContain('-vf scale=1280:720 -pix_fmt rgb24 -f rawvideo pipe:1');
  });

  it('reads RTSP over TCP with little buffering, and video files at their speed on request', () => {
    const rtsp = ffmpegArgs({
      input: { kind: 'url', url: 'rtsp://cam/stream' },
      width: 640,
      height: 480,
      transport: 'mjpeg',
    }).join(' ');
    expect(rtsp).toContain('-rtsp_transport tcp -fflags nobuffer -flags low_delay -i rtsp://cam/stream');
    const file = ffmpegArgs({
      input: { kind: 'file', path: 'a.mp4', realtime: true, loop: true },
      width: 640,
      height: 480,
      transport: 'raw',
    }).join(' ');
    expect(file).toContain('-re -stream_loop -1 -i a.mp4');
    expect(redactUrl('rtsp://user:secret@cam:554/s')).toBe('rtsp://user:***@cam:554/s');
  });
});

describe('camera choices', () => {
  it('maps serve options to sources', () => {
    expect(sourceFromOptions({ port: '1', scenario: 's' })).toEqual({ kind: 'synthetic', moving: true });
    expect(
      sourceFromOptions({ port: '1', scenario: 's', webcam: true, size: '1280x720', inputFormat: 'mjpeg' }),
    ).toMatchObject({
      kind: 'ffmpeg',
      transport: 'mjpeg',
      input: {
        kind: 'v4l2',
        device: '/dev/video0',
        size: { width: 1280, height: 720 },
        inputFormat: 'mjpeg',
      },
      size: { width: 1280, height: 720 },
    });
    // A video named on the command line must exist (checked before anything starts).
    const video = join(mkdtempSync(join(tmpdir(), 'vedette-video-')), 'v.mkv');
    expect(() => sourceFromOptions({ port: '1', scenario: 's', video, realtime: true })).toThrow(/not found/);
    writeFileSync(video, '');
    expect(sourceFromOptions({ port: '1', scenario: 's', video, realtime: true })).toMatchObject({
      kind: 'ffmpeg',
      transport: 'raw',
      input: { kind: 'file', path: video, realtime: true, loop: false },
    });
    const camera = join(video, '..', 'c.json');
    writeFileSync(camera, '{}');
    expect(sourceFromOptions({ port: '1', scenario: 's', browserCamera: true, camera })).toEqual({
      kind: 'browser',
      cameraPath: camera,
    });
    expect(() => sourceFromOptions({ port: '1', scenario: 's', webcam: true, url: 'rtsp://x' })).toThrow(
      /choose one camera/,
    );
    expect(() => sourceFromOptions({ port: '1', scenario: 's', webcam: true, size: 'big' })).toThrow(
      /--size/,
    );
  });

  it('estimates a camera and says so', () => {
    const p = estimateCameraProfile(1280, 720, 90);
    expect(p.source).toBe('estimate');
    expect(p.fx).toBeCloseTo(640, 6);
    expect(p.notes).toMatch(/not a calibration/);
  });

  it('lists the images of a folder in natural order, and refuses an empty one', () => {
    const dir = mkdtempSync(join(tmpdir(), 'vedette-folder-'));
    try {
      for (const n of ['frame10.png', 'frame2.jpg', 'notes.txt', 'frame1.PNG'])
        writeFileSync(join(dir, n), '');
      expect(imagesInFolder(dir).map((p) => p.slice(dir.length + 1))).toEqual([
        'frame1.PNG',
        'frame2.jpg',
        'frame10.png',
      ]);
      rmSync(join(dir, 'frame1.PNG'));
      rmSync(join(dir, 'frame2.jpg'));
      rmSync(join(dir, 'frame10.png'));
      expect(() => imagesInFolder(dir)).toThrow(/no images/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('vedette sources explains every kind of camera', () => {
    const text = formatSourcesReport({ ffmpeg: null, devices: [] });
    for (const word of [
      'NOT INSTALLED',
      '--webcam',
      '--url rtsp://',
      '--video',
      '--folder',
      '--browser-camera',
      'synthetic',
    ])
      expect(text).toContain(word);
    const dev = mkdtempSync(join(tmpdir(), 'vedette-dev-'));
    try {
      for (const n of ['video10', 'video2', 'null']) writeFileSync(join(dev, n), '');
      expect(findVideoDevices(dev, false).map((d) => d.path.slice(dev.length + 1))).toEqual([
        'video2',
        'video10',
      ]);
    } finally {
      rmSync(dev, { recursive: true, force: true });
    }
  });
});

describe('ffmpeg source failures', () => {
  it('says clearly when ffmpeg is not installed, and does not retry', async () => {
    const source = new FfmpegSource({
      input: { kind: 'url', url: 'http://127.0.0.1:9/x' },
      width: 64,
      height: 64,
      transport: 'raw',
      ffmpegPath: '/nonexistent/ffmpeg',
    });
    const err = await source.next().catch((e: unknown) => e);
    expect(String(err)).toMatch(/ffmpeg is not installed/);
    expect(isPermanent(err)).toBe(true);
    await source.close();
  });

  it.skipIf(!haveFfmpeg())('stops a stream that sends no picture, and says why', async () => {
    // A camera that accepts the connection and then says nothing.
    const silent = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'multipart/x-mixed-replace; boundary=x' });
      res.write('--x\r\n');
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', () => r()));
    const port = (silent.address() as AddressInfo).port;
    const source = new FfmpegSource({
      input: { kind: 'url', url: `http://127.0.0.1:${port}/video` },
      width: 64,
      height: 64,
      transport: 'mjpeg',
      stallMs: 1500,
    });
    const started = Date.now();
    const err = await source.next().catch((e: unknown) => e);
    expect(String(err)).toMatch(/no picture for 1\.5 s/);
    expect(isPermanent(err)).toBe(false);
    expect(Date.now() - started).toBeLessThan(10_000);
    await source.close();
    silent.closeAllConnections();
    silent.close();
  });
});

describe('issue 15.4: sources that cannot work fail, naming why', () => {
  const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
  const dir = mkdtempSync(join(tmpdir(), 'vedette-failing-sources-'));
  const profile = join(dir, 'camera-1080p.json');
  writeFileSync(profile, JSON.stringify(defaultSyntheticProfile('1080p')));
  const missing = join(dir, 'no-such-video.mp4');

  it('a missing video file fails at once with its path, and is not retried', async () => {
    const source = new FfmpegSource({
      input: { kind: 'file', path: missing, realtime: false, loop: false },
      width: 1920,
      height: 1080,
      transport: 'raw',
    });
    const loop = new LiveLoop(scenario, source, {
      camera: defaultSyntheticProfile('1080p'),
      process: () => Promise.reject(new Error('no frame should get here')),
      dispose: async () => {},
    });
    loop.start();
    for (let i = 0; i < 50 && loop.sourceStatus().state !== 'failed'; i++)
      await new Promise((r) => setTimeout(r, 20));
    const status = loop.sourceStatus();
    expect(status.state).toBe('failed');
    expect(status.attempt).toBe(1);
    expect(status.error).toBe(`video file ${missing} does not exist`);
    expect(source.starts).toBe(0); // ffmpeg was never started for it
    await loop.close();
    // `vedette serve --video <missing>` is refused before anything starts, with the path.
    await expect(
      createSource(
        {
          kind: 'ffmpeg',
          input: { kind: 'file', path: missing, realtime: false, loop: false },
          transport: 'raw',
          cameraPath: profile,
        },
        scenario,
      ),
    ).rejects.toThrow(`video file ${missing} does not exist`);
  });

  it('`--images` of another size than the camera profile is refused, naming both sizes', async () => {
    const small = join(dir, 'small.png');
    await sharp({ create: { width: 640, height: 480, channels: 3, background: '#335533' } })
      .png()
      .toFile(small);
    const refusal = await createSource(
      { kind: 'images', paths: [small], cameraPath: profile },
      scenario,
    ).then(
      () => null,
      (err: unknown) => err,
    );
    expect(isPermanent(refusal)).toBe(true);
    expect(String((refusal as Error).message)).toMatch(
      /small\.png is 640×480 but the camera profile is for 1920×1080/,
    );
  });

  it('an unplugged webcam is said without starting ffmpeg, and retried', async () => {
    const source = new FfmpegSource({
      input: { kind: 'v4l2', device: '/dev/video-vedette-absent' },
      width: 640,
      height: 480,
      transport: 'mjpeg',
    });
    const refusal = await source.next().then(
      () => null,
      (err: unknown) => err,
    );
    expect(String((refusal as Error).message)).toBe(
      'webcam /dev/video-vedette-absent is not there (unplugged?)',
    );
    expect(isPermanent(refusal)).toBe(false);
    expect(source.starts).toBe(0);
    await source.close();
  });
});
