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

/**
 * toGrayMat for a stream of frames: the grey Mat (and, without WebAssembly SIMD or for RGBA, a
 * colour one) is allocated once (again only when the frame's size or channels change) and
 * refilled each frame, not a 2–6 MB allocation and free per frame. The grey
 * Mat returned belongs to the converter: it holds the frame until the next `convert` and must not
 * be deleted by the caller.
 */
export class GreyMatConverter {
  private colour: OpenCV | null = null;
  private grey: OpenCV | null = null;

  constructor(private readonly cv: OpenCV) {}

  convert(image: RasterImage): OpenCV {
    const cv = this.cv;
    const grey = this.matOf('grey', image.height, image.width, cv.CV_8UC1);
    if (image.channels === 1) {
      (grey.data as Uint8Array).set(image.data);
      return grey;
    }
    if (image.channels === 3 && SIMD_GREY) {
      // Straight from the RGB pixels into the grey Mat (grey-kernel.ts): no colour copy at all.
      rgbToGrey(image.data, grey.data as Uint8Array);
      return grey;
    }
    const colour = this.matOf(
      'colour',
      image.height,
      image.width,
      image.channels === 3 ? cv.CV_8UC3 : cv.CV_8UC4,
    );
    (colour.data as Uint8Array).set(image.data);
    cv.cvtColor(colour, grey, image.channels === 3 ? cv.COLOR_RGB2GRAY : cv.COLOR_RGBA2GRAY);
    return grey;
  }

  dispose(): void {
    this.colour?.delete();
    this.grey?.delete();
    this.colour = null;
    this.grey = null;
  }

  private matOf(which: 'colour' | 'grey', rows: number, cols: number, type: number): OpenCV {
    const held = this[which];
    if (held && held.rows === rows && held.cols === cols && held.type() === type) return held;
    held?.delete();
    const mat = new this.cv.Mat(rows, cols, type);
    this[which] = mat;
    return mat;
  }
}
