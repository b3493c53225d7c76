import type { CameraProfile } from '../camera/profile.ts';
import type { Scenario } from '../table/scenario.ts';

/** Sizes in pixels of what the pipeline searches for, at the scale a player's webcam frames the table. */

/**
 * The largest square that matters (a reference sheet, or a base's sticker) in pixels, at the
 * scale the camera frames the table: how far searches must reach beyond a change or a cut.
 */
export function largestSquarePx(camera: CameraProfile, scenario: Scenario): number {
  const largestMm = Math.max(
    ...scenario.referenceMarkers.map((m) => m.sizeMm),
    ...scenario.units.flatMap((u) => u.bases.map((b) => Math.max(b.widthMm, b.depthMm))),
  );
  return Math.ceil(largestMm * pxPerMm(camera, scenario));
}

/** Pixels per millimetre where the table is framed whole (the scale a player's webcam sees it at). */
function pxPerMm(camera: CameraProfile, scenario: Scenario): number {
  return camera.imageWidth / Math.min(scenario.table.widthMm, scenario.table.depthMm * 1.6);
}

/** The smallest reference sheet's side in pixels, roughly (at the framing's scale; a tilted camera's far side is smaller). */
export function referenceSheetPx(camera: CameraProfile, scenario: Scenario): { sidePx: number } {
  const smallestMm = Math.min(...scenario.referenceMarkers.map((m) => m.sizeMm));
  return { sidePx: smallestMm * pxPerMm(camera, scenario) };
}

/**
 * Rows each half of the candidate pass reaches past the cut. Each keeps the quads whose centre is
 * on its side, so a quad is found whole when half its height fits in the reach: three quarters
 * of the largest square holds quads half as tall again (a sheet's white border, the near side of
 * a tilted table). The reach was once one and a half squares, every frame's pass working 250
 * rows of 1080 twice for quads three times the largest.
 */
export function splitOverlapRows(camera: CameraProfile, scenario: Scenario): number {
  return Math.max(48, Math.ceil(0.75 * largestSquarePx(camera, scenario)));
}
