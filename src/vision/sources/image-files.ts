import type { RasterImage } from '../image.ts';
import type { Frame, FrameSource } from '../frame-source.ts';
import { checkImageSize, decodeRgb, ImageTooLargeError } from './image-decoding.ts';
import { SourceError } from './source-error.ts';

/** Reads an image file (PNG, JPEG, …) as RGB; a picture over MAX_IMAGE_PIXELS is refused with its size. */
export async function readImageFile(path: string): Promise<RasterImage> {
  try {
    return await decodeRgb(path, path);
  } catch (err) {
    if (err instanceof ImageTooLargeError) throw err;
    throw new Error(`cannot read image ${path}: ${(err as Error).message}`, { cause: err });
  }
}

/**
 * Checks, from their headers only, that every picture can be read and is the camera's size; throws
 * a permanent SourceError naming the first that is not (and both sizes), before anything starts.
 */
export async function checkImageFiles(
  paths: readonly string[],
  size: { readonly width: number; readonly height: number },
): Promise<void> {
  for (const path of paths) {
    let found: { width: number; height: number };
    try {
      found = await checkImageSize(path, path);
    } catch (err) {
      const why =
        err instanceof ImageTooLargeError
          ? err.message
          : `cannot read image ${path}: ${(err as Error).message}`;
      throw new SourceError(why, true);
    }
    if (found.width !== size.width || found.height !== size.height)
      throw new SourceError(
        `${path} is ${found.width}×${found.height} but the camera profile is for ${size.width}×${size.height}: ` +
          'give a --camera profile of the pictures\u2019 size',
        true,
      );
  }
}

/** Plays a list of still images as a camera, looping, one per `next()`. */
export class ImageFilesSource implements FrameSource {
  private index = 0;
  private sequence = 0;
  readonly name: string;

  constructor(
    private readonly paths: readonly string[],
    name?: string,
  ) {
    if (paths.length === 0) throw new Error('an image source needs at least one image');
    this.name = name ?? `images (${paths.length})`;
  }

  async next(): Promise<Frame> {
    const path = this.paths[this.index % this.paths.length]!;
    this.index++;
    let image: RasterImage;
    try {
      image = await readImageFile(path);
    } catch (err) {
      // A picture that cannot be read now will not read later either.
      throw new SourceError((err as Error).message, true);
    }
    return { image, capturedAt: Date.now(), sequence: this.sequence++ };
  }

  async close(): Promise<void> {}
}
