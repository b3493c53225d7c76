import { execFile, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadOpenCV, type OpenCV } from '../../src/vision/opencv.ts';
import { startTestServer } from '../server/server-harness.ts';

/**
 * Issue 16, point 7: `vedette print` and the scenarios agree on the marker family. The demo
 * scenarios use apriltag_36h11 while the schema's default is aruco_mip_36h12; before this,
 * `print` always used the schema default, so markers printed with the defaults were invisible to
 * `vedette serve` on the demo. The family of each printed sheet is read back from the PDF by
 * OpenCV's own detectors, not from what the command says.
 */

const BIN = resolve('bin/vedette.js');
const DEMO_TEXT = readFileSync('scenarios/prestonpans-demo.json', 'utf8');
const hasPoppler = spawnSync('pdftoppm', ['-v']).status === 0;
if (!hasPoppler) {
  const msg =
    '\n*** PRINT FAMILY RASTER CHECKS SKIPPED: pdftoppm not found (Debian package poppler-utils) ***\n';
  if (process.env.VEDETTE_REQUIRE_ALL === '1')
    throw new Error(`${msg}VEDETTE_REQUIRE_ALL=1 forbids skipping.`);
  console.warn(msg);
}

/** OpenCV's name for each family the scenarios may use. */
const CV_DICTIONARY: Record<string, string> = {
  apriltag_36h11: 'DICT_APRILTAG_36h11',
  aruco_mip_36h12: 'DICT_ARUCO_MIP_36h12',
  aruco_4x4_250: 'DICT_4X4_250',
  aruco_5x5_250: 'DICT_5X5_250',
};

let root: string;
let cv: OpenCV;
beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'vedette-print-family-'));
  cv = await loadOpenCV();
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

function vedette(cwd: string, ...args: string[]): Promise<Run> {
  return new Promise((done) => {
    execFile('node', [BIN, ...args], { cwd, timeout: 150_000 }, (err, stdout, stderr) => {
      const code = err ? (typeof err.code === 'number' ? err.code : 1) : 0;
      done({ code, stdout, stderr: stderr.replace(/^npm warn.*\n/gm, '') });
    });
  });
}

/** A fresh folder to run vedette in, optionally holding scenarios/prestonpans-demo.json. */
function folder(name: string, withDemo: boolean): string {
  const dir = join(root, name);
  mkdirSync(join(dir, 'scenarios'), { recursive: true });
  if (withDemo) writeFileSync(join(dir, 'scenarios/prestonpans-demo.json'), DEMO_TEXT);
  return dir;
}

/** For each family, the ids OpenCV finds on the PDF's first page (rendered at 200 dpi). */
async function idsByFamily(pdfPath: string): Promise<Record<string, number[]>> {
  const prefix = `${pdfPath}-p1`;
  const run = spawnSync('pdftoppm', [
    '-r',
    '200',
    '-f',
    '1',
    '-l',
    '1',
    '-gray',
    '-png',
    '-singlefile',
    pdfPath,
    prefix,
  ]);
  expect(run.status, run.stderr?.toString()).toBe(0);
  const { data, info } = await sharp(`${prefix}.png`).greyscale().raw().toBuffer({ resolveWithObject: true });
  const gray = new cv.Mat(info.height, info.width, cv.CV_8UC1);
  gray.data.set(data);
  const out: Record<string, number[]> = {};
  try {
    for (const [family, constant] of Object.entries(CV_DICTIONARY)) {
      const dictionary = cv.getPredefinedDictionary(cv[constant]);
      const params = new cv.aruco_DetectorParameters();
      const refine = new cv.aruco_RefineParameters(10, 3, true);
      const detector = new cv.aruco_ArucoDetector(dictionary, params, refine);
      const corners = new cv.MatVector();
      const ids = new cv.Mat();
      const rejected = new cv.MatVector();
      try {
        detector.detectMarkers(gray, corners, ids, rejected);
        const found: number[] = [];
        for (let i = 0; i < ids.rows; i++) found.push(ids.intAt(i, 0));
        out[family] = found.sort((a, b) => a - b);
      } finally {
        for (const m of [corners, ids, rejected, detector, params, refine, dictionary]) m.delete();
      }
    }
  } finally {
    gray.delete();
  }
  return out;
}

/** The family whose detector reads `ids` on the sheet; the other families read none of them. */
async function familyOf(pdfPath: string, ids: readonly number[]): Promise<string | null> {
  if (!hasPoppler) return null;
  const found = await idsByFamily(pdfPath);
  const readers = Object.entries(found).filter(([, got]) => ids.every((id) => got.includes(id)));
  expect(
    readers.map(([f]) => f),
    JSON.stringify(found),
  ).toHaveLength(1);
  return readers[0]![0];
}

describe('vedette print uses the marker family of the scenario it prints for', { timeout: 200_000 }, () => {
  it('next to the scenario `vedette serve` watches by default, prints in its family (apriltag_36h11)', async () => {
    const here = folder('beside-demo', true);
    const r = await vedette(here, 'print', 'markers', '--base', '40x40', '--ids', '10-13', '-o', 'm.pdf');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(
      /Marker family: apriltag_36h11 \(the markerDictionary of scenarios\/prestonpans-demo\.json/,
    );
    expect(r.stdout).toMatch(/4 apriltag_36h11 markers/);
    const family = await familyOf(join(here, 'm.pdf'), [10, 11, 12, 13]);
    if (family !== null) expect(family).toBe('apriltag_36h11');
  });

  it('with --scenario, prints in that scenario family (reference markers too)', async () => {
    const here = folder('given', false);
    const mine = { ...(JSON.parse(DEMO_TEXT) as Record<string, unknown>), markerDictionary: 'aruco_4x4_250' };
    writeFileSync(join(here, 'mine.json'), JSON.stringify(mine));
    const r = await vedette(here, 'print', 'reference', '--scenario', 'mine.json', '-o', 'r.pdf');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Marker family: aruco_4x4_250 \(the markerDictionary of mine\.json\)/);
    const family = await familyOf(join(here, 'r.pdf'), [0]);
    if (family !== null) expect(family).toBe('aruco_4x4_250');
  });

  it('with no scenario given or found, prints in the schema default (aruco_mip_36h12) and says so', async () => {
    const here = folder('nowhere', false);
    const r = await vedette(here, 'print', 'markers', '--base', '40x40', '--ids', '10-13', '-o', 'm.pdf');
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/Marker family: aruco_mip_36h12 \(the scenario schema default/);
    const family = await familyOf(join(here, 'm.pdf'), [10, 11, 12, 13]);
    if (family !== null) expect(family).toBe('aruco_mip_36h12');
  });

  it('--dictionary still wins, with a warning when it is not the scenario family', async () => {
    const here = folder('override', true);
    const r = await vedette(
      here,
      'print',
      'markers',
      '--base',
      '40x40',
      '--ids',
      '10-13',
      '--scenario',
      'scenarios/prestonpans-demo.json',
      '--dictionary',
      'aruco_mip_36h12',
      '-o',
      'm.pdf',
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toMatch(
      /warning: scenarios\/prestonpans-demo\.json uses apriltag_36h11: Vedette will not see aruco_mip_36h12 markers/,
    );
    expect(r.stdout).toMatch(/Marker family: aruco_mip_36h12 \(--dictionary\)/);
  });

  it('--help says which family it uses', async () => {
    const r = await vedette(folder('help', false), 'print', 'markers', '--help');
    expect(r.code).toBe(0);
    expect(r.stdout.replace(/\s+/g, ' ')).toMatch(
      /default: the --scenario's markerDictionary, else that of scenarios\/prestonpans-demo\.json .* else aruco_mip_36h12/,
    );
  });
});

describe('the printables API uses the watched scenario family', { timeout: 200_000 }, () => {
  it('/api/print names apriltag_36h11 for the demo and its reference sheet is printed in it', async () => {
    const server = await startTestServer();
    try {
      const info = (await (await fetch(`${server.url}/api/print`)).json()) as { dictionary: string };
      expect(info.dictionary).toBe('apriltag_36h11');
      const res = await fetch(`${server.url}/api/print/reference.pdf?paper=a4`);
      expect(res.status).toBe(200);
      const file = join(root, 'api-reference.pdf');
      writeFileSync(file, Buffer.from(await res.arrayBuffer()));
      const ids = server.scenario().referenceMarkers.map((m) => m.id);
      const family = await familyOf(file, ids.slice(0, 1));
      if (family !== null) expect(family).toBe('apriltag_36h11');
    } finally {
      await server.close();
    }
  });
});
