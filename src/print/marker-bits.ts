import {
  BOARD_DICTIONARY_CONSTANTS,
  dictionarySize,
  type BoardDictionaryName,
} from '../camera/calibration-board.ts';
import { loadOpenCV } from '../vision/opencv.ts';

/**
 * Marker bit patterns, straight from OpenCV's dictionaries (`generateImageMarker` at one pixel
 * per cell), so what we print is exactly what the detector decodes.
 */
export interface MarkerBits {
  readonly id: number;
  /** Cells across, including the one-cell black border. */
  readonly cells: number;
  /** Row-major, top row first: true where the cell is black. */
  readonly dark: readonly boolean[];
}

export async function markerBits(
  dictionary: BoardDictionaryName,
  ids: readonly number[],
): Promise<MarkerBits[]> {
  const limit = dictionarySize(dictionary);
  const bad = ids.filter((id) => !Number.isInteger(id) || id < 0 || id >= limit);
  if (bad.length)
    throw new Error(`${dictionary} has ids 0–${limit - 1}; cannot print ${bad.slice(0, 5).join(', ')}`);
  const cv = await loadOpenCV();
  const dict = cv.getPredefinedDictionary(cv[BOARD_DICTIONARY_CONSTANTS[dictionary]]);
  const img = new cv.Mat();
  try {
    const cells = (dict.markerSize as number) + 2;
    return ids.map((id) => {
      cv.generateImageMarker(dict, id, cells, img, 1);
      const data = img.data as Uint8Array;
      if (img.rows !== cells || img.cols !== cells)
        throw new Error(`OpenCV drew marker ${id} at ${img.cols}×${img.rows}, expected ${cells}`);
      return { id, cells, dark: Array.from(data, (v) => v < 128) };
    });
  } finally {
    img.delete();
    dict.delete();
  }
}
