/** A decoded image in memory: row-major, interleaved channels (1 = grey, 3 = RGB, 4 = RGBA). */
export interface RasterImage {
  readonly width: number;
  readonly height: number;
  readonly channels: 1 | 3 | 4;
  readonly data: Uint8Array;
}

export function assertRaster(image: RasterImage): void {
  const expected = image.width * image.height * image.channels;
  if (image.data.length !== expected) {
    throw new Error(
      `image data has ${image.data.length} bytes, expected ${expected} for ${image.width}×${image.height}×${image.channels}`,
    );
  }
}

/**
 * One grey channel, row-major: the camera's 8-bit pixels, or the float average of several
 * frames of a still region (temporal evidence).
 */
export interface GreyImage {
  readonly data: Uint8Array | Float32Array;
  readonly width: number;
  readonly height: number;
}
