import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import sharp, { type Sharp } from 'sharp';
import { beforeAll, describe, expect, test } from 'vitest';
import { parseBoardSpec, parseBoardSpecText, type BoardSpec } from '../../src/camera/calibration-board.ts';
import { loadBoardSpec } from '../../src/camera/calibration-files.ts';
import {
  CalibrationRefused,
  DEFAULT_CALIBRATION_OPTIONS,
  calibrateFromCharuco,
  type CalibrationView,
  type RefusalReason,
} from '../../src/camera/calibration.ts';
import type { RasterImage } from '../../src/vision/image.ts';

/**
 * Acceptance: the four real ChArUco photos from OpenCV's tutorial must calibrate to OpenCV's own
 * published figures (tests/camera/fixtures/charuco-real/README.md: RMS 0.1876 px, fx 456.53, fy 460.15 from
 * OpenCV 4.6 calibrateCameraCharucoExtended). Then every refusal, on real photos degraded in
 * known ways.
 */

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PHOTOS = fileURLToPath(new URL('./fixtures/charuco-real', import.meta.url));
const BOARD_FILE = `${REPO}calibration/boards/opencv-tutorial-5x7.json`;
const NAMES = ['img_00.jpg', 'img_01.jpg', 'img_02.jpg', 'img_03.jpg'];
async function raw(pipeline: Sharp, name: string): Promise<CalibrationView> {
  const { data, info } = await pipeline.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const image: RasterImage = {
    width: info.width,
    height: info.height,
    channels: info.channels as 3,
    data: new Uint8Array(data),
  };
  return { name, image };
}
const photo = (name: string, edit: (s: Sharp) => Sharp = (s) => s) =>
  raw(edit(sharp(`${PHOTOS}/${name}`)), name);

async function refusal(
  board: BoardSpec,
  views: CalibrationView[],
  options = {},
): Promise<CalibrationRefused> {
  try {
    await calibrateFromCharuco(board, views, options);
  } catch (err) {
    if (err instanceof CalibrationRefused) return err;
    throw err;
  }
  throw new Error('calibration was expected to refuse but returned a profile');
}

describe('ChArUco calibration on the real OpenCV tutorial photos', () => {
  let board: BoardSpec;
  let views: CalibrationView[];
  beforeAll(async () => {
    board = await loadBoardSpec(BOARD_FILE);
    views = await Promise.all(NAMES.map((n) => photo(n)));
  });

  test('matches OpenCV 4.6 reference: RMS within 10 % of 0.1876 px, fx/fy within 3 % of 456.5/460.2', async () => {
    const r = await calibrateFromCharuco(board, views, { profileName: 'tutorial-640x480' });
    console.log(
      `real ChArUco: RMS ${r.rmsPx.toFixed(4)} px, fx ${r.profile.fx.toFixed(2)} fy ${r.profile.fy.toFixed(2)} ` +
        `cx ${r.profile.cx.toFixed(2)} cy ${r.profile.cy.toFixed(2)}, corners ${r.views.map((v) => v.cornersFound).join('/')}, ` +
        `per-view RMS ${r.views.map((v) => v.rmsPx?.toFixed(3)).join('/')}`,
    );
    expect(Math.abs(r.rmsPx - 0.1876) / 0.1876).toBeLessThan(0.1);
    expect(Math.abs(r.profile.fx - 456.53) / 456.53).toBeLessThan(0.03);
    expect(Math.abs(r.profile.fy - 460.15) / 460.15).toBeLessThan(0.03);
    // Principal point: OpenCV reference 318.21, 274.96; allow a few σ.
    expect(Math.abs(r.profile.cx - 318.21)).toBeLessThan(3 * r.stdDev.cx + 1);
    expect(Math.abs(r.profile.cy - 274.96)).toBeLessThan(3 * r.stdDev.cy + 1);
    expect(r.profile).toMatchObject({
      source: 'calibration',
      imageWidth: 640,
      imageHeight: 480,
      name: 'tutorial-640x480',
    });
    expect(r.profile.rmsPx).toBe(r.rmsPx);
    for (const v of r.views) {
      expect(v.status).toBe('used');
      expect(v.cornersFound).toBeGreaterThanOrEqual(22);
      expect(v.cornersFound).toBeLessThanOrEqual(24);
      expect(v.rmsPx!).toBeGreaterThan(0);
      expect(v.rmsPx!).toBeLessThan(0.5);
    }
    // The overall RMS is the corner-weighted quadratic mean of the per-view RMS.
    const n = r.views.map((v) => v.cornersFound);
    const pooled = Math.sqrt(
      r.views.reduce((s, v, i) => s + v.rmsPx! ** 2 * n[i]!, 0) / n.reduce((a, b) => a + b, 0),
    );
    expect(pooled).toBeCloseTo(r.rmsPx, 6);
    // Four near-parallel views: the calibration says so rather than staying silent.
    expect(r.warnings.join(' ')).toMatch(/10–20 varied views/);
  });

  test('the legacy layout finds the same corners on this odd-row board (22–24 per photo)', async () => {
    const legacy = { ...board, legacyPattern: true };
    const r = await calibrateFromCharuco(legacy, views);
    expect(r.views.map((v) => v.cornersFound).every((c) => c >= 22 && c <= 24)).toBe(true);
    expect(Math.abs(r.profile.fx - 456.53) / 456.53).toBeLessThan(0.03);
  });

  test('refuses too few views', async () => {
    const e = await refusal(board, views.slice(0, 3));
    expect(e.reason).toBe<RefusalReason>('too-few-views');
    expect(e.message).toMatch(/3 photo\(s\) given; calibration needs at least 4/);
  });

  test('refuses near-duplicate views (the same pose photographed again)', async () => {
    const again = await Promise.all([
      photo('img_00.jpg', (s) => s.modulate({ brightness: 1.08 })),
      // Shifted by (3, 2) px: sharp extracts before it extends, so shift in two passes.
      sharp(`${PHOTOS}/img_00.jpg`)
        .extend({ top: 2, left: 3, background: '#808080' })
        .png()
        .toBuffer()
        .then((b) => raw(sharp(b).extract({ left: 0, top: 0, width: 640, height: 480 }), 'shifted')),
      photo('img_00.jpg', (s) => s.gamma(1.4)),
    ]);
    const e = await refusal(board, [
      views[0]!,
      ...again.map((v, i) => ({ ...v, name: `img_00-copy${i}.jpg` })),
    ]);
    expect(e.reason).toBe<RefusalReason>('views-too-similar');
    expect(e.views.filter((v) => v.status === 'duplicate').map((v) => v.duplicateOf)).toEqual([0, 0, 0]);
    expect(e.message).toMatch(/almost the same place as in img_00\.jpg/);
  });

  test('refuses blurred photos, and names them', async () => {
    const soft = await Promise.all(NAMES.map((n) => photo(n, (s) => s.blur(3))));
    const all = await refusal(board, soft);
    expect(all.reason).toBe<RefusalReason>('blurred');
    for (const v of all.views)
      expect(v.edgeBlurPx).toBeGreaterThan(DEFAULT_CALIBRATION_OPTIONS.maxEdgeBlurPx);

    // One bad photo out of four leaves three: refused, and the blurred one is the one named.
    const one = await refusal(board, [
      views[0]!,
      views[1]!,
      views[2]!,
      await photo('img_03.jpg', (s) => s.blur(2.5)),
    ]);
    expect(one.reason).toBe<RefusalReason>('blurred');
    expect(one.views.map((v) => v.status)).toEqual(['accepted', 'accepted', 'accepted', 'blurred']);
    expect(one.message).toMatch(/img_03\.jpg: blurred: edge blur/);
    // …while the sharp ones measure sharp.
    for (const v of one.views.slice(0, 3)) expect(v.edgeBlurPx).toBeLessThan(0.5);
  });

  test('a mild blur (σ 0.7 px) is accepted and still lands on the reference', async () => {
    const mild = await Promise.all(NAMES.map((n) => photo(n, (s) => s.blur(0.7))));
    const r = await calibrateFromCharuco(board, mild);
    expect(Math.abs(r.profile.fx - 456.53) / 456.53).toBeLessThan(0.03);
  });

  test('refuses views with too few corners', async () => {
    // Paint over most of the board in one photo: the corners that remain are too few.
    const cover = await sharp({ create: { width: 640, height: 330, channels: 3, background: '#7f7f7f' } })
      .png()
      .toBuffer();
    const hidden = await photo('img_02.jpg', (s) => s.composite([{ input: cover, left: 0, top: 0 }]));
    const e = await refusal(board, [views[0]!, views[1]!, hidden, views[3]!]);
    expect(e.reason).toBe<RefusalReason>('too-few-corners');
    expect(e.views[2]!.status).toBe('too-few-corners');
    expect(e.views[2]!.cornersFound).toBeLessThan(6);
  });

  test('refuses a board spec with the wrong dictionary', async () => {
    const e = await refusal({ ...board, dictionary: 'aruco_5x5_250' }, views);
    expect(e.reason).toBe<RefusalReason>('board-mismatch');
    expect(e.message).toMatch(/no aruco_5x5_250 markers were found/);
  });

  test('refuses a board spec too small for the marker ids in the photos', async () => {
    const e = await refusal({ ...board, squaresX: 4, squaresY: 6 }, views);
    expect(e.reason).toBe<RefusalReason>('board-mismatch');
    expect(e.message).toMatch(/ids 12–16, but a 4×6 board only has ids 0–11/);
  });

  test('refuses swapped squaresX/squaresY and says which spec would match', async () => {
    const e = await refusal({ ...board, squaresX: 7, squaresY: 5 }, views);
    expect(e.reason).toBe<RefusalReason>('board-mismatch');
    expect(e.message).toMatch(/swap squaresX and squaresY \(5×7\)/);
  });

  test('refuses photos of different sizes', async () => {
    const small = await photo('img_03.jpg', (s) => s.resize(320, 240));
    const e = await refusal(board, [views[0]!, views[1]!, views[2]!, small]);
    expect(e.reason).toBe<RefusalReason>('image-size-mismatch');
  });

  test('refuses a fit worse than the RMS limit', async () => {
    const e = await refusal(board, views, { maxRmsPx: 0.1 });
    expect(e.reason).toBe<RefusalReason>('poor-fit');
    expect(e.message).toMatch(/reprojection error 0\.1\d px is above the 0\.1 px limit/);
  });
});

describe('board spec files', () => {
  test('the shipped board specs parse', () => {
    const tutorial = parseBoardSpecText(readFileSync(BOARD_FILE, 'utf8'));
    expect(tutorial).toMatchObject({
      squaresX: 5,
      squaresY: 7,
      squareLengthMm: 40,
      markerLengthMm: 20,
      dictionary: 'aruco_6x6_250',
    });
    const printable = parseBoardSpecText(readFileSync(`${REPO}calibration/boards/vedette-7x9.json`, 'utf8'));
    expect(printable.squaresX * printable.squareLengthMm).toBeLessThanOrEqual(190);
    expect(printable.squaresY * printable.squareLengthMm).toBeLessThanOrEqual(230);
  });

  test('lengths convert to millimetres; metres are accepted for OpenCV-style specs', () => {
    const b = parseBoardSpec({
      squaresX: 5,
      squaresY: 7,
      squareLength: 0.04,
      markerLength: 0.02,
      lengthUnit: 'm',
      dictionary: 'aruco_6x6_250',
    });
    expect(b.squareLengthMm).toBeCloseTo(40, 9);
    expect(b.markerLengthMm).toBeCloseTo(20, 9);
    expect(b.legacyPattern).toBe(false);
  });

  test('bad specs are refused with the field named', () => {
    const base = {
      squaresX: 5,
      squaresY: 7,
      squareLength: 40,
      markerLength: 20,
      dictionary: 'aruco_6x6_250',
    };
    expect(() => parseBoardSpec({ ...base, markerLength: 40 })).toThrow(
      /markerLength: markerLength must be smaller/,
    );
    expect(() => parseBoardSpec({ ...base, dictionary: 'DICT_6X6_250' })).toThrow(
      /dictionary must be one of/,
    );
    expect(() => parseBoardSpec({ ...base, squares: 5 })).toThrow(/unknown field\(s\): squares/);
    expect(() =>
      parseBoardSpec({ ...base, squaresX: 10, squaresY: 10, dictionary: 'apriltag_16h5' }),
    ).toThrow(/needs 50 marker ids but apriltag_16h5 has only 30/);
    expect(() => parseBoardSpecText('{', 'b.json')).toThrow(/b\.json is not valid JSON/);
  });
});
