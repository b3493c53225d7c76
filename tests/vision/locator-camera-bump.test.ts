import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { frameTable, syntheticCameraProfile, type SynthCamera } from '../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../src/synth/live-table.ts';
import type { SynthFrame } from '../../src/synth/render.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { VisionPipeline, type PipelineResult } from '../../src/vision/pipeline.ts';

const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));

/** The same camera knocked: turned 1.5° about its own x axis and shifted 15 mm sideways. */
function knocked(cam: SynthCamera): SynthCamera {
  const a = (1.5 * Math.PI) / 180;
  const [c, s] = [Math.cos(a), Math.sin(a)];
  const r = cam.rotation;
  const rx = [1, 0, 0, 0, c, -s, 0, s, c];
  const mul = (i: number, j: number) =>
    rx[i * 3]! * r[j]! + rx[i * 3 + 1]! * r[3 + j]! + rx[i * 3 + 2]! * r[6 + j]!;
  const rotation = [0, 1, 2].flatMap((i) =>
    [0, 1, 2].map((j) => mul(i, j)),
  ) as unknown as SynthCamera['rotation'];
  const t = cam.translation;
  const translation: SynthCamera['translation'] = [t[0] + 15, c * t[1] - s * t[2], s * t[1] + c * t[2]];
  return { ...cam, rotation, translation };
}

interface Step {
  frame: SynthFrame;
  result: PipelineResult;
}

const FPS = 10;
const BUMP_AT = 10;

describe('locator when the camera is bumped mid-sequence', () => {
  const steps: Step[] = [];

  beforeAll(async () => {
    const steady = frameTable(scenario.table);
    const before = await LiveSyntheticTable.create(scenario, steady);
    const after = await LiveSyntheticTable.create(scenario, knocked(steady));
    // The lens is the same; only where the camera points changed.
    const pipeline = await VisionPipeline.create(syntheticCameraProfile(steady), scenario);
    for (let i = 0; i < BUMP_AT + 12; i++) {
      const frame = (i < BUMP_AT ? before : after).frameWithPoses({}, i);
      const result = pipeline.process({
        image: { ...frame.image, channels: 3 },
        capturedAt: (i * 1000) / FPS,
        sequence: i,
      });
      steps.push({ frame, result });
    }
    pipeline.dispose();
  });

  it('is stable before the knock, with no false alarms from sensor noise', () => {
    for (const { result } of steps.slice(1, BUMP_AT)) {
      expect(result.located.table?.status).toBe('stable');
      expect(result.located.table!.shiftPx!).toBeLessThan(0.5);
    }
  });

  it('notices the knock on the first frame after it and marks the pose as settling', () => {
    const table = steps[BUMP_AT]!.result.located.table!;
    expect(table.status).toBe('settling');
    expect(table.shiftPx!).toBeGreaterThan(5);
    console.log(`camera knock: the table moved ${table.shiftPx!.toFixed(1)} px in the image`);
  });

  it('recovers within a second: stable again and every base within 1 mm of the truth', () => {
    const recoveredAt = steps.findIndex((s, i) => i > BUMP_AT && s.result.located.table?.status === 'stable');
    expect(recoveredAt).toBeGreaterThan(BUMP_AT);
    expect(((recoveredAt - BUMP_AT) * 1000) / FPS).toBeLessThanOrEqual(1000);
    for (const { frame, result } of steps.slice(recoveredAt)) {
      for (const truth of frame.truth.bases) {
        const m = result.bases.find((b) => b.markerId === truth.markerId)!;
        expect(m.seen).toBe(true);
        expect(Math.hypot(m.x - truth.centreMm.x, m.y - truth.centreMm.y)).toBeLessThan(1);
      }
    }
  });
});
