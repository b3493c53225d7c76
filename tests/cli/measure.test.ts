import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import type { DetectOutput } from '../../src/cli/detect-command.ts';
import type { MeasureOutput } from '../../src/cli/measure-command.ts';
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
    const output = JSON.parse(stdout) as MeasureOutput;
    expect(output.format).toBe('vedette.measure/1');
    const printed = output.images[0]!;
    expect(printed.table.found).toBe(true);
    expect(
      printed.references
        .filter((r) => r.used)
        .map((r) => r.id)
        .sort(),
    ).toEqual([0, 1, 2, 3]);
    // Every base, where the renderer put it, with the stage that found it.
    expect(printed.bases).toHaveLength(frame.truth.bases.length);
    for (const b of printed.bases) {
      const truth = frame.truth.bases.find((t) => t.markerId === b.markerId)!;
      expect(b.unitId).toBe(truth.unitId);
      expect(Math.hypot(b.xMm - truth.centreMm.x, b.yMm - truth.centreMm.y)).toBeLessThan(0.5);
      expect(b.xIn).toBeCloseTo(b.xMm / 25.4, 9);
      expect(b.stage).not.toBeNull();
    }
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

  it('detect prints every marker with its four corners, with or without the scenario', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vedette-detect-'));
    const camera = frameTable(scenario.table);
    const frame = await renderScene(scenario, camera, { seed: 8 });
    const imagePath = join(dir, 'table.png');
    const cameraPath = join(dir, 'camera.json');
    writeFileSync(imagePath, await encodePng(frame.image));
    writeFileSync(cameraPath, JSON.stringify(syntheticCameraProfile(camera)));
    const truth = [...frame.truth.references, ...frame.truth.bases.map((b) => b.marker)];
    for (const extra of [
      ['--scenario', scenarioPath, '--camera', cameraPath],
      ['--dictionary', scenario.markerDictionary],
    ]) {
      const { stdout } = await run('node', [
        'bin/vedette.js',
        'detect',
        imagePath,
        imagePath,
        '--json',
        ...extra,
      ]);
      const out = JSON.parse(stdout) as DetectOutput;
      expect(out.format).toBe('vedette.detect/1');
      expect(out.images).toHaveLength(2);
      const found = out.images[0]!.detections;
      expect(found.map((d) => d.id).sort((a, b) => a - b)).toEqual(
        truth.map((t) => t.markerId).sort((a, b) => a - b),
      );
      for (const d of found) {
        const t = truth.find((m) => m.markerId === d.id)!;
        d.corners.forEach(([u, v], k) =>
          expect(Math.hypot(u - t.cornersPx[k]!.u, v - t.cornersPx[k]!.v)).toBeLessThan(0.5),
        );
      }
    }
  });

  it('prints a readable table and refuses a bad scenario with the field named', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'vedette-measure-'));
    const bad = JSON.parse(readFileSync(scenarioPath, 'utf8'));
    bad.units[0].bases[0].width = -40;
    const badPath = join(dir, 'bad.json');
    writeFileSync(badPath, JSON.stringify(bad));
    // The image is there (a missing one is named first, see failures.test.ts); the scenario is bad.
    const image = join(dir, 'table.png');
    writeFileSync(image, await encodePng({ width: 8, height: 8, data: new Uint8Array(8 * 8 * 3) }));
    const failure = await run('node', ['bin/vedette.js', 'measure', image, '--scenario', badPath]).catch(
      (e) => e,
    );
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/units\.0\.bases\.0\.width: base width must be > 0/);
  });
});
