import type { MarkerDictionaryName } from '../table/scenario.ts';
import { loadOpenCV } from '../vision/opencv.ts';

/**
 * Marker bit patterns, taken from OpenCV's own dictionaries so the synthetic table prints
 * exactly what a real printer would. OpenCV is only asked for the pattern (one pixel per
 * cell); all drawing happens in the renderer.
 */
export interface MarkerBits {
  /** Cells per side including the one-cell black border (markerSize + 2). */
  readonly cells: number;
  /** Row-major, row 0 at the marker's top edge; 1 = white, 0 = black. */
  readonly white: Uint8Array;
}

const CV_DICTIONARY: Record<MarkerDictionaryName, string> = {
  apriltag_36h11: 'DICT_APRILTAG_36h11',
  aruco_4x4_250: 'DICT_4X4_250',
  aruco_5x5_250: 'DICT_5X5_250',
  aruco_mip_36h12: 'DICT_ARUCO_MIP_36h12',
};

/** OpenCV's constant name for a scenario dictionary (e.g. for a detector in a test). */
export function cvDictionaryName(name: MarkerDictionaryName): string {
  return CV_DICTIONARY[name];
}

const cache = new Map<string, MarkerBits>();

/** The pattern of one marker; cached, so a scene asks OpenCV once per id. */
export async function markerBits(dictionary: MarkerDictionaryName, id: number): Promise<MarkerBits> {
  const key = `${dictionary}:${id}`;
  const hit = cache.get(key);
  if (hit) return hit;
  const cv = await loadOpenCV();
  const dict = cv.getPredefinedDictionary(cv[CV_DICTIONARY[dictionary]]);
  const cells = (dict.markerSize as number) + 2;
  const count = dict.bytesList.rows as number;
  if (!Number.isInteger(id) || id < 0 || id >= count) {
    throw new Error(`marker id ${id} is not in ${dictionary} (ids 0..${count - 1})`);
  }
  const mat = new cv.Mat();
  try {
    cv.generateImageMarker(dict, id, cells, mat, 1);
    const data = mat.data as Uint8Array;
    const white = new Uint8Array(cells * cells);
    for (let i = 0; i < white.length; i++) white[i] = (data[i] ?? 0) > 127 ? 1 : 0;
    const bits: MarkerBits = { cells, white };
    cache.set(key, bits);
    return bits;
  } finally {
    mat.delete();
    dict.delete?.();
  }
}

/** Patterns for many ids at once (one OpenCV start-up), keyed by id. */
export async function markerBitsFor(
  dictionary: MarkerDictionaryName,
  ids: Iterable<number>,
): Promise<Map<number, MarkerBits>> {
  const out = new Map<number, MarkerBits>();
  for (const id of ids) out.set(id, await markerBits(dictionary, id));
  return out;
}
