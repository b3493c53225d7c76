import { describe, expect, it } from 'vitest';
import type { StateMessage, UnitView } from '../../../src/server/protocol.ts';
import type { TableThreatResponse, ThreatCell, ThreatResponse } from '../../../src/server/threat-routes.ts';
import {
  cellFor,
  threatShapes,
  ThreatPoller,
  toneOfCell,
  type ThreatQuery,
} from '../../../web/src/core/threats.ts';

/** The threat view's page logic: which lines it draws and when it asks the server again. */

function unit(id: string, side: string, x: number, y: number): UnitView {
  return {
    id,
    name: id.toUpperCase(),
    side,
    colour: '#fff',
    bases: [0, 1].map((i) => ({
      markerId: id.charCodeAt(0) * 10 + i,
      x: x + 40 * i,
      y,
      headingDeg: 0,
      widthMm: 40,
      depthMm: 40,
      topMm: 3,
      seen: true,
      sigmaMm: 0.5,
    })),
  };
}

function state(ax = 100, frame = 1): StateMessage {
  return {
    type: 'state',
    frame,
    timestamp: 0,
    table: { widthMm: 1800, depthMm: 1200 },
    camera: null,
    pose: null,
    poseStatus: 'stable',
    units: [unit('a', 'red', ax, 100), unit('b', 'blue', 500, 500), unit('c', 'blue', 900, 500)],
    detectionMs: 1,
    measurement: null,
  } as unknown as StateMessage;
}

const cell = (answer: 'yes' | 'no' | 'borderline'): ThreatCell =>
  ({
    verdict: { answer, lean: answer === 'yes' ? 'yes' : 'no', reasons: [], checks: [] },
  }) as unknown as ThreatCell;

const view: ThreatResponse = {
  unit: 'a',
  ruleset: 'prestonpans',
  frame: 1,
  kinds: ['shoot', 'charge'],
  pairs: [
    { enemy: 'b', name: 'B', from: { shoot: cell('yes'), charge: cell('borderline') }, shotBy: cell('no') },
    { enemy: 'c', name: 'C', from: { shoot: { refused: 'not an enemy in reach' }, charge: cell('no') } },
  ],
  ms: 3,
  asked: 6,
};

describe('threat lines', () => {
  it('one line per enemy, toned by the chosen answer; refusals are no; shot-by lines run from the enemy', () => {
    const s = state();
    const shoot = threatShapes(view, s, 'shoot');
    expect(shoot.map((x) => [x.kind, x.tone, x.label])).toStrictEqual([
      ['threat', 'yes', '✔'],
      ['threat', 'no', '✘'],
    ]);
    expect(threatShapes(view, s, 'charge').map((x) => x.tone)).toStrictEqual(['borderline', 'no']);
    // c has no shotBy answer: no line. b's line starts at b's centre (520, 520 over its two bases).
    const shotBy = threatShapes(view, s, 'shotBy');
    expect(shotBy).toHaveLength(1);
    expect(shotBy[0]!.points[0]).toStrictEqual({ x: 520, y: 500 });
    expect(shotBy[0]!.points[1]).toStrictEqual({ x: 120, y: 100 });
    expect(toneOfCell(cellFor(view.pairs[1]!, 'see'))).toBe('neutral');
  });
});

/** A server that notes every question and answers only when the test resolves it. */
function heldServer() {
  const asked: ThreatQuery[] = [];
  const pending: Array<(v: ThreatResponse) => void> = [];
  const fetchView = (q: ThreatQuery) => {
    asked.push(q);
    return new Promise<ThreatResponse>((resolve) => pending.push(resolve));
  };
  return { asked, pending, fetchView };
}

describe('ThreatPoller', () => {
  it('asks once per move beyond the camera uncertainty, never two at a time, and asks again for a change made meanwhile', async () => {
    const { asked, pending, fetchView } = heldServer();
    let shown = 0;
    const poller = new ThreatPoller(
      fetchView,
      () => shown++,
      () => 42,
    );
    const q: ThreatQuery = { unit: 'a', ruleset: undefined, options: {} };
    const settle = () => new Promise((r) => setTimeout(r, 0));
    poller.note(state(100, 1), q);
    poller.note(state(100, 2), q); // same poses: nothing new to ask
    expect(asked).toHaveLength(1);
    poller.note(state(300, 3), q); // moved while the first is out: wait
    expect(asked).toHaveLength(1);
    pending.shift()!(view);
    await settle();
    expect(poller.view).toBe(view);
    expect(poller.receivedAt).toBe(42);
    expect(asked).toHaveLength(2); // the move is asked for as soon as the first returns
    pending.shift()!(view);
    await settle();
    poller.note(state(300, 4), q);
    poller.note(state(301.5, 4), q); // 1.5 mm: within the camera's uncertainty (3 mm), nothing
    expect(asked).toHaveLength(2);
    poller.note(state(304, 4), q); // 4 mm: asked again
    expect(asked).toHaveLength(3);
    pending.shift()!(view);
    await settle();
    poller.note(state(304, 5), { ...q, options: { x: 1 } }); // options changed: ask
    expect(asked).toHaveLength(4);
    pending.shift()!(view);
    await settle();
    poller.note(state(300, 6), null); // unpicked: the view goes
    expect(poller.view).toBeNull();
    expect(shown).toBeGreaterThanOrEqual(4);
  });

  it('while units keep moving, waits as long again as the last view took; a new question is asked at once', async () => {
    const { asked, pending, fetchView } = heldServer();
    let clock = 0;
    const poller = new ThreatPoller(
      fetchView,
      () => undefined,
      () => clock,
    );
    const q: ThreatQuery = { unit: 'a', ruleset: undefined, options: {} };
    const settle = (ms = 0) => new Promise((r) => setTimeout(r, ms));
    poller.note(state(100, 1), q);
    clock = 60; // the view took 60 ms: no move is asked about before 120
    pending.shift()!(view);
    await settle();
    poller.note(state(200, 2), q);
    expect(asked).toHaveLength(1);
    clock = 90;
    await settle(40); // the timer (30 ms) finds the clock short of 120: still resting
    expect(asked).toHaveLength(1);
    clock = 120;
    await settle(60);
    expect(asked).toHaveLength(2); // asked once the rest is over, with no new state needed
    clock = 125;
    pending.shift()!(view); // took 5 ms: rest until 130
    await settle();
    poller.note(state(300, 3), { ...q, unit: 'b' }); // another unit: asked at once
    expect(asked.map((x) => x.unit)).toStrictEqual(['a', 'a', 'b']);
  });

  it("the whole table's poller asks again when only the kind changes", async () => {
    const asked: ThreatQuery[] = [];
    const poller = new ThreatPoller<TableThreatResponse>(
      async (q) => {
        asked.push(q);
        return { kind: q.kind } as TableThreatResponse;
      },
      () => undefined,
      () => 0,
      (v, q) => v.kind === q.kind,
    );
    poller.note(state(100, 1), { unit: null, kind: 'shoot', ruleset: undefined, options: {} });
    await new Promise((r) => setTimeout(r, 0));
    poller.note(state(100, 2), { unit: null, kind: 'charge', ruleset: undefined, options: {} });
    await new Promise((r) => setTimeout(r, 0));
    expect(asked.map((q) => q.kind)).toStrictEqual(['shoot', 'charge']);
    expect(poller.view?.kind).toBe('charge');
  });
});
