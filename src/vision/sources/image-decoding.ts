import sharp from 'sharp';
import type { RasterImage } from '../image.ts';

/**
 * Decoding pictures from outside without being made to allocate what they claim. A PNG of a few
 * hundred kilobytes can say it is 15,000 × 15,000 pixels, and decoding it asks for gigabytes; so
 * the size in the file's header is read first (no pixel is decoded for that) and a picture over
 * the limit is refused with its size, and sharp's own `limitInputPixels` stands behind that check.
 */

/**
 * Largest picture read from a file: 64 Mi pixels (about 67 Mpx), room for an 8K frame
 * (7680 × 4320, 33 Mpx) or a 50 Mpx camera photo; as RGB in memory that is at most 200 MB.
 */
export const MAX_IMAGE_PIXELS = 64 * 1024 * 1024;

export class ImageTooLargeError extends Error {
  override name = 'ImageTooLargeError';
  constructor(
    readonly what: string,
    readonly width: number,
    readonly height: number,
    readonly maxPixels: number,
  ) {
    super(
      `${what} is ${width} × ${height} pixels (${((width * height) / 1e6).toFixed(0)} Mpx): Vedette reads pictures of ` +
        `at most ${(maxPixels / 1e6).toFixed(0)} Mpx — scale it down first`,
    );
  }
}

/** Width and height from the picture's header (nothing is decoded); throws when there is none. */
export async function imageSize(input: string | Buffer): Promise<{ width: number; height: number }> {
  const meta = await sharp(input, { limitInputPixels: false }).metadata();
  if (!meta.width || !meta.height) throw new Error('the picture does not say how large it is');
  return { width: meta.width, height: meta.height };
}

/** Refuses (ImageTooLargeError) a picture over `maxPixels`, reading only its header. */
export async function checkImageSize(
  input: string | Buffer,
  what: string,
  maxPixels = MAX_IMAGE_PIXELS,
): Promise<{ width: number; height: number }> {
  const size = await imageSize(input);
  if (size.width * size.height > maxPixels)
    throw new ImageTooLargeError(what, size.width, size.height, maxPixels);
  return size;
}

/** Decodes a picture to RGB after checking its size (see above). */
export async function decodeRgb(
  input: string | Buffer,
  what: string,
  maxPixels = MAX_IMAGE_PIXELS,
): Promise<RasterImage> {
  await checkImageSize(input, what, maxPixels);
  const { data, info } = await sharp(input, { limitInputPixels: maxPixels })
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
}

/**
 * Decodes a camera's JPEG frame to RGB. A colour JPEG comes out of libjpeg as sRGB already, and
 * asking sharp for `removeAlpha().toColourspace('srgb')` on it added a pass over the picture that
 * changed no byte (1080p: ~21 → ~15 ms of CPU a frame, a fifth of a still table's server CPU at
 * 30 fps). sharp gives grey and CMYK JPEGs as sRGB on its own; a picture that still comes out
 * with other than three channels is converted as before.
 */
export async function decodeCameraJpeg(
  jpeg: Buffer,
  maxPixels: number,
): Promise<{ data: Uint8Array; width: number; height: number }> {
  let { data, info } = await sharp(jpeg, { limitInputPixels: maxPixels })
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3)
    ({ data, info } = await sharp(jpeg, { limitInputPixels: maxPixels })
      .removeAlpha()
      .toColourspace('srgb')
      .raw()
      .toBuffer({ resolveWithObject: true }));
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, data.length),
    width: info.width,
    height: info.height,
  };
}

/**
 * Width and height from a JPEG's frame header (SOFn), read synchronously without decoding, or null
 * when the bytes are not a JPEG with one. (sharp's `metadata()` says the same, but asynchronously;
 * a camera frame of the wrong size is refused as it arrives, before it can take a decoder's turn.)
 */
export function jpegFrameSize(jpeg: Uint8Array): { width: number; height: number } | null {
  if (jpeg.length < 4 || jpeg[0] !== 0xff || jpeg[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= jpeg.length) {
    if (jpeg[at] !== 0xff) return null;
    const marker = jpeg[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0xd8 || marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end of image, or scan data before any frame header
    const length = (jpeg[at + 2]! << 8) | jpeg[at + 3]!;
    const isFrameHeader =
      marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (isFrameHeader) {
      if (at + 9 > jpeg.length) return null;
      const height = (jpeg[at + 5]! << 8) | jpeg[at + 6]!;
      const width = (jpeg[at + 7]! << 8) | jpeg[at + 8]!;
      return width > 0 && height > 0 ? { width, height } : null;
    }
    if (length < 2) return null;
    at += 2 + length;
  }
  return null;
}
