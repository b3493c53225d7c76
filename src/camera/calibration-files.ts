import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { basename, dirname } from 'node:path';
import { readImageFile } from '../vision/sources/image-files.ts';
import { parseBoardSpecText, type BoardSpec } from './calibration-board.ts';
import { calibrateFromCharuco, type CalibrationOptions, type CalibrationResult } from './calibration.ts';
import { parseCameraProfile, type CameraProfile } from './profile.ts';

/** Node-side file handling around the pure calibrator: board specs, photos, profiles. */

export async function loadBoardSpec(path: string): Promise<BoardSpec> {
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new Error(`cannot read board spec ${path}: ${(err as Error).message}`, { cause: err });
  }
  return parseBoardSpecText(text, path);
}

/** Reads the photos (any format sharp decodes) and calibrates; refusals propagate as `CalibrationRefused`. */
export async function calibrateFromFiles(
  board: BoardSpec | string,
  imagePaths: readonly string[],
  options: Partial<CalibrationOptions> = {},
): Promise<CalibrationResult> {
  const spec = typeof board === 'string' ? await loadBoardSpec(board) : board;
  const views = [];
  for (const path of imagePaths) views.push({ name: basename(path), image: await readImageFile(path) });
  return calibrateFromCharuco(spec, views, options);
}

/** Writes a profile as pretty JSON, validated against the schema first; creates the folder. */
export async function writeCameraProfile(path: string, profile: CameraProfile): Promise<void> {
  const checked = parseCameraProfile(profile, 'calibrated profile');
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, `${JSON.stringify(checked, null, 2)}\n`, 'utf8');
}
