/** The marker dictionaries a scenario may print its markers from, and which ids each holds. */

export const MARKER_DICTIONARIES = [
  'apriltag_36h11',
  'aruco_4x4_250',
  'aruco_5x5_250',
  'aruco_mip_36h12',
] as const;
/**
 * The default, chosen by bench/accuracy (docs/markers.md): ArUco MIP 36h12 is the only dictionary
 * that finds ≥ 99 % of 20 mm markers at 1080p over a 6 × 4 ft table, as accurately as AprilTag
 * 36h11 and safer against stray patterns. Tables with more than 246 bases need AprilTag 36h11.
 */
export const DEFAULT_MARKER_DICTIONARY: (typeof MARKER_DICTIONARIES)[number] = 'aruco_mip_36h12';
export type MarkerDictionaryName = (typeof MARKER_DICTIONARIES)[number];

/**
 * How many markers each dictionary has (ids 0 to size − 1), as OpenCV defines them. A marker id
 * outside its dictionary can never be printed or seen, so the scenario schema refuses it.
 */
export const MARKER_DICTIONARY_SIZES: Readonly<Record<MarkerDictionaryName, number>> = {
  apriltag_36h11: 587,
  aruco_4x4_250: 250,
  aruco_5x5_250: 250,
  aruco_mip_36h12: 250,
};

/** Why a marker id cannot be in a dictionary, or null when it can. */
export function markerIdProblem(dictionary: MarkerDictionaryName, id: number): string | null {
  const size = MARKER_DICTIONARY_SIZES[dictionary];
  if (Number.isInteger(id) && id >= 0 && id < size) return null;
  return `marker id ${id} is not in ${dictionary} (its ids are 0–${size - 1})`;
}
