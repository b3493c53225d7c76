import sharp, { type Sharp } from 'sharp';
import type { RasterImage } from './image.ts';

/** A picture asked for after its frame was replaced, when no JPEG of it had been made. */
export class PictureGoneError extends Error {
  constructor() {
    super('the frame was replaced before its picture was asked for');
    this.name = 'PictureGoneError';
  }
}

/** A JPEG made for someone, with its size. */
export interface SizedJpeg {
  readonly data: Buffer;
  readonly width: number;
  readonly height: number;
}

/** What a reader of a frame's picture can ask for (the recorder's snapshots, the pages' pictures). */
export interface PictureSource {
  /** A JPEG `width` px wide (no wider than the picture), at `quality`. */
  scaledJpeg(width: number, quality: number): Promise<SizedJpeg>;
}

/**
 * The picture of one processed frame: the camera's own JPEG when it sent one, and its pixels while
 * the live loop holds the frame. JPEGs are made only when someone asks, and from the pixels when
 * they are still held: a synthetic or raw camera frame was encoded at full size on every frame
 * even when every page asked for a smaller picture, which was then decoded again to be scaled
 * (on a 2-core machine the two together took about as much CPU as detection; see
 * docs/architecture.md, "Pictures for the pages").
 *
 * The pixels belong to the source (they are recycled into a later frame): the loop `retire`s a
 * picture once a newer frame replaces it, and they go back when no scaling still reads them. A
 * full-size JPEG asked for before that is kept; after it, a picture without the camera's JPEG can
 * make no new JPEG (readers ask while the frame is the newest: in its `frame` event, or through
 * the loop's `latest`).
 */
export class FramePicture implements PictureSource {
  private pixels: RasterImage | null;
  private full: Promise<Buffer> | null;
  /** Encodes reading the pixels now. */
  private readers = 0;
  private retired = false;

  private constructor(
    pixels: RasterImage | null,
    cameraJpeg: Buffer | null,
    private readonly quality: number,
    private readonly release: (pixels: RasterImage) => void,
  ) {
    this.pixels = pixels;
    this.full = cameraJpeg ? Promise.resolve(cameraJpeg) : null;
  }

  /** A picture that is a JPEG only (a still file, a test's frame). */
  static ofJpeg(jpeg: Buffer): FramePicture {
    return new FramePicture(null, jpeg, 0, () => {});
  }

  /**
   * A frame's picture: its pixels (given back through `release` once retired and unread) and the
   * camera's own JPEG when it came as one. `quality`: of the full-size JPEG made from the pixels.
   */
  static ofFrame(
    pixels: RasterImage,
    cameraJpeg: Buffer | null,
    quality: number,
    release: (pixels: RasterImage) => void,
  ): FramePicture {
    return new FramePicture(pixels, cameraJpeg, quality, release);
  }

  /** The picture as a JPEG at the camera's size: the camera's own, or made once on first ask. */
  jpeg(): Promise<Buffer> {
    if (this.full) return this.full;
    const pixels = this.pixels;
    if (!pixels) return Promise.reject(new PictureGoneError());
    this.full = this.reading(pixels, () => rawInput(pixels).jpeg({ quality: this.quality }).toBuffer());
    return this.full;
  }

  /**
   * A JPEG `width` px wide (never enlarged): from the pixels while they are held (no JPEG decoded),
   * else from the full-size JPEG.
   */
  async scaledJpeg(width: number, quality: number): Promise<SizedJpeg> {
    const pixels = this.pixels;
    const resized = async (input: Sharp): Promise<SizedJpeg> => {
      const { data, info } = await input
        .resize({ width, withoutEnlargement: true })
        .jpeg({ quality })
        .toBuffer({ resolveWithObject: true });
      return { data, width: info.width, height: info.height };
    };
    if (pixels) return this.reading(pixels, () => resized(rawInput(pixels)));
    return resized(sharp(await this.jpeg()));
  }

  /** A newer frame replaces this one: the pixels go back once nothing reads them. */
  retire(): void {
    this.retired = true;
    this.giveBack();
  }

  private async reading<T>(pixels: RasterImage, encode: () => Promise<T>): Promise<T> {
    this.readers++;
    try {
      return await encode();
    } finally {
      this.readers--;
      // The picture outlives this encode only as its result: give the pixels back if retired.
      if (this.pixels === pixels) this.giveBack();
    }
  }

  private giveBack(): void {
    const pixels = this.pixels;
    if (!this.retired || this.readers > 0 || !pixels) return;
    this.pixels = null;
    this.release(pixels);
  }
}

/** sharp reading raw pixels in place (libvips reads them while encoding: they must stay unchanged). */
function rawInput(pixels: RasterImage): Sharp {
  const { width, height, channels, data } = pixels;
  return sharp(data, { raw: { width, height, channels } });
}
