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
export {
  CLUTTER_KINDS,
  type BareBaseItem,
  type CardItem,
  type ClutterItem,
  type ClutterKind,
  type DieItem,
  type HandItem,
  type RulerItem,
} from './clutter.ts';
export {
  DEFAULT_CLUTTER_COUNTS,
  handShadows,
  handsOverMarkers,
  randomClutter,
  randomGlare,
  randomShadows,
  type ClutterLayoutOptions,
  type HandTarget,
  type KeepClear,
} from './clutter-layout.ts';
export { decodeImage, encodeJpeg, encodePng, jpegRoundTrip, writeImage } from './encode.ts';
export type { CastShadow, GlareSpot, SceneLighting } from './lighting.ts';
export type { PrintDefects } from './print-defects.ts';
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
export { type BasePose, type PoseOverrides, type SceneExtras } from './scene.ts';
export type { ClutterTruth } from './truth-conditions.ts';
export type { BaseTruth, MarkerTruth, PixelPoint, Quad, SceneTruth, TablePoint } from './truth.ts';
