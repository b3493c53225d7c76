import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { renderScene, type SynthFrame } from '../../src/synth/render.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { MarkerDetector, type DetectedMarker } from '../../src/vision/detector.ts';
import { Locator } from '../../src/vision/locator.ts';

const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
const camera = frameTable(scenario.table);
const profile = syntheticCameraProfile(camera);
let frame: SynthFrame;
let detections: DetectedMarker[];

beforeAll(async () => {
  frame = await renderScene(scenario, camera, { seed: 11 });
  const detector = await MarkerDetector.create();
  detections = detector.detect({ ...frame.image, channels: 3 });
  detector.dispose();
});

function worstBaseError(result: ReturnType<Locator['locate']>): number {
  return Math.max(
    ...frame.truth.bases.map((t) => {
      const m = result.bases.find((b) => b.markerId === t.markerId)!;
      return Math.hypot(m.x - t.centreMm.x, m.y - t.centreMm.y);
    }),
  );
}

describe('table pose from the reference markers', () => {
  it('uses all four corners when all are seen', async () => {
    const result = (await Locator.create(profile, scenario)).locate(detections);
    expect([...result.table!.referenceIds].sort()).toEqual([0, 1, 2, 3]);
    expect(worstBaseError(result)).toBeLessThan(1);
  });

  it('still measures with one reference marker hidden', async () => {
    const result = (await Locator.create(profile, scenario)).locate(detections.filter((d) => d.id !== 2));
    expect(result.table!.referenceIds).toHaveLength(3);
    expect(worstBaseError(result)).toBeLessThan(1);
  });

  it('drops a reference marker that was knocked out of place and says which', async () => {
    // Marker 1 seen 40 px away from where it really is: as if someone nudged its card.
    const nudged = detections.map((d) =>
      d.id === 1
        ? {
            ...d,
            corners: d.corners.map((c) => ({
              u: c.u - 40,
              v: c.v + 10,
            })) as unknown as DetectedMarker['corners'],
          }
        : d,
    );
    const result = (await Locator.create(profile, scenario)).locate(nudged);
    expect(result.table!.rejectedIds).toEqual([1]);
    expect(worstBaseError(result)).toBeLessThan(1);
  });

  it('refuses to guess with fewer than three reference markers, and reports unknown markers', async () => {
    const few = detections.filter((d) => d.id !== 0 && d.id !== 3);
    const stranger: DetectedMarker = { id: 333, corners: detections[0]!.corners };
    const result = (await Locator.create(profile, scenario)).locate([...few, stranger]);
    expect(result.table).toBeNull();
    expect(result.bases).toEqual([]);
    expect(result.unknownIds).toEqual([333]);
  });
});
