import { assertRaster } from '../vision/image.ts';
import { loadOpenCV } from '../vision/opencv.ts';
import { boardCornerCount, boardMarkerCount, type BoardSpec } from './calibration-board.ts';
import { angleDeg, collinear, formatIds, gridCoverage, poseDistancePx } from './calibration-geometry.ts';
import {
  CalibrationRefused,
  DEFAULT_CALIBRATION_OPTIONS,
  type CalibrationOptions,
  type CalibrationResult,
  type CalibrationView,
  type MutableReport,
  type RefusalReason,
  type ViewReport,
  type ViewStatus,
} from './calibration-report.ts';
import { detectAll, diagnoseLayout } from './charuco-detection.ts';
import { runCalibration } from './charuco-fit.ts';
import type { CameraProfile } from './profile.ts';

export * from './calibration-report.ts';
export { edgeBlur } from './charuco-detection.ts';

/**
 * Lens calibration from photos of a ChArUco board, with OpenCV.js (`CharucoDetector` to find the
 * board's inner corners, `calibrateCameraExtended` to fit pinhole intrinsics plus k1 k2 p1 p2 k3).
 *
 * A pure function over decoded images and a board spec: no file I/O, so it runs unchanged in the
 * browser. It refuses (throws `CalibrationRefused` with a machine-readable `reason`) rather than
 * return a profile it cannot vouch for:
 *
 * - `too-few-views`: fewer than `minViews` photos supplied (default 4, the least that pins down
 *   focal length, principal point and five distortion terms with some redundancy; 10–20 are better);
 * - `image-size-mismatch`: the photos are not all the same size (one camera mode per profile);
 * - `board-mismatch`: the spec does not describe the board in the photos (no markers of its
 *   dictionary, marker ids beyond the board's range, or markers but no corners: wrong squaresX/Y or
 *   legacyPattern — the refusal says which alternative would have matched);
 * - `blurred`, `too-few-corners`, `views-too-similar`: after dropping blurred views, views with too
 *   few (or collinear) corners, and near-duplicate views, fewer than `minViews` remain; or all board
 *   orientations are within `minTiltSpreadDeg` of each other (parallel boards leave focal length and
 *   distance confounded);
 * - `poor-fit`: the fit's RMS reprojection error exceeds `maxRmsPx`;
 * - `calibration-failed`: OpenCV itself gave up.
 */

/** Calibrates a camera from ChArUco photos; throws `CalibrationRefused` when it should not. */
export async function calibrateFromCharuco(
  board: BoardSpec,
  views: readonly CalibrationView[],
  options: Partial<CalibrationOptions> = {},
): Promise<CalibrationResult> {
  const opts: CalibrationOptions = { ...DEFAULT_CALIBRATION_OPTIONS, ...options };
  const cv = await loadOpenCV();
  const blank = (v: CalibrationView, i: number): ViewReport => ({
    index: i,
    name: v.name,
    cornersFound: 0,
    markersFound: 0,
    outOfRangeMarkerIds: [],
    edgeBlurPx: NaN,
    depthRatio: null,
    status: 'not-analysed',
    rmsPx: null,
    boardTiltDeg: null,
  });

  if (views.length < opts.minViews) {
    throw new CalibrationRefused(
      'too-few-views',
      `${views.length} photo(s) given; calibration needs at least ${opts.minViews} photos of the board from different angles (10–20 is better).`,
      views.map(blank),
    );
  }
  for (const v of views) assertRaster(v.image);
  const { width, height } = views[0]!.image;
  const odd = views.filter((v) => v.image.width !== width || v.image.height !== height);
  if (odd.length > 0) {
    throw new CalibrationRefused(
      'image-size-mismatch',
      `all photos must come from one camera mode; ${views[0]!.name} is ${width}×${height} but ` +
        odd.map((v) => `${v.name} is ${v.image.width}×${v.image.height}`).join(', '),
      views.map(blank),
    );
  }

  const detections = detectAll(cv, board, views);
  const markerCount = boardMarkerCount(board);
  const totalCorners = boardCornerCount(board);
  const minCorners = opts.minCornersPerView ?? Math.max(6, Math.ceil(totalCorners / 4));

  // Reports before any view is dropped, for board-level refusals.
  const reports: MutableReport[] = detections.map((d, i) => {
    const outOfRange = [...new Set(d.markerIds.filter((id) => id >= markerCount))].sort((a, b) => a - b);
    return {
      index: i,
      name: views[i]!.name,
      cornersFound: d.corners.size,
      markersFound: d.markerIds.length,
      outOfRangeMarkerIds: outOfRange,
      edgeBlurPx: d.edgeBlurPx,
      depthRatio: d.depthRatio,
      status: 'not-analysed',
      rmsPx: null,
      boardTiltDeg: null,
    };
  });

  // The spec is wrong when the photos show marker ids the board cannot have.
  const foreign = reports.filter((r) => r.outOfRangeMarkerIds.length >= 2);
  if (foreign.length > 0) {
    const ids = [...new Set(foreign.flatMap((r) => r.outOfRangeMarkerIds))].sort((a, b) => a - b);
    throw new CalibrationRefused(
      'board-mismatch',
      `the photos show ${board.dictionary} marker ids ${formatIds(ids)}, but a ${board.squaresX}×${board.squaresY} board only has ids 0–${markerCount - 1}: ` +
        `squaresX/squaresY (or the dictionary) in the board spec do not match the printed board.`,
      reports,
    );
  }
  if (reports.every((r) => r.cornersFound === 0)) {
    if (reports.every((r) => r.edgeBlurPx > opts.maxEdgeBlurPx)) {
      throw new CalibrationRefused(
        'blurred',
        `every photo is blurred (edge blur ${reports.map((r) => r.edgeBlurPx.toFixed(1)).join(', ')} px; limit ${opts.maxEdgeBlurPx} px) and no board corner was found. ` +
          'Focus on the board, use more light or a shorter exposure, and hold the camera still.',
        reports,
      );
    }
    const mostMarkers = Math.max(...reports.map((r) => r.markersFound));
    if (mostMarkers > 0 && mostMarkers < 4) {
      throw new CalibrationRefused(
        'too-few-corners',
        `the board was barely found (at most ${mostMarkers} marker(s) in a photo, no corners). ` +
          'Fill more of the picture with the board, light it evenly without glare, and check focus.',
        reports,
      );
    }
    if (mostMarkers === 0) {
      throw new CalibrationRefused(
        'board-mismatch',
        `no ${board.dictionary} markers were found in any photo: check the board spec's dictionary, and that the board is in the pictures.`,
        reports,
      );
    }
    const hint = diagnoseLayout(cv, board, views);
    const seen = [...new Set(reports.flatMap((r) => detections[r.index]!.markerIds))].sort((x, y) => x - y);
    throw new CalibrationRefused(
      'board-mismatch',
      `${board.dictionary} markers were found (ids ${formatIds(seen)}) but no ChArUco corner matched a ${board.squaresX}×${board.squaresY} board` +
        `${board.legacyPattern ? ' (legacy pattern)' : ''}. ${hint}`,
      reports,
    );
  }

  // Per-view quality, then near-duplicate poses.
  for (const r of reports) {
    if (r.edgeBlurPx > opts.maxEdgeBlurPx) {
      r.status = 'blurred';
      r.problem = `blurred: edge blur ${r.edgeBlurPx.toFixed(2)} px > ${opts.maxEdgeBlurPx} px`;
    } else if (r.cornersFound < minCorners) {
      r.status = 'too-few-corners';
      r.problem = `only ${r.cornersFound} of ${totalCorners} corners found (need ${minCorners})`;
    } else if (collinear(detections[r.index]!.corners)) {
      r.status = 'too-few-corners';
      r.problem = `the ${r.cornersFound} corners found lie on one line`;
    }
  }
  const diagonal = Math.hypot(width, height);
  const kept: number[] = [];
  for (const r of reports) {
    if (r.status !== 'not-analysed') continue;
    const twin = kept.find(
      (k) =>
        poseDistancePx(detections[k]!.corners, detections[r.index]!.corners) <
        opts.minViewSeparation * diagonal,
    );
    if (twin !== undefined) {
      r.status = 'duplicate';
      r.duplicateOf = twin;
      r.problem = `board in almost the same place as in ${views[twin]!.name}`;
    } else {
      r.status = 'accepted';
      kept.push(r.index);
    }
  }
  if (kept.length < opts.minViews) {
    const counts = new Map<ViewStatus, number>();
    for (const r of reports) if (r.problem) counts.set(r.status, (counts.get(r.status) ?? 0) + 1);
    const order: Array<[ViewStatus, RefusalReason]> = [
      ['blurred', 'blurred'],
      ['too-few-corners', 'too-few-corners'],
      ['duplicate', 'views-too-similar'],
    ];
    const [, reason] = order.reduce((best, cur) =>
      (counts.get(cur[0]) ?? 0) > (counts.get(best[0]) ?? 0) ? cur : best,
    );
    const lines = reports.filter((r) => r.problem).map((r) => `  ${r.name}: ${r.problem}`);
    throw new CalibrationRefused(
      reason,
      `only ${kept.length} usable, distinct view(s); need ${opts.minViews}.\n${lines.join('\n')}\n${ADVICE[reason]}`,
      reports,
    );
  }

  const tilted = kept.filter((k) => (reports[k]!.depthRatio ?? 1) >= opts.minDepthRatio);
  if (tilted.length < opts.minTiltedViews) {
    throw new CalibrationRefused(
      'views-too-similar',
      `the board is square-on to the camera in ${tilted.length === 0 ? 'every photo' : `all but ${tilted.length} photo(s)`} ` +
        `(far/near corner depth ratios ${kept.map((k) => (reports[k]!.depthRatio ?? 1).toFixed(2)).join(', ')}; ` +
        `need ${opts.minTiltedViews} views at ≥ ${opts.minDepthRatio}): with parallel boards the focal length cannot be told apart from distance. ` +
        ADVICE['views-too-similar'],
      reports,
    );
  }

  const fit = runCalibration(
    cv,
    board,
    kept.map((k) => detections[k]!.corners),
    { width, height },
    reports,
  );
  kept.forEach((k, j) => {
    const r = reports[k]!;
    r.status = 'used';
    r.rmsPx = fit.perViewRms[j]!;
    r.boardTiltDeg = fit.tiltDeg[j]!;
  });

  let tiltSpreadDeg = 0;
  for (let i = 0; i < fit.normals.length; i++) {
    for (let j = i + 1; j < fit.normals.length; j++)
      tiltSpreadDeg = Math.max(tiltSpreadDeg, angleDeg(fit.normals[i]!, fit.normals[j]!));
  }
  if (!(fit.rms <= opts.maxRmsPx)) {
    const worst = kept
      .map((k) => reports[k]!)
      .sort((a, b) => (b.rmsPx ?? 0) - (a.rmsPx ?? 0))
      .slice(0, 3)
      .map((r) => `${r.name} ${r.rmsPx!.toFixed(2)} px`);
    throw new CalibrationRefused(
      'poor-fit',
      `reprojection error ${fit.rms.toFixed(2)} px is above the ${opts.maxRmsPx} px limit (worst views: ${worst.join(', ')}). ` +
        'Check squareLength/markerLength and that the printed board lies flat, and retake blurred or glare-spoiled photos.',
      reports,
    );
  }

  const used = kept.map((k) => detections[k]!.corners);
  const coverage = gridCoverage(used, width, height, 8, 6);
  const warnings: string[] = [];
  if (tiltSpreadDeg < opts.warnTiltSpreadDeg)
    warnings.push(
      `the board's orientation varies by only ${tiltSpreadDeg.toFixed(1)}° across the photos; tilting it different ways (forward, back, left, right) pins the focal length down better.`,
    );
  if (kept.length < 10)
    warnings.push(
      `${kept.length} views used; 10–20 varied views give a steadier calibration, and the distortion terms are poorly determined with few.`,
    );
  if (coverage < 0.5)
    warnings.push(
      `board corners reached only ${Math.round(coverage * 100)}% of the picture; add photos with the board near the edges and corners of the frame, where lens distortion is strongest.`,
    );
  const dropped = reports.filter((r) => r.status !== 'used');
  if (dropped.length)
    warnings.push(
      `${dropped.length} photo(s) not used: ${dropped.map((r) => `${r.name} (${r.problem})`).join('; ')}`,
    );

  const profile: CameraProfile = {
    name: opts.profileName ?? `camera-${width}x${height}`,
    source: 'calibration',
    imageWidth: width,
    imageHeight: height,
    fx: fit.fx,
    fy: fit.fy,
    cx: fit.cx,
    cy: fit.cy,
    distortion: fit.distortion,
    rmsPx: fit.rms,
    createdAt: opts.createdAt ?? new Date().toISOString(),
    notes:
      `ChArUco calibration: board ${board.name} (${board.squaresX}×${board.squaresY} squares of ${board.squareLengthMm} mm, ` +
      `${board.dictionary}${board.legacyPattern ? ', legacy pattern' : ''}), ${kept.length} views, ` +
      `RMS ${fit.rms.toFixed(4)} px; 1σ fx ${fit.stdDev.fx.toFixed(2)}, fy ${fit.stdDev.fy.toFixed(2)}, ` +
      `cx ${fit.stdDev.cx.toFixed(2)}, cy ${fit.stdDev.cy.toFixed(2)} px.`,
  };
  return { profile, rmsPx: fit.rms, views: reports, stdDev: fit.stdDev, coverage, tiltSpreadDeg, warnings };
}

const ADVICE: Record<RefusalReason, string> = {
  'too-few-views': 'Take more photos of the board from different angles.',
  'image-size-mismatch': 'Use photos from one camera at one resolution.',
  'board-mismatch': 'Check the board spec against the printed board.',
  blurred:
    'Retake the blurred photos: focus on the board, use more light or a shorter exposure, hold the camera still.',
  'too-few-corners': 'Retake those photos with the whole board in the frame, unobstructed and without glare.',
  'views-too-similar':
    'Move the board between photos: tilt it 20–45° towards and away from the camera about both axes, and place it in different parts of the frame, including the corners.',
  'poor-fit': 'Check the board spec and retake the worst photos.',
  'calibration-failed': 'Retake the photos with more varied board positions.',
};
