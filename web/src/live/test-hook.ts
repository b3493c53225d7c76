import type { Pixel } from '../../../src/camera/projection.ts';
import type { StateMessage } from '../../../src/server/protocol.ts';
import type { AskResponse } from '../../../src/server/referee-routes.ts';
import type { TableThreatResponse, ThreatResponse } from '../../../src/server/threat-routes.ts';
import type { ScenarioFile } from '../../../src/table/scenario.ts';
import type { OverlayKind } from '../core/table-overlays.ts';
import type { UnitLabel } from '../render/picture.ts';

/**
 * A small read-only window into the page for browser tests (and for curious users in the
 * console): tests click where a unit is drawn without knowing any geometry.
 */
export interface VedetteTestHook {
  /** The most recent state message received. */
  readonly lastState: StateMessage | null;
  /** The frame counter of the state drawn on screen now, or null before the first frame. */
  readonly shownFrame: number | null;
  /** How many frames (picture + state) have been drawn. */
  readonly framesShown: number;
  /** The picture drawn now, in its own pixels (the server scales it to the canvas), and the canvas's width. */
  readonly pictureSize: {
    readonly width: number;
    readonly height: number;
    readonly canvasWidth: number;
  } | null;
  readonly selection: readonly string[];
  /** The distance line drawn on screen now (with its validity), or null when none is drawn. */
  readonly drawnMeasurement: { readonly a: string; readonly b: string; readonly valid: boolean } | null;
  /**
   * A point inside the unit's footprint as drawn now, in CSS pixels relative to the viewport
   * (ready for a mouse click or a tap), or null if the unit is not drawn.
   */
  unitScreenCentre(unitId: string): { x: number; y: number } | null;
  /** The referee's last answer drawn on the views. */
  readonly answer: AskResponse | null;
  /** The answer's units have moved since it was given (the card says so; its drawings are hidden). */
  readonly answerStale: boolean;
  /** Where each unit's name label was drawn in the main view (live picture, or tactical), CSS px. */
  readonly unitLabels: readonly UnitLabel[];
  /** The same in the tactical view. */
  readonly tacticalLabels: readonly UnitLabel[];
  /** 'live' | 'tactical' | 'split'. */
  readonly layout: string;
  /** Kinds of the referee overlays drawn now (terrain, quarter, range, los, shadow…). */
  readonly overlayKinds: readonly OverlayKind[];
  /** The scenario being watched, as the page read it. */
  readonly scenario: ScenarioFile | null;
  /** Each base's projected footprint corners in image pixels (rear-left, rear-right, front-right, front-left). */
  baseCorners(unitId: string): Array<{ markerId: number; corners: Pixel[] }> | null;
  /** Where a table point (mm) is on screen in the tactical view, CSS px relative to the viewport. */
  tacticalScreenPoint(x: number, y: number): { x: number; y: number };
  /** A point inside the unit in the tactical view, or null. */
  tacticalUnitCentre(unitId: string): { x: number; y: number } | null;
  /** The threat view: shown, which answer, the latest view and when it arrived (performance.now()). */
  readonly threats: {
    readonly on: boolean;
    readonly mode: string;
    readonly view: ThreatResponse | null;
    readonly receivedAt: number;
    /** The whole-table view, when asked for. */
    readonly table: TableThreatResponse | null;
  };
  /** The last 120 states' arrival times (performance.now()) and base positions, table mm. */
  readonly stateArrivals: ReadonlyArray<{
    readonly frame: number;
    readonly at: number;
    readonly bases: ReadonlyArray<{ readonly markerId: number; readonly x: number; readonly y: number }>;
  }>;
}

declare global {
  interface Window {
    __vedette?: VedetteTestHook;
  }
}

export function installTestHook(hook: VedetteTestHook): void {
  window.__vedette = hook;
}
