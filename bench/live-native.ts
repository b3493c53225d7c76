/**
 * Detection cost beside native OpenCV 4.6 (Debian's python3-opencv, bench/native-aruco.py) on the
 * same frames, for the live benchmark: the pictures the server sent the client (the very frames
 * it processed, as JPEG), and a whole-frame search by Vedette's pipeline in this process on the
 * camera's frames. Run while no server is running, so neither detector shares the cores.
 */
import { decodeImage } from '../src/synth/encode.ts';
import { toGrey } from '../src/synth/render.ts';
import type { CameraProfile } from '../src/camera/profile.ts';
import type { Scenario } from '../src/table/scenario.ts';
import { VisionPipeline, type PipelineResult } from '../src/vision/pipeline.ts';
import type { PictureSample } from './live-client.ts';
import type { NativeAruco } from './recall-native.ts';

export interface TimedFrame {
  readonly vedetteMs: number;
  readonly nativeMs: number;
}

/** Native OpenCV's time on each picture, beside the detection time the server reported for it. */
export async function nativeOnPictures(
  native: NativeAruco,
  pictures: readonly PictureSample[],
): Promise<TimedFrame[]> {
  const out: TimedFrame[] = [];
  for (const p of pictures) {
    const image = await decodeImage(p.jpeg);
    const n = await native.detect(toGrey(image), image.width, image.height);
    out.push({ vedetteMs: p.detectionMs, nativeMs: n.ms });
  }
  return out;
}

/**
 * Whole-frame searches by one pipeline fed the camera's JPEG frames 2 s of capture time apart
 * (longer than its full-frame interval, so every frame is searched whole), the first (cold: no
 * table pose yet) left out, each beside native OpenCV on the same pixels.
 *
 * The frames first go once through a pipeline that is thrown away: this process has not run
 * Vedette's detection before, and a server that has run for a minute has compiled its code (on a
 * fresh process the second to fourth whole-frame searches took 29–62 ms against 16–20 ms once
 * compiled). Native OpenCV is compiled code from the start.
 */
export async function wholeFrameTimes(
  native: NativeAruco | null,
  jpegs: readonly Buffer[],
  camera: CameraProfile,
  scenario: Scenario,
): Promise<{ frames: TimedFrame[]; modes: string[] }> {
  const images = await Promise.all(jpegs.map((j) => decodeImage(j)));
  await searchEachWhole(camera, scenario, images, () => Promise.resolve());
  const frames: TimedFrame[] = [];
  const modes: string[] = [];
  await searchEachWhole(camera, scenario, images, async (i, image, result) => {
    if (i === 0) return;
    modes.push(result.search.mode);
    const n = native ? await native.detect(toGrey(image), image.width, image.height) : null;
    frames.push({ vedetteMs: result.detectionMs, nativeMs: n?.ms ?? Number.NaN });
  });
  return { frames, modes };
}

/** Each image searched whole by one fresh pipeline, in order. */
async function searchEachWhole(
  camera: CameraProfile,
  scenario: Scenario,
  images: readonly Awaited<ReturnType<typeof decodeImage>>[],
  each: (i: number, image: Awaited<ReturnType<typeof decodeImage>>, result: PipelineResult) => Promise<void>,
): Promise<void> {
  const pipeline = await VisionPipeline.create(camera, scenario);
  try {
    for (let i = 0; i < images.length; i++) {
      const image = images[i]!;
      const result = pipeline.process({
        image: { ...image, channels: 3 },
        capturedAt: 10_000 + i * 2000,
        sequence: i,
      });
      await each(i, image, result);
    }
  } finally {
    pipeline.dispose();
  }
}
