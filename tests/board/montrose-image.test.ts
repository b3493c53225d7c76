import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { getRuleset } from '../../src/rules/index.ts';
import type { Ruleset } from '../../src/rules/engine/ruleset.ts';
import type { Verdict } from '../../src/rules/engine/verdict.ts';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { renderScene, type SynthFrame } from '../../src/synth/render.ts';
import { parseScenarioText } from '../../src/table/scenario.ts';
import { buildTableState, type BasePose, type TableState } from '../../src/table/table-state.ts';
import { VisionPipeline, type PipelineResult } from '../../src/vision/pipeline.ts';

/**
 * The Montrose sample map lying on a table with the counters of the second example of play,
 * rendered at 1080p by the synthetic camera, read back by the real vision pipeline, and every
 * counter snapped to a space from its measured position. The expected spaces are written here
 * by hand from the set-up (maps/montrose-demo.scenario.ts), not computed.
 */
const scenario = parseScenarioText(
  readFileSync('maps/montrose-demo.scenario.json', 'utf8'),
  'maps/montrose-demo.scenario.json',
);

const EXPECTED: Record<string, string> = {
  Argyll: 'inveraray',
  'Campbell Highlanders': 'inveraray',
  "Argyll's Highlanders": 'inveraray',
  MacColla: 'highland-nw-stirling',
  'Irish 1': 'highland-nw-stirling',
  'Irish 2': 'highland-nw-stirling',
  Montrose: 'stirling',
  'Royalist Horse': 'stirling',
  'Royalist Foot': 'stirling',
  Burleigh: 'aberdeen',
  'Aberdeen Foot 1': 'aberdeen',
  'Aberdeen Foot 2': 'aberdeen',
  Urry: 'edinburgh',
  "Urry's Horse": 'edinburgh',
  Leslie: 'newcastle',
};

describe('Montrose counters read from a rendered picture', () => {
  let frame: SynthFrame;
  let result: PipelineResult;
  let state: TableState;
  let montrose: Ruleset;
  const ask = (text: string, options: Record<string, string | number | boolean> = {}): Verdict => {
    const v = montrose.askText?.(state, text, options);
    if (!v) throw new Error(`not understood: ${text}`);
    return v;
  };

  beforeAll(async () => {
    const camera = frameTable(scenario.table, { resolution: '1080p' });
    const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
    frame = await renderScene(scenario, camera, { seed: 7 });
    result = pipeline.process({ image: { ...frame.image, channels: 3 }, capturedAt: 0, sequence: 1 });
    pipeline.dispose();
    // Only what the camera measured: no falling back on the file's poses.
    const poses = new Map<number, BasePose>(result.bases.map((b) => [b.markerId, b]));
    state = buildTableState(scenario, poses, { fallBackToFilePoses: false });
    const base = getRuleset(scenario.ruleset);
    montrose = base.forScenario ? base.forScenario(scenario) : base;
  });

  it('finds the table and every counter', () => {
    expect(result.located.table).not.toBeNull();
    expect(state.missing).toEqual([]);
    expect(result.bases.map((b) => b.markerId).sort((a, b) => a - b)).toEqual(
      frame.truth.bases.map((b) => b.markerId).sort((a, b) => a - b),
    );
  });

  it('puts every counter on its space', () => {
    const found: Record<string, string> = {};
    for (const name of Object.keys(EXPECTED)) {
      const v = ask(`where is '${name}'?`);
      found[name] = v.facts.status === 'placed' ? String(v.facts.space) : String(v.facts.status);
    }
    expect(found).toEqual(EXPECTED);
  });

  it('calls the counter left on the Edinburgh–Kelso route unclear, naming both spaces', () => {
    const v = ask("where is 'Stray Foot'?");
    expect(v.answer).toBe('borderline');
    expect(v.facts).toMatchObject({ status: 'unclear', candidates: 'edinburgh, kelso' });
    expect(ask("can 'Stray Foot' move to 'Edinburgh'?").answer).not.toBe('yes');
  });

  it("forbids a move the rules forbid: Argyll's Highlanders to Stirling costs 5 MP of 4", () => {
    const v = ask("can 'Campbell Highlanders' move to 'Stirling'?");
    expect(v.answer).toBe('no');
    expect(v.facts).toMatchObject({
      path: 'inveraray > highland-west > lennox > stirling',
      cost: 5,
      allowance: 4,
    });
  });

  it('forbids the Irish crossing the Royalist Limit before both Burghs fall, and allows it after', () => {
    expect(ask("can 'Irish 1' move to 'Perth'?").answer).toBe('yes');
    expect(ask("can 'Irish 2' move to 'Glasgow' via 'Stirling'?").answer).toBe('no');
    // Once Inveraray and Inverlochy have fallen: 2 MP through the friendly stack in Stirling.
    expect(
      ask("can 'Irish 2' move to 'Glasgow' via 'Stirling'?", { defeatedBurghs: 'Inveraray, Inverlochy' })
        .answer,
    ).toBe('yes');
  });

  it("allows a move the rules allow: Urry's Horse, Edinburgh → Linlithgow → Stirling, 2 MP of 6", () => {
    const v = ask("can \"Urry's Horse\" move to 'Stirling'?");
    expect(v.answer).toBe('yes');
    expect(v.facts).toMatchObject({ path: 'edinburgh > linlithgow > stirling', cost: 2, allowance: 6 });
  });
});
