import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { frameTable } from '../../../src/synth/camera.ts';
import { LiveSyntheticTable } from '../../../src/synth/live-table.ts';
import { parseScenarioText } from '../../../src/table/scenario.ts';
import { defaultMovingUnit, SyntheticSource } from '../../../src/vision/sources/synthetic-source.ts';

const demo = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'), 'demo');

describe('SyntheticSource', () => {
  it("draws later frames into the pixels given back, and they are the renderer's frames all the same", async () => {
    const source = await SyntheticSource.create(demo, { moving: false, resolution: '720p' });
    // The same renderer with the demo camera's options, in this thread, as the reference (a still
    // table: its noise key is the frame's sequence).
    const reference = await LiveSyntheticTable.create(demo, frameTable(demo.table, { resolution: '720p' }), {
      noiseBank: true,
      pointSampledInk: true,
      movingUnitId: defaultMovingUnit(demo),
    });
    try {
      for (let k = 0; k < 8; k++) {
        const frame = await source.next();
        const expected = reference.frameWithPoses({}, frame.sequence).image.data;
        expect(Buffer.compare(Buffer.from(frame.image.data), Buffer.from(expected)), `frame ${k}`).toBe(0);
        frame.image.data.fill(7); // as if the overlay had scribbled on it: the renderer must redraw all of it
        source.recycle(frame.image.data);
        // Given back: transferred to the renderer, no longer ours.
        expect(frame.image.data.byteLength).toBe(0);
      }
    } finally {
      await source.close();
    }
  });
});
