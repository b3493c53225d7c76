import sharp from 'sharp';
import type { RasterImage } from '../image.ts';
import type { Frame, FrameSource } from '../frame-source.ts';

/** Reads an image file (PNG, JPEG, …) as RGB. */
export async function readImageFile(path: string): Promise<RasterImage> {
  try {
    const { data, info } = await sharp(path)
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true });
    return {
      width: info.width,
      height: info.height,
      channels: 3,
      data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    };
  } catch (err) {
    throw new Error(`cannot read image ${path}: ${(err as Error).message}`, { cause: err });
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
    return { image: await readImageFile(path), capturedAt: Date.now(), sequence: this.sequence++ };
  }

  async close(): Promise<void> {}
}
