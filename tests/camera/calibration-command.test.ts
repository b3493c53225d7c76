import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command } from 'commander';
import { afterEach, describe, expect, test, vi } from 'vitest';
import { parseCameraProfile } from '../../src/camera/profile.ts';
import { registerCalibrateCommand } from '../../src/cli/calibrate-command.ts';
import { registerPrintCommand } from '../../src/cli/print-command.ts';

const REPO = fileURLToPath(new URL('../..', import.meta.url));
const PHOTOS = fileURLToPath(new URL('./fixtures/charuco-real', import.meta.url));

function program(): Command {
  const p = new Command().exitOverride();
  registerCalibrateCommand(p);
  registerPrintCommand(p);
  return p;
}

describe('vedette calibrate / print commands', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vedette-cli-'));
  afterEach(() => {
    vi.restoreAllMocks();
    process.exitCode = undefined;
  });

  test('calibrate writes a valid profile; refuses to overwrite without --force', async () => {
    const log = vi.spyOn(console, 'log').mockImplementation(() => {});
    const out = join(dir, 'tutorial.json');
    const photos = ['img_00.jpg', 'img_01.jpg', 'img_02.jpg', 'img_03.jpg'].map((n) => join(PHOTOS, n));
    const args = [
      'node',
      'vedette',
      'calibrate',
      '--board',
      `${REPO}calibration/boards/opencv-tutorial-5x7.json`,
      ...photos,
      '--out',
      out,
      '--name',
      'tutorial',
    ];
    await program().parseAsync(args);
    const profile = parseCameraProfile(JSON.parse(readFileSync(out, 'utf8')));
    expect(profile).toMatchObject({
      name: 'tutorial',
      source: 'calibration',
      imageWidth: 640,
      imageHeight: 480,
    });
    expect(Math.abs(profile.fx - 456.53) / 456.53).toBeLessThan(0.03);
    expect(log.mock.calls.flat().join('\n')).toMatch(/RMS reprojection error 0\.1\d\d px/);
    await expect(program().parseAsync(args)).rejects.toThrow(/exists; pass --force/);
  });

  test('a refusal sets exit code 1 and names the reason', async () => {
    const err = vi.spyOn(console, 'error').mockImplementation(() => {});
    const photos = ['img_00.jpg', 'img_01.jpg'].map((n) => join(PHOTOS, n));
    await program().parseAsync([
      'node',
      'vedette',
      'calibrate',
      '--board',
      `${REPO}calibration/boards/opencv-tutorial-5x7.json`,
      ...photos,
    ]);
    expect(process.exitCode).toBe(1);
    expect(err.mock.calls.flat().join('\n')).toMatch(/Calibration refused \(too-few-views\)/);
  });

  test('print markers / reference / board write PDFs', async () => {
    vi.spyOn(console, 'log').mockImplementation(() => {});
    const files = {
      markers: join(dir, 'm.pdf'),
      reference: join(dir, 'r.pdf'),
      board: join(dir, 'b.pdf'),
    };
    await program().parseAsync([
      'node',
      'vedette',
      'print',
      'markers',
      '--base',
      '25x25',
      '--ids',
      '4-9',
      '--paper',
      'letter',
      '--out',
      files.markers,
    ]);
    await program().parseAsync(['node', 'vedette', 'print', 'reference', '--out', files.reference]);
    await program().parseAsync([
      'node',
      'vedette',
      'print',
      'board',
      '--board',
      `${REPO}calibration/boards/vedette-7x9.json`,
      '--out',
      files.board,
    ]);
    for (const f of Object.values(files)) expect(readFileSync(f).subarray(0, 5).toString()).toBe('%PDF-');
    await expect(
      program().parseAsync([
        'node',
        'vedette',
        'print',
        'markers',
        '--base',
        '25x25',
        '--ids',
        '1',
        '--dictionary',
        'aruco_6x6_250',
      ]),
    ).rejects.toThrow(/unknown marker dictionary/);
    rmSync(dir, { recursive: true, force: true });
  });
});
