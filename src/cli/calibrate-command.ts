import { requireFile } from './failure.ts';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Command } from 'commander';
import { boardCornerCount, type BoardSpec } from '../camera/calibration-board.ts';
import { calibrateFromFiles, loadBoardSpec, writeCameraProfile } from '../camera/calibration-files.ts';
import {
  CalibrationRefused,
  DEFAULT_CALIBRATION_OPTIONS,
  type CalibrationOptions,
  type CalibrationResult,
  type ViewReport,
} from '../camera/calibration.ts';

interface CalibrateFlags {
  board: string;
  out?: string;
  name?: string;
  force?: boolean;
  json?: boolean;
  minViews?: string;
  maxBlur?: string;
  maxRms?: string;
}

/** `vedette calibrate --board <spec.json> <images...> [--out calibration/<name>.json]` */
export function registerCalibrateCommand(program: Command): void {
  program
    .command('calibrate')
    .description('Calibrate a camera lens from photos of a printed ChArUco board (see docs/calibration.md)')
    .requiredOption('-b, --board <spec.json>', 'board spec, e.g. calibration/boards/vedette-7x9.json')
    .argument(
      '<images...>',
      'photos of the board (same camera, same resolution; 10–20 varied views recommended, 4 minimum)',
    )
    .option('-o, --out <file>', 'where to write the camera profile (default calibration/<name>.json)')
    .option('-n, --name <name>', 'profile name (default camera-<width>x<height>)')
    .option('-f, --force', 'overwrite an existing profile file')
    .option('--json', 'print the full result as JSON instead of a table')
    .option(
      '--min-views <n>',
      `least number of usable distinct views (default ${DEFAULT_CALIBRATION_OPTIONS.minViews})`,
    )
    .option(
      '--max-blur <px>',
      `largest edge blur accepted, pixels (default ${DEFAULT_CALIBRATION_OPTIONS.maxEdgeBlurPx})`,
    )
    .option(
      '--max-rms <px>',
      `largest RMS reprojection error accepted, pixels (default ${DEFAULT_CALIBRATION_OPTIONS.maxRmsPx})`,
    )
    .action(async (images: string[], flags: CalibrateFlags) => {
      requireFile(flags.board, '--board: board spec');
      for (const path of images) requireFile(path, 'photo');
      const board = await loadBoardSpec(flags.board);
      const options: Partial<CalibrationOptions> = {
        ...(flags.name ? { profileName: flags.name } : {}),
        ...(flags.minViews ? { minViews: positiveNumber(flags.minViews, '--min-views') } : {}),
        ...(flags.maxBlur ? { maxEdgeBlurPx: positiveNumber(flags.maxBlur, '--max-blur') } : {}),
        ...(flags.maxRms ? { maxRmsPx: positiveNumber(flags.maxRms, '--max-rms') } : {}),
      };
      let result: CalibrationResult;
      try {
        result = await calibrateFromFiles(board, images, options);
      } catch (err) {
        if (!(err instanceof CalibrationRefused)) throw err;
        if (flags.json)
          console.log(
            JSON.stringify({ refused: err.reason, message: err.message, views: err.views }, null, 2),
          );
        else {
          console.error(`Calibration refused (${err.reason}): ${err.message}`);
          if (err.views.some((v) => v.status !== 'not-analysed' || v.cornersFound > 0))
            console.error(viewTable(err.views, board));
        }
        process.exitCode = 1;
        return;
      }
      const out = flags.out ?? join('calibration', `${result.profile.name}.json`);
      if (existsSync(out) && !flags.force) {
        throw new Error(`${out} exists; pass --force to overwrite it, or --out another file`);
      }
      await writeCameraProfile(out, result.profile);
      if (flags.json) console.log(JSON.stringify({ out, ...result }, null, 2));
      else console.log(`${formatCalibration(result, board)}\nWrote ${out}`);
    });
}

function positiveNumber(text: string, flag: string): number {
  const n = Number(text);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`${flag} must be a positive number, got "${text}"`);
  return n;
}

const f = (n: number | null | undefined, digits: number) =>
  n === null || n === undefined || !Number.isFinite(n) ? '–' : n.toFixed(digits);

function viewTable(views: readonly ViewReport[], board: BoardSpec): string {
  const total = boardCornerCount(board);
  const width = Math.max(4, ...views.map((v) => v.name.length));
  const head = `  ${'view'.padEnd(width)}  corners  blur px  depth  tilt °  RMS px  status`;
  const rows = views.map(
    (v) =>
      `  ${v.name.padEnd(width)}  ${`${v.cornersFound}/${total}`.padStart(7)}  ${f(v.edgeBlurPx, 2).padStart(7)}  ${f(v.depthRatio, 2).padStart(5)}  ` +
      `${f(v.boardTiltDeg, 1).padStart(6)}  ${f(v.rmsPx, 3).padStart(6)}  ${v.status}${v.problem ? ` — ${v.problem}` : ''}`,
  );
  return [head, ...rows].join('\n');
}

export function formatCalibration(r: CalibrationResult, board: BoardSpec): string {
  const p = r.profile;
  const used = r.views.filter((v) => v.status === 'used').length;
  const verdict = r.rmsPx < 0.5 ? 'good' : r.rmsPx < 1 ? 'acceptable' : 'poor';
  return [
    `Calibrated ${p.imageWidth}×${p.imageHeight} from ${used} of ${r.views.length} photos (board ${board.name}).`,
    `  RMS reprojection error ${r.rmsPx.toFixed(3)} px (${verdict}: under 0.5 px is good, above ${DEFAULT_CALIBRATION_OPTIONS.maxRmsPx} px is refused by default)`,
    `  fx ${p.fx.toFixed(2)} ± ${r.stdDev.fx.toFixed(2)} px   fy ${p.fy.toFixed(2)} ± ${r.stdDev.fy.toFixed(2)} px`,
    `  cx ${p.cx.toFixed(2)} ± ${r.stdDev.cx.toFixed(2)} px   cy ${p.cy.toFixed(2)} ± ${r.stdDev.cy.toFixed(2)} px`,
    `  distortion k1 ${p.distortion[0].toFixed(4)}  k2 ${p.distortion[1].toFixed(4)}  p1 ${p.distortion[2].toFixed(5)}  p2 ${p.distortion[3].toFixed(5)}  k3 ${p.distortion[4].toFixed(4)}`,
    `  board orientations span ${r.tiltSpreadDeg.toFixed(1)}°; corners cover ${Math.round(r.coverage * 100)}% of the picture`,
    viewTable(r.views, board),
    ...r.warnings.map((w) => `Warning: ${w}`),
  ].join('\n');
}
