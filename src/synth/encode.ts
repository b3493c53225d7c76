import sharp from 'sharp';
import type { RgbImage } from './render.ts';

/** Image files ↔ raw RGB, through sharp (libvips). */

export async function encodePng(
  image: RgbImage,
  options: { compressionLevel?: number } = {},
): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .png({ compressionLevel: options.compressionLevel ?? 6 })
    .toBuffer();
}

export async function encodeJpeg(image: RgbImage, options: { quality?: number } = {}): Promise<Buffer> {
  return sharp(image.data, { raw: { width: image.width, height: image.height, channels: 3 } })
    .jpeg({ quality: options.quality ?? 85 })
    .toBuffer();
}

/**
 * The picture after a JPEG encoder and decoder (libjpeg-turbo through sharp, 4:2:0 chroma, as
 * most webcams' MJPEG): what a camera that compresses its stream delivers.
 */
export async function jpegRoundTrip(image: RgbImage, quality: number): Promise<RgbImage> {
  if (!Number.isInteger(quality) || quality < 1 || quality > 100)
    throw new Error(`JPEG quality must be an integer 1–100, got ${quality}`);
  const decoded = await decodeImage(await encodeJpeg(image, { quality }));
  if (decoded.width !== image.width || decoded.height !== image.height)
    throw new Error('JPEG round trip changed the picture size');
  return decoded;
}

/** Decodes a PNG/JPEG (file path or bytes) to 8-bit RGB, dropping any alpha. */
export async function decodeImage(input: string | Buffer | Uint8Array): Promise<RgbImage> {
  const { data, info } = await sharp(input)
    .removeAlpha()
    .toColourspace('srgb')
    .raw()
    .toBuffer({ resolveWithObject: true });
  if (info.channels !== 3) throw new Error(`expected 3 channels after decoding, got ${info.channels}`);
  return {
    width: info.width,
    height: info.height,
    data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
  };
}

/** Writes PNG or JPEG by the file's extension. */
export async function writeImage(
  path: string,
  image: RgbImage,
  options: { quality?: number } = {},
): Promise<void> {
  const buf = /\.jpe?g$/i.test(path) ? await encodeJpeg(image, options) : await encodePng(image);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path, buf);
}
