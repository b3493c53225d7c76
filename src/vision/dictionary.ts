import type { MarkerDictionaryName } from '../table/scenario.ts';
import type { OpenCV } from './opencv.ts';

/** OpenCV's predefined dictionary constant for each dictionary name a scenario may use. */
export function dictionaryConstant(cv: OpenCV, name: MarkerDictionaryName): number {
  const constants: Record<MarkerDictionaryName, number> = {
    apriltag_36h11: cv.DICT_APRILTAG_36h11,
    aruco_4x4_250: cv.DICT_4X4_250,
    aruco_5x5_250: cv.DICT_5X5_250,
    aruco_mip_36h12: cv.DICT_ARUCO_MIP_36h12,
  };
  return constants[name];
}
