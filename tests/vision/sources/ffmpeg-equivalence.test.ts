import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { frameTable } from '../../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../../src/synth/live-table.ts';
import { distanceBetween, measuredUnits } from '../../../src/table/measured-units.ts';
import { parseScenarioText } from '../../../src/table/scenario.ts';
import type { Frame } from '../../../src/vision/frame-source.ts';
import type { RasterImage } from '../../../src/vision/image.ts';
import { VisionPipeline, type PipelineResult } from '../../../src/vision/pipeline.ts';
import { FfmpegSource } from '../../../src/vision/sources/ffmpeg-source.ts';
import { haveFfmpeg } from './programs.ts';

/**
 * The synthetic table's frames, made into a video by ffmpeg and read back through the real
 * ffmpeg source, give the same measurements as the frames themselves.
 *
 * - Lossless video (FFV1, planar RGB) read as raw rgb24: every pixel is identical, so every
 *   measurement must be identical (tolerance 1e-9 mm: floating-point noise only).
 * - The same video read as MJPEG (-q:v 2, decoded by sharp): JPEG changes pixels by a few grey
 *   levels, less than the renderer's own sensor noise, so corners move by hundredths of a pixel.
 *   Measured here: at most 0.04 mm per base and 0.002 in per distance. Tolerance 0.2 mm per base
 *   position and 0.01 in per distance: five times what was measured, and still a hundredth of an
 *   inch, the precision the page shows and well inside the pipeline's own stated uncertainty.
 */

const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
const FRAME_TIMES_MS = [0, 5000, 10000];
const enabled = haveFfmpeg();

interface Measured {
  readonly result: PipelineResult;
  readonly distances: Map<string, number>;
}

function measure(pipeline: VisionPipeline, image: RasterImage, sequence: number): Measured {
  const result = pipeline.process({ image, capturedAt: sequence * 1000, sequence });
  const units = measuredUnits(scenario, result.bases);
  const distances = new Map<string, number>();
  for (let i = 0; i < units.length; i++) {
    for (let j = i + 1; j < units.length; j++) {
      const d = distanceBetween(units, units[i]!.unit.id, units[j]!.unit.id);
      if (d) distances.set(`${d.a}/${d.b}`, d.distanceIn);
    }
  }
  return { result, distances };
}

describe.skipIf(!enabled)('ffmpeg source against the synthetic source', () => {
  let dir = '';
  let truthFrames: RasterImage[] = [];
  const direct: Measured[] = [];
  let camera: LiveSyntheticTable['profile'];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'vedette-ffmpeg-'));
    const table = await LiveSyntheticTable.create(
      scenario,
      frameTable(scenario.table, { resolution: '1080p' }),
    );
    camera = table.profile;
    truthFrames = FRAME_TIMES_MS.map((t) => ({ ...table.frame(t).image, channels: 3 as const }));
    for (const [i, image] of truthFrames.entries()) {
      await sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
        .png({ compressionLevel: 1 })
        .toFile(join(dir, `frame-${String(i).padStart(3, '0')}.png`));
    }
    const made = spawnSync(
      'ffmpeg',
      [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-framerate',
        '5',
        '-i',
        join(dir, 'frame-%03d.png'),
        '-c:v',
        'ffv1',
        '-pix_fmt',
        'gbrp',
        join(dir, 'table.mkv'),
      ],
      { encoding: 'utf8' },
    );
    if (made.status !== 0) throw new Error(`ffmpeg could not make the video: ${made.stderr}`);
    const pipeline = await VisionPipeline.create(camera, scenario);
    truthFrames.forEach((image, i) =>
      direct.push(measure(pipeline, { ...image, data: image.data.slice() }, i)),
    );
    pipeline.dispose();
  });

  afterAll(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function readAll(transport: 'raw' | 'mjpeg'): Promise<Frame[]> {
    const source = new FfmpegSource({
      input: { kind: 'file', path: join(dir, 'table.mkv'), realtime: false, loop: false },
      width: camera.imageWidth,
      height: camera.imageHeight,
      transport,
    });
    const frames: Frame[] = [];
    try {
      for (;;) frames.push(await source.next());
    } catch (err) {
      // The end of the video is a permanent, clearly worded failure.
      expect((err as Error).message).toMatch(/the video ended/);
    } finally {
      await source.close();
    }
    expect(source.live).toBe(false);
    expect(source.dropped).toBe(0);
    return frames;
  }

  it('reads a lossless video as raw rgb24: same pixels, same measurements', async () => {
    const frames = await readAll('raw');
    expect(frames).toHaveLength(truthFrames.length);
    const pipeline = await VisionPipeline.create(camera, scenario);
    let comparedBases = 0;
    let comparedDistances = 0;
    for (const [i, frame] of frames.entries()) {
      expect(Buffer.compare(Buffer.from(frame.image.data), Buffer.from(truthFrames[i]!.data))).toBe(0);
      const viaFfmpeg = measure(pipeline, frame.image, i);
      const ref = direct[i]!;
      expect(viaFfmpeg.result.located.table).not.toBeNull();
      expect(viaFfmpeg.result.bases.length).toBe(ref.result.bases.length);
      for (const base of ref.result.bases) {
        const other = viaFfmpeg.result.bases.find((b) => b.markerId === base.markerId)!;
        expect(Math.hypot(other.x - base.x, other.y - base.y)).toBeLessThan(1e-9);
        comparedBases++;
      }
      for (const [pair, d] of ref.distances) {
        expect(Math.abs(viaFfmpeg.distances.get(pair)! - d)).toBeLessThan(1e-9);
        comparedDistances++;
      }
    }
    pipeline.dispose();
    console.log(
      `ffmpeg raw: ${frames.length} frames, ${comparedBases} base poses and ${comparedDistances} distances identical to the synthetic source`,
    );
  });

  it('reads the same video as MJPEG within the stated tolerance', async () => {
    const frames = await readAll('mjpeg');
    expect(frames).toHaveLength(truthFrames.length);
    expect(frames.every((f) => f.jpeg && f.jpeg[0] === 0xff && f.jpeg[1] === 0xd8)).toBe(true);
    const pipeline = await VisionPipeline.create(camera, scenario);
    let worstMm = 0;
    let worstIn = 0;
    for (const [i, frame] of frames.entries()) {
      const viaFfmpeg = measure(pipeline, frame.image, i);
      const ref = direct[i]!;
      expect(viaFfmpeg.result.located.table).not.toBeNull();
      for (const base of ref.result.bases) {
        const other = viaFfmpeg.result.bases.find((b) => b.markerId === base.markerId);
        expect(other, `marker ${base.markerId} found through MJPEG`).toBeDefined();
        worstMm = Math.max(worstMm, Math.hypot(other!.x - base.x, other!.y - base.y));
      }
      for (const [pair, d] of ref.distances)
        worstIn = Math.max(worstIn, Math.abs(viaFfmpeg.distances.get(pair)! - d));
    }
    pipeline.dispose();
    console.log(
      `ffmpeg mjpeg: worst base shift ${worstMm.toFixed(3)} mm, worst distance change ${worstIn.toFixed(4)} in`,
    );
    expect(worstMm).toBeLessThan(0.2);
    expect(worstIn).toBeLessThan(0.01);
  });
});
