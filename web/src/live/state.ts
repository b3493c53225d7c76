import type { StateMessage } from '../../../src/server/protocol.ts';
import type { AskResponse } from '../../../src/server/referee-routes.ts';
import type { ScenarioFile } from '../../../src/table/scenario.ts';
import type { ConnectionStatus } from '../core/connection.ts';
import type { ThreatMode } from '../core/threats.ts';
import type { TableThreatResponse, ThreatResponse } from '../../../src/server/threat-routes.ts';
import type { DisplayUnit } from '../core/lengths.ts';
import type { Zone } from '../core/rulesets.ts';
import { emptySelection, type Selection } from '../core/selection.ts';
import { defaultToggles, type OverlayToggles } from '../core/table-overlays.ts';

/**
 * The live page's headless state (chessground's `state.ts`): everything the views draw from, in
 * one object with its defaults in one function. Views read it; only main.ts changes it.
 */

export type Layout = 'live' | 'tactical' | 'split';

export interface Shown {
  readonly picture: ImageBitmap | null;
  readonly state: StateMessage;
  /** performance.now() when it was shown. */
  readonly at: number;
}

export interface LiveState {
  selection: Selection;
  /** The most recent state message. */
  lastState: StateMessage | null;
  /** The frame on screen (picture and the state computed from it). */
  shown: Shown | null;
  answer: AskResponse | null;
  answerStale: boolean;
  toggles: OverlayToggles;
  scenario: ScenarioFile | null;
  connection: ConnectionStatus;
  layout: Layout;
  /** The chosen ruleset's unit and zone. */
  unit: DisplayUnit;
  zone: Zone | null;
  rulesetNames: Readonly<Record<string, string>>;
  /** The threat view: shown, which answer, and the latest view from the server. */
  threats: { on: boolean; mode: ThreatMode; view: ThreatResponse | null; table: TableThreatResponse | null };
}

export function defaultLiveState(): LiveState {
  return {
    selection: emptySelection,
    lastState: null,
    shown: null,
    answer: null,
    answerStale: false,
    toggles: defaultToggles(),
    scenario: null,
    connection: { phase: 'connecting', retryAt: null, attempts: 0 },
    layout: 'live',
    unit: 'in',
    zone: null,
    rulesetNames: {},
    threats: { on: false, mode: 'shoot', view: null, table: null },
  };
}

/** The state to draw: the one on screen, else the latest. */
export const currentState = (s: LiveState): StateMessage | null => s.shown?.state ?? s.lastState;

export function unitName(s: LiveState, id: string): string {
  return (
    s.lastState?.units.find((u) => u.id === id)?.name ??
    s.scenario?.units.find((u) => u.id === id)?.name ??
    id
  );
}
