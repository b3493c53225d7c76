import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import {
  matLayout,
  matScenarioSnippet,
  parseLengthMm,
  type MatScenarioSnippet,
} from '../../src/print/mat.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { renderScene, type SynthFrame } from '../../src/synth/render.ts';
import type { PoseOverrides } from '../../src/synth/scene.ts';
import { parseScenario, type Scenario } from '../../src/table/scenario.ts';
import { MarkerDetector, type DetectedMarker } from '../../src/vision/detector.ts';
import { Locator, type LocatorResult } from '../../src/vision/locator.ts';

/**
 * The table pose from a printed mat: the demo's units on a 72 × 48 in mat whose reference markers
 * come from `vedette print mat`'s scenario snippet (ids from 100, clear of the demo's bases),
 * rendered by the synthetic table. Several mat markers are hidden under bases standing on them or
 * simply not seen, and one (or three) are wrong in the scenario the Locator is given — as if the
 * snippet were mistyped or the mat printed shifted. Every base must still be within 1 mm of the
 * truth, and exactly the wrong markers rejected.
 */

const demoFile = JSON.parse(readFileSync('scenarios/prestonpans-demo.json', 'utf8')) as Record<
  string,
  unknown
>;
const TABLE = { widthMm: 1828.8, depthMm: 1219.2 };

function matSnippet(spacing: string): MatScenarioSnippet {
  const layout = matLayout({ table: TABLE, cells: 8, firstId: 100, spacingMm: parseLengthMm(spacing) });
  return matScenarioSnippet(layout, 'apriltag_36h11');
}

/** The scenario with the mat's reference markers, some moved by (dx, dy) mm. */
function withMat(
  snippet: MatScenarioSnippet,
  moved: Record<number, { dx: number; dy: number }> = {},
): Scenario {
  return parseScenario({
    ...demoFile,
    ...snippet,
    referenceMarkers: snippet.referenceMarkers.map((m) =>
      moved[m.id] ? { ...m, x: m.x + moved[m.id]!.dx, y: m.y + moved[m.id]!.dy } : m,
    ),
  });
}

function worstBaseError(frame: SynthFrame, result: LocatorResult): number {
  expect(result.bases).toHaveLength(frame.truth.bases.length);
  return Math.max(
    ...frame.truth.bases.map((t) => {
      const m = result.bases.find((b) => b.markerId === t.markerId)!;
      return Math.hypot(m.x - t.centreMm.x, m.y - t.centreMm.y);
    }),
  );
}

/** Locates once to warm up, then times `runs` more frames with the same detections. */
function timed(
  locator: Locator,
  detections: readonly DetectedMarker[],
  runs = 10,
): { result: LocatorResult; ms: number } {
  let result = locator.locate(detections);
  const t0 = performance.now();
  for (let i = 0; i < runs; i++) result = locator.locate(detections);
  return { result, ms: (performance.now() - t0) / runs };
}

async function renderAndDetect(scenario: Scenario, poses: PoseOverrides) {
  const camera = frameTable(scenario.table);
  const frame = await renderScene(scenario, camera, { seed: 21, poses });
  const detector = await MarkerDetector.create({ dictionary: 'apriltag_36h11' });
  const detections = detector.detect({ ...frame.image, channels: 3 });
  detector.dispose();
  return { camera, profile: syntheticCameraProfile(camera), frame, detections };
}

describe('table pose from a printed mat: 20 markers at 12 in', () => {
  const snippet = matSnippet('12in');
  const truthScenario = withMat(snippet);
  const at = (id: number) => snippet.referenceMarkers.find((m) => m.id === id)!;
  // Three bases stand on mat markers 103, 109 and 114; markers 100 and 117 are not seen at all.
  const underUnits = [103, 109, 114];
  const poses: PoseOverrides = {
    10: { x: at(103).x, y: at(103).y, headingDeg: 0 },
    20: { x: at(109).x, y: at(109).y, headingDeg: 90 },
    30: { x: at(114).x + 5, y: at(114).y - 4, headingDeg: 180 },
  };
  const unseen = [100, 117];
  let ctx: Awaited<ReturnType<typeof renderAndDetect>>;
  let visible: DetectedMarker[];

  beforeAll(async () => {
    ctx = await renderAndDetect(truthScenario, poses);
    visible = ctx.detections.filter((d) => !unseen.includes(d.id));
  });

  it('renders the mat: every uncovered mat marker is found, the covered ones are not', () => {
    const ids = new Set(ctx.detections.map((d) => d.id));
    for (const m of snippet.referenceMarkers)
      expect(ids.has(m.id), `mat marker ${m.id}`).toBe(!underUnits.includes(m.id));
  });

  it('measures every base within 1 mm with five mat markers hidden', async () => {
    const { result, ms } = timed(await Locator.create(ctx.profile, truthScenario), visible);
    expect(result.table!.referenceIds).toHaveLength(15);
    expect(result.table!.rejectedIds).toEqual([]);
    const worst = worstBaseError(ctx.frame, result);
    console.log(
      `mat 20, 5 hidden: worst base error ${worst.toFixed(3)} mm, locator ${ms.toFixed(1)} ms/frame`,
    );
    expect(worst).toBeLessThan(1);
  });

  it('rejects the one mat marker the scenario puts 20 mm from where it is, and still measures within 1 mm', async () => {
    const wrong = withMat(snippet, { 106: { dx: 20, dy: 0 } });
    const { result, ms } = timed(await Locator.create(ctx.profile, wrong), visible);
    expect(result.table!.rejectedIds).toEqual([106]);
    expect(result.table!.referenceIds).toHaveLength(14);
    expect(result.table!.status).toBe('stable');
    const worst = worstBaseError(ctx.frame, result);
    console.log(
      `mat 20, 5 hidden, 1 misplaced: worst base error ${worst.toFixed(3)} mm, rms ${result.table!.rmsPx.toFixed(3)} px, locator ${ms.toFixed(1)} ms/frame`,
    );
    expect(worst).toBeLessThan(1);
  });

  it('rejects a misread: a marker decoded with another mat marker’s id', async () => {
    // Marker 105 read as 111 (which is also seen): two sightings of 111, one of them far off.
    const misread = visible.map((d) => (d.id === 105 ? { ...d, id: 111 } : d));
    const { result } = timed(await Locator.create(ctx.profile, truthScenario), misread, 2);
    expect(result.table).not.toBeNull();
    expect(result.table!.rejectedIds).toEqual([111]);
    expect(worstBaseError(ctx.frame, result)).toBeLessThan(1);
  });
});

describe('table pose from a printed mat: 40 markers at 6 in, several hidden, three misplaced', () => {
  const snippet = matSnippet('6in');
  it('rejects exactly the three wrong markers and measures within 1 mm (its time is printed, not tested)', async () => {
    expect(snippet.referenceMarkers).toHaveLength(40);
    const ctx = await renderAndDetect(withMat(snippet), {});
    const hidden = [101, 104, 108, 111, 115, 120, 127, 133];
    const visible = ctx.detections.filter((d) => !hidden.includes(d.id));
    const misplaced = { 102: { dx: 0, dy: 25 }, 106: { dx: -15, dy: 10 }, 125: { dx: 12, dy: 0 } };
    const { result, ms } = timed(await Locator.create(ctx.profile, withMat(snippet, misplaced)), visible);
    expect([...result.table!.rejectedIds].sort()).toEqual([102, 106, 125]);
    expect(result.table!.referenceIds).toHaveLength(40 - hidden.length - 3);
    const worst = worstBaseError(ctx.frame, result);
    console.log(
      `mat 40, ${hidden.length} hidden, 3 misplaced: worst base error ${worst.toFixed(3)} mm, locator ${ms.toFixed(1)} ms/frame`,
    );
    expect(worst).toBeLessThan(1);
  });
});
