import type { RasterImage } from './image.ts';
import { rgbToGrey, SIMD_GREY } from './grey-kernel.ts';
import type { OpenCV } from './opencv.ts';

/**
 * An 8-bit single-channel Mat of an image (grey, RGB or RGBA), as OpenCV's marker and board
 * detectors want it. The caller owns the returned Mat and must delete() it; a grey image is
 * copied, not shared, so deleting it never frees the caller's pixels.
 */
export function toGrayMat(cv: OpenCV, image: RasterImage): OpenCV {
  if (image.channels === 3 && SIMD_GREY) {
    // Straight from the RGB pixels into the grey Mat, as cvtColor would (grey-kernel.ts): no RGB copy.
    const gray = new cv.Mat(image.height, image.width, cv.CV_8UC1);
    rgbToGrey(image.data, gray.data as Uint8Array);
    return gray;
  }
  const type = image.channels === 1 ? cv.CV_8UC1 : image.channels === 3 ? cv.CV_8UC3 : cv.CV_8UC4;
  const src = new cv.Mat(image.height, image.width, type);
  src.data.set(image.data);
  if (image.channels === 1) return src;
  const gray = new cv.Mat();
  cv.cvtColor(src, gray, image.channels === 3 ? cv.COLOR_RGB2GRAY : cv.COLOR_RGBA2GRAY);
  src.delete();
  return gray;
}
