import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { ImageMeasurement } from '../../src/cli/measure-command.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { encodePng } from '../../src/synth/encode.ts';
import { renderScene } from '../../src/synth/render.ts';
import { distanceBetween, measuredUnits } from '../../src/table/measured-units.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { VisionPipeline } from '../../src/vision/pipeline.ts';
import { unitGap } from '../support/truth-distance.ts';

const run = promisify(execFile);
const scenarioPath = 'scenarios/prestonpans-demo.json';
const scenario = parseScenarioText(readFileSync(scenarioPath, 'utf8'));

describe('vedette measure', () => {
  it('prints the same distances as the live pipeline, close to the truth', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vedette-measure-'));
    const camera = frameTable(scenario.table);
    const profile = syntheticCameraProfile(camera);
    const frame = await renderScene(scenario, camera, { seed: 7 });
    const imagePath = join(dir, 'table.png');
    const cameraPath = join(dir, 'camera.json');
    writeFileSync(imagePath, await encodePng(frame.image));
    writeFileSync(cameraPath, JSON.stringify(profile));

    const { stdout } = await run('node', [
      'bin/vedette.js',
      'measure',
      imagePath,
      '--scenario',
      scenarioPath,
      '--camera',
      cameraPath,
      '--json',
    ]);
    const printed = JSON.parse(stdout) as ImageMeasurement;
    expect(printed.tablePoseFound).toBe(true);
    expect(printed.distances).toHaveLength((scenario.units.length * (scenario.units.length - 1)) / 2);

    // The live path: the same rendered frame straight into the pipeline, no file in between.
    const pipeline = await VisionPipeline.create(profile, scenario);
    const live = pipeline.process({ image: { ...frame.image, channels: 3 }, capturedAt: 0, sequence: 0 });
    const units = measuredUnits(scenario, live.bases);
    for (const d of printed.distances) {
      const liveDistance = distanceBetween(units, d.a, d.b)!;
      expect(d.distanceIn).toBeCloseTo(liveDistance.distanceIn, 9);
      const footprints = (id: string) =>
        frame.truth.bases.filter((b) => b.unitId === id).map((b) => b.footprintMm);
      expect(Math.abs(d.distanceIn - unitGap(footprints(d.a), footprints(d.b)) / 25.4)).toBeLessThan(0.05);
    }
  });

  it('prints a readable table and refuses a bad scenario with the field named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vedette-measure-'));
    const bad = JSON.parse(readFileSync(scenarioPath, 'utf8'));
    bad.units[0].bases[0].width = -40;
    const badPath = join(dir, 'bad.json');
    writeFileSync(badPath, JSON.stringify(bad));
    const failure = await run('node', [
      'bin/vedette.js',
      'measure',
      'missing.png',
      '--scenario',
      badPath,
    ]).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/units\.0\.bases\.0\.width: base width must be > 0/);
  });
});
