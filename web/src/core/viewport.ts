import type { Pixel } from '../../../src/camera/projection.ts';

/**
 * Where the camera picture sits on the page: the image is scaled to fit ("contain") inside the
 * canvas's CSS box and centred. Image coordinates follow OpenCV: pixel centres at integers, so
 * image pixel (0, 0) covers [-0.5, 0.5]² and the picture spans [-0.5, width - 0.5].
 */
export interface Viewport {
  /** Canvas size in CSS pixels. */
  readonly cssWidth: number;
  readonly cssHeight: number;
  /** Size of the image coordinate space (the camera profile's image size). */
  readonly imageWidth: number;
  readonly imageHeight: number;
  /** CSS pixels per image pixel. */
  readonly scale: number;
  /** CSS position of the picture's top-left corner (image coordinate (-0.5, -0.5)). */
  readonly offsetX: number;
  readonly offsetY: number;
}

export interface CssPoint {
  readonly x: number;
  readonly y: number;
}

export function fitContain(
  cssWidth: number,
  cssHeight: number,
  imageWidth: number,
  imageHeight: number,
): Viewport {
  const scale =
    imageWidth > 0 && imageHeight > 0 ? Math.min(cssWidth / imageWidth, cssHeight / imageHeight) : 1;
  return {
    cssWidth,
    cssHeight,
    imageWidth,
    imageHeight,
    scale,
    offsetX: (cssWidth - imageWidth * scale) / 2,
    offsetY: (cssHeight - imageHeight * scale) / 2,
  };
}

export function imageToCss(vp: Viewport, p: Pixel): CssPoint {
  return { x: vp.offsetX + (p.u + 0.5) * vp.scale, y: vp.offsetY + (p.v + 0.5) * vp.scale };
}

export function cssToImage(vp: Viewport, p: CssPoint): Pixel {
  return { u: (p.x - vp.offsetX) / vp.scale - 0.5, v: (p.y - vp.offsetY) / vp.scale - 0.5 };
}

/** The picture's rectangle in CSS pixels. */
export function pictureRect(vp: Viewport): { x: number; y: number; width: number; height: number } {
  return { x: vp.offsetX, y: vp.offsetY, width: vp.imageWidth * vp.scale, height: vp.imageHeight * vp.scale };
}
