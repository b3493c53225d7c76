import type { RecordableFrame } from '../../src/record/live-recording.ts';
import type { Scenario, UnitSpec } from '../../src/table/scenario.ts';
import { box, IN } from '../rules/black-powder/fixtures.ts';
import { twoSidedScenario } from '../rules/fixtures.ts';
import { FramePicture } from '../../src/vision/frame-picture.ts';

/**
 * A Black Powder charge for recording tests: target T (blue, 10" wide, facing +y) and charger C,
 * whose leader stands by T's left flank at the turn mark (`scenarioThen`) and in T's front
 * quarter after moving (`scenarioNow`). Same markers in both.
 */
export const target = box('T', 60, 70, 30, 31.5, { side: 'blue' });
/** The charger (2" wide) with its leader (front centre) at (x, y) inches, facing +y. */
const chargerAt = (x: number, y: number): UnitSpec => ({ ...box('C', x - 1, x + 1, y - 1.5, y), id: 'C' });
export const start = chargerAt(53, 31); // by the target's left flank at the turn mark
export const moved = (): UnitSpec => {
  // Same markers, the leader now at (65, 39): in the target's front quarter.
  const now = chargerAt(65, 39);
  return { ...start, bases: start.bases.map((b, i) => ({ ...b, pose: now.bases[i]!.pose! })) };
};
export const scenarioThen = twoSidedScenario(
  'live history',
  'black-powder',
  { widthMm: 144 * IN, depthMm: 72 * IN },
  [target, start],
);
export const scenarioNow: Scenario = { ...scenarioThen, units: [target, moved()] };

/** A frame of the recorder's shape in which every base stands at its pose in `s`, seen. */
export function recordable(s: Scenario, at: number): RecordableFrame {
  return {
    picture: FramePicture.ofJpeg(Buffer.alloc(0)),
    snapshot: {
      result: {
        capturedAt: at,
        bases: s.units.flatMap((u) =>
          u.bases.map((b) => ({
            markerId: b.marker.id,
            x: b.pose!.x,
            y: b.pose!.y,
            headingDeg: b.pose!.headingDeg,
            sigmaMm: 0.5,
            sigmaHeadingDeg: 0.3,
            seen: true,
          })),
        ),
        located: {
          table: { pose: { rotation: [1, 0, 0, 0, 1, 0, 0, 0, 1], translation: [0, 0, 1000] } },
        },
      },
    },
  } as RecordableFrame;
}

/** `scenarioNow` as a scenario file (mm), for the CLI: the charger where it ends up. */
export function scenarioNowFile(): Record<string, unknown> {
  const s = scenarioNow;
  return {
    name: s.name,
    ruleset: s.ruleset,
    lengthUnit: 'mm',
    table: { width: s.table.widthMm, depth: s.table.depthMm },
    referenceMarkers: [
      { id: 0, x: 50, y: 50, size: 60 },
      { id: 1, x: s.table.widthMm - 50, y: 50, size: 60 },
      { id: 2, x: s.table.widthMm - 50, y: s.table.depthMm - 50, size: 60 },
    ],
    sides: s.sides,
    units: s.units.map((u) => ({
      id: u.id,
      name: u.name,
      side: u.side,
      type: u.type,
      bases: u.bases.map((b) => ({
        width: b.widthMm,
        depth: b.depthMm,
        marker: { id: b.marker.id, size: b.marker.sizeMm, height: b.marker.heightMm },
        pose: b.pose,
      })),
    })),
  };
}
