import { execFile } from 'node:child_process';
import type { CameraProfile } from '../../camera/profile.ts';
import { loadCameraProfile } from '../../camera/profile.ts';
import type { Scenario } from '../../table/scenario.ts';
import type { FrameSource } from '../frame-source.ts';
import { BrowserCameraSource } from './browser-camera.ts';
import { estimateCameraProfile } from './camera-estimate.ts';
import { FfmpegSource, inputProblem, redactUrl, type FfmpegInput } from './ffmpeg-source.ts';
import { HttpMjpegSource, probeHttpStream } from './http-mjpeg-source.ts';
import { imagesInFolder } from './folder-source.ts';
import { checkImageFiles, ImageFilesSource } from './image-files.ts';
import { SourceError } from './source-error.ts';
import { SyntheticSource } from './synthetic-source.ts';

export interface Size {
  readonly width: number;
  readonly height: number;
}

/**
 * The camera model of a real camera: a calibrated profile (`cameraPath`, whose size the frames
 * are scaled to), or else an estimate from the picture size and `hfovDeg` (flagged as an estimate).
 */
export interface CameraChoice {
  readonly cameraPath?: string;
  readonly size?: Size;
  readonly hfovDeg?: number;
}

/** Which camera to watch the table with. */
export type SourceSpec =
  | { readonly kind: 'synthetic'; readonly moving: boolean; readonly resolution?: '720p' | '1080p' | '4k' }
  | { readonly kind: 'images'; readonly paths: readonly string[]; readonly cameraPath: string }
  | { readonly kind: 'folder'; readonly dir: string; readonly cameraPath: string }
  | ({
      readonly kind: 'ffmpeg';
      readonly input: FfmpegInput;
      readonly transport: 'raw' | 'mjpeg';
    } & CameraChoice)
  | ({ readonly kind: 'browser' } & CameraChoice);

export interface LiveSource {
  readonly source: FrameSource;
  readonly camera: CameraProfile;
}

/** Width and height of a video file or stream, asked of ffprobe (comes with ffmpeg). */
export function probeVideoSize(target: string, timeoutMs = 15_000): Promise<Size> {
  return new Promise((resolve, reject) => {
    execFile(
      'ffprobe',
      [
        '-v',
        'error',
        '-select_streams',
        'v:0',
        '-show_entries',
        'stream=width,height',
        '-of',
        'csv=p=0:s=x',
        target,
      ],
      { timeout: timeoutMs },
      (err, stdout) => {
        const m = /^(\d+)x(\d+)/.exec(stdout.trim());
        if (m) return resolve({ width: Number(m[1]), height: Number(m[2]) });
        const missing = (err as NodeJS.ErrnoException | null)?.code === 'ENOENT';
        reject(
          new SourceError(
            missing
              ? 'ffprobe is not installed (Debian: apt-get install ffmpeg)'
              : `cannot tell the picture size of ${target}: give --size WxH or a --camera profile`,
            true,
          ),
        );
      },
    );
  });
}

async function cameraFor(
  choice: CameraChoice,
  probe: () => Promise<Size>,
  name: string,
): Promise<CameraProfile> {
  if (choice.cameraPath) return loadCameraProfile(choice.cameraPath);
  const size = choice.size ?? (await probe());
  return estimateCameraProfile(size.width, size.height, choice.hfovDeg ?? 60, name);
}

/**
 * The camera at an http(s) URL read by HttpMjpegSource when it serves multipart MJPEG, else null
 * (another kind of stream, or not reachable now: ffmpeg reads it, and retries, as before).
 */
async function httpMjpegSource(choice: CameraChoice, url: string): Promise<LiveSource | null> {
  const probe = await probeHttpStream(url);
  if (probe.kind !== 'mjpeg') return null;
  const firstPicture = async (): Promise<Size> => {
    if (probe.size) return probe.size;
    throw new SourceError(
      `cannot tell the picture size of ${redactUrl(url)}: give --size WxH or a --camera profile`,
      true,
    );
  };
  const camera = await cameraFor(choice, firstPicture, 'MJPEG camera');
  const source = new HttpMjpegSource({ url, width: camera.imageWidth, height: camera.imageHeight });
  return { source, camera };
}

export async function createSource(spec: SourceSpec, scenario: Scenario): Promise<LiveSource> {
  switch (spec.kind) {
    case 'synthetic': {
      const source = await SyntheticSource.create(scenario, {
        moving: spec.moving,
        ...(spec.resolution ? { resolution: spec.resolution } : {}),
      });
      return { source, camera: source.camera };
    }
    case 'images': {
      // Every picture's header is read first: too large, unreadable or not the profile's size is
      // refused now, with the file's name, rather than failing frame after frame.
      const camera = loadCameraProfile(spec.cameraPath);
      await checkImageFiles(spec.paths, { width: camera.imageWidth, height: camera.imageHeight });
      return { source: new ImageFilesSource(spec.paths), camera };
    }
    case 'folder': {
      const camera = loadCameraProfile(spec.cameraPath);
      const paths = imagesInFolder(spec.dir);
      await checkImageFiles(paths, { width: camera.imageWidth, height: camera.imageHeight });
      return { source: new ImageFilesSource(paths, `folder ${spec.dir}`), camera };
    }
    case 'ffmpeg': {
      const input = spec.input;
      // A video file that is not there fails now, with its path, instead of being retried.
      const missing = input.kind === 'file' ? inputProblem(input) : null;
      if (missing) throw missing;
      const probe = async (): Promise<Size> => {
        if (input.kind === 'v4l2') {
          if (input.size) return input.size;
          throw new SourceError('give the webcam a --size WxH or a --camera profile', true);
        }
        return probeVideoSize(input.kind === 'url' ? input.url : input.path);
      };
      // An HTTP MJPEG camera is read directly (no ffmpeg decoding and re-encoding every frame).
      if (input.kind === 'url' && /^https?:/i.test(input.url) && spec.transport === 'mjpeg') {
        const direct = await httpMjpegSource(spec, input.url);
        if (direct) return direct;
      }
      const camera = await cameraFor(spec, probe, 'ffmpeg camera');
      const source = new FfmpegSource({
        input,
        transport: spec.transport,
        width: camera.imageWidth,
        height: camera.imageHeight,
      });
      return { source, camera };
    }
    case 'browser': {
      const camera = await cameraFor(spec, async () => ({ width: 1280, height: 720 }), 'browser camera');
      return { source: new BrowserCameraSource(camera.imageWidth, camera.imageHeight), camera };
    }
  }
}
