import { describe, expect, it } from 'vitest';
import type { Quad } from '../../src/vision/candidates.ts';
import type { FoundMarker } from '../../src/vision/finder-types.ts';
import type { AveragedLimits, AveragedMarker, StillMarkers } from '../../src/vision/still-markers.ts';
import { StillRemeasurer } from '../../src/vision/still-remeasure.ts';

/**
 * The limits round still tags fitted afresh (a step from a kept fit is tested with real fits in
 * kept-linearisation.test.ts and through the pipeline in pipeline-stop.test.ts): with no fit kept,
 * every due tag is fitted afresh, coarse ones up to 24 a frame, the others by time.
 */
const square = (u: number): Quad => [
  { u, v: 0 },
  { u: u + 10, v: 0 },
  { u: u + 10, v: 10 },
  { u, v: 10 },
];
const marker = (id: number): FoundMarker => ({
  id,
  corners: square(20 * id),
  stage: 'surround',
  evidence: 50,
});

/** A stand-in for StillMarkers offering `coarse` and `routine` tags due, every frame, within the limits asked. */
function dueEveryFrame(coarse: FoundMarker[], routine: FoundMarker[]) {
  const asked: AveragedLimits[] = [];
  const replaced: number[] = [];
  const still = {
    averagedDue(limits: AveragedLimits): Array<AveragedMarker<FoundMarker>> {
      asked.push(limits);
      return [
        ...coarse.slice(0, limits.coarse).map((value) => ({ value, frames: 2, coarse: true })),
        ...routine.slice(0, limits.routine).map((value) => ({ value, frames: 2, coarse: false })),
      ];
    },
    replace(value: FoundMarker): void {
      replaced.push(value.id);
    },
  };
  return { still: still as unknown as StillMarkers<FoundMarker>, asked, replaced };
}

function run(coarseCount: number, routineCount: number, frameGapsMs: number[]) {
  const coarse = Array.from({ length: coarseCount }, (_, i) => marker(i));
  const routine = Array.from({ length: routineCount }, (_, i) => marker(1000 + i));
  const { still, asked, replaced } = dueEveryFrame(coarse, routine);
  const fitted: number[] = [];
  const remeasurer = new StillRemeasurer({
    wanted: () => true,
    isCarried: () => false,
    fitAfresh: (_grey, m) => {
      fitted.push(m.id);
      return { ...m, corners: square(20 * m.id + 0.1) };
    },
  });
  const grey = { data: new Uint8Array(64 * 64), width: 64, height: 64 };
  const perFrame: Array<{ coarse: number; routine: number; stepped: number }> = [];
  let at = 0;
  for (const gap of frameGapsMs) {
    at += gap;
    remeasurer.nextFrame(at);
    const found = new Map([...coarse, ...routine].map((m) => [m.id, m]));
    remeasurer.run(grey, still, found, new Set(found.values()));
    perFrame.push(remeasurer.done);
  }
  return { perFrame, fitted, asked, replaced };
}

describe('still tags fitted afresh', () => {
  it('fits coarse tags first, up to 24 a frame, whatever the time between frames', () => {
    const { perFrame, asked } = run(40, 0, [33, 33, 1000]);
    expect(perFrame.map((c) => c.coarse)).toEqual([24, 24, 24]);
    expect(asked.every((l) => l.coarse === 24)).toBe(true);
  });

  it('fits routine tags with no fit kept by time: four a frame at 30 fps, up to 24 after a long gap', () => {
    const { perFrame, replaced } = run(0, 60, [1000, 33.4, 33.4, 33.4, 1000]);
    expect(perFrame.map((c) => c.routine)).toEqual([24, 4, 4, 4, 24]);
    expect(perFrame.every((c) => c.stepped === 0 && c.coarse === 0)).toBe(true);
    // What was fitted afresh replaces what the still markers kept.
    expect(replaced).toHaveLength(60);
  });

  it('asks for no more tags a frame than it may step', () => {
    const { asked } = run(0, 100, [33]);
    expect(asked[0]!.routine).toBe(64);
  });
});
