/** The synthetic table: a camera, a renderer with ground truth, and a live source for the demo. */
export {
  cameraCentre,
  DEFAULT_DISTORTION,
  frameTable,
  projectPoint,
  RESOLUTIONS,
  syntheticCameraProfile,
  truePose,
  type FrameTableOptions,
  type ResolutionName,
  type SynthCamera,
} from './camera.ts';
export {
  DEFAULT_SYNTH_TABLE,
  defaultSyntheticCamera,
  defaultSyntheticProfile,
  writeSyntheticCalibration,
} from './calibration.ts';
export { decodeImage, encodeJpeg, encodePng, writeImage } from './encode.ts';
export { distort, undistort, type Distortion, type Intrinsics } from './lens.ts';
export { LiveSyntheticTable, type LiveTableOptions } from './live-table.ts';
export { cvDictionaryName, markerBits, type MarkerBits } from './marker-bits.ts';
export {
  RENDER_DEFAULTS,
  renderScene,
  toGrey,
  type RenderOptions,
  type RgbImage,
  type SynthFrame,
} from './render.ts';
export { type BasePose, type PoseOverrides } from './scene.ts';
export type { BaseTruth, MarkerTruth, PixelPoint, Quad, SceneTruth, TablePoint } from './truth.ts';
