import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * A camera profile: pinhole intrinsics plus OpenCV's Brown–Conrady distortion
 * (k1, k2, p1, p2, k3), for images of exactly `imageWidth` × `imageHeight` pixels.
 * Pixel centres are at integer coordinates, as in OpenCV.
 */
export const cameraProfileSchema = z.strictObject({
  name: z.string().min(1),
  source: z.enum(['synthetic', 'calibration', 'estimate']),
  imageWidth: z.number().int().positive(),
  imageHeight: z.number().int().positive(),
  fx: z.number().positive(),
  fy: z.number().positive(),
  cx: z.number(),
  cy: z.number(),
  distortion: z.tuple([z.number(), z.number(), z.number(), z.number(), z.number()]),
  /** RMS reprojection error of the calibration that produced this profile, in pixels. */
  rmsPx: z.number().nonnegative().optional(),
  createdAt: z.string().optional(),
  notes: z.string().optional(),
});

export type CameraProfile = z.infer<typeof cameraProfileSchema>;

export function parseCameraProfile(value: unknown, source = 'camera profile'): CameraProfile {
  const result = cameraProfileSchema.safeParse(value);
  if (!result.success) {
    const lines = result.error.issues
      .map((i) => `  ${i.path.join('.') || '(root)'}: ${i.message}`)
      .join('\n');
    throw new Error(`${source} is not a valid camera profile:\n${lines}`);
  }
  return result.data;
}

export function loadCameraProfile(path: string): CameraProfile {
  let value: unknown;
  try {
    value = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new Error(`cannot read camera profile ${path}: ${(err as Error).message}`, { cause: err });
  }
  return parseCameraProfile(value, path);
}
