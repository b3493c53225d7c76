import { mkdir, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { CameraProfile } from '../camera/profile.ts';
import { frameTable, syntheticCameraProfile, type ResolutionName, type SynthCamera } from './camera.ts';

/** The table the default synthetic camera frames: 6 × 4 ft, as in the demo scenario. */
export const DEFAULT_SYNTH_TABLE = { widthMm: 1828.8, depthMm: 1219.2 } as const;

/** The camera `npm start` uses when no real camera is configured. */
export function defaultSyntheticCamera(
  resolution: ResolutionName = '1080p',
  table: { readonly widthMm: number; readonly depthMm: number } = DEFAULT_SYNTH_TABLE,
): SynthCamera {
  return frameTable(table, { resolution, name: `synthetic-${resolution}` });
}

export function defaultSyntheticProfile(resolution: ResolutionName = '1080p'): CameraProfile {
  const cam = defaultSyntheticCamera(resolution);
  return {
    ...syntheticCameraProfile(cam),
    rmsPx: 0,
    notes:
      `Exact intrinsics of the default synthetic camera (src/synth, frameTable over a ` +
      `${DEFAULT_SYNTH_TABLE.widthMm} × ${DEFAULT_SYNTH_TABLE.depthMm} mm table, 1200 mm high, tilted 10°). ` +
      `Regenerate with: npx tsx src/synth/cli.ts calibration`,
  };
}

/** Writes the default synthetic camera's profile as JSON (calibration/synthetic-1080p.json). */
export async function writeSyntheticCalibration(
  path = 'calibration/synthetic-1080p.json',
  resolution: ResolutionName = '1080p',
): Promise<CameraProfile> {
  const profile = defaultSyntheticProfile(resolution);
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, JSON.stringify(profile, null, 2) + '\n');
  return profile;
}
