import type { CameraProfile } from '../../camera/profile.ts';

/**
 * A camera profile guessed from the picture size and a horizontal field of view, with no lens
 * distortion. Flagged `source: "estimate"`: measurements through it are only as good as the guess
 * (calibrate the camera with `vedette calibrate` for numbers you can defend).
 */
export function estimateCameraProfile(
  width: number,
  height: number,
  hfovDeg = 60,
  name = 'estimate',
): CameraProfile {
  const fx = width / 2 / Math.tan(((hfovDeg / 2) * Math.PI) / 180);
  return {
    name: `${name} (${width}×${height}, ${hfovDeg}° estimate)`,
    source: 'estimate',
    imageWidth: width,
    imageHeight: height,
    fx,
    fy: fx,
    cx: (width - 1) / 2,
    cy: (height - 1) / 2,
    distortion: [0, 0, 0, 0, 0],
    notes: `estimated from a ${hfovDeg}° horizontal field of view, no lens distortion: not a calibration`,
  };
}
