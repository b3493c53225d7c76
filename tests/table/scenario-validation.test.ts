import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, parseScenarioText, ScenarioError } from '../../src/table/scenario.ts';

const demoText = readFileSync('scenarios/prestonpans-demo.json', 'utf8');
type UnitJson = Record<string, unknown> & { bases: Array<Record<string, unknown>> };
const demo = () => JSON.parse(demoText) as Record<string, unknown> & { units: UnitJson[] };

function refusal(value: unknown): ScenarioError {
  try {
    parseScenario(value, 'test scenario');
  } catch (err) {
    if (err instanceof ScenarioError) return err;
    throw err;
  }
  throw new Error('scenario was accepted');
}

describe('scenario files', () => {
  it('loads the demo, converting to millimetres', () => {
    const s = parseScenarioText(demoText);
    expect(s.units.length).toBeGreaterThanOrEqual(6);
    expect(s.table.widthMm).toBeCloseTo(72 * 25.4, 6);
    expect(s.units.flatMap((u) => u.bases).every((b) => b.marker.heightMm === 3)).toBe(true);
  });

  it('converts inch files to millimetres', () => {
    const file = demo();
    file.lengthUnit = 'in';
    file.table = { width: 72, depth: 48 };
    file.referenceMarkers = [0, 1, 2, 3].map((id) => ({ id, x: id, y: 1, size: 3 }));
    file.units = [
      {
        id: 'u',
        name: 'U',
        side: 'jacobite',
        type: 'infantry',
        bases: [{ width: 2, depth: 1.5, marker: { id: 9, size: 1 } }],
      },
    ];
    const s = parseScenario(file);
    expect(s.table.depthMm).toBeCloseTo(1219.2, 6);
    expect(s.units[0]!.bases[0]!.widthMm).toBeCloseTo(50.8, 6);
    // The default marker height is a physical 3 mm, not 3 of the file's unit.
    expect(s.units[0]!.bases[0]!.marker.heightMm).toBe(3);
  });

  it('refuses a duplicate marker id, naming the field and both owners', () => {
    const file = demo();
    file.units[1]!.bases[0]!.marker = { id: 10, size: 32 };
    const err = refusal(file);
    expect(err.issues.map((i) => i.path)).toContain('units.1.bases.0.marker.id');
    expect(err.message).toMatch(/marker id 10 is used twice/);
    expect(err.message).toMatch(/Lee's base 1/);
  });

  it('refuses an unknown field, naming it', () => {
    const file = demo();
    (file.units[0]!.bases[0] as Record<string, unknown>).colour = 'red';
    const err = refusal(file);
    expect(err.message).toMatch(/units\.0\.bases\.0: unknown field\(s\): colour/);
  });

  it('refuses a negative base size, naming the field', () => {
    const file = demo();
    file.units[2]!.bases[1]!.width = -40;
    const err = refusal(file);
    expect(err.issues).toEqual([{ path: 'units.2.bases.1.width', message: 'base width must be > 0' }]);
  });

  it('refuses malformed JSON with a clear reason', () => {
    expect(() => parseScenarioText('{"name": ', 'broken.json')).toThrow(/broken.json is not valid JSON/);
  });

  it('refuses a marker larger than its base and an unknown side', () => {
    const file = demo();
    file.units[0]!.bases[0]!.marker = { id: 10, size: 45 };
    (file.units[3] as unknown as Record<string, unknown>).side = 'french';
    const err = refusal(file);
    expect(err.issues.map((i) => i.path)).toEqual(
      expect.arrayContaining(['units.0.bases.0.marker.size', 'units.3.side']),
    );
  });

  it('issue 15.2: refuses a marker id outside the dictionary, naming the dictionary and its range', () => {
    const file = demo(); // AprilTag 36h11: ids 0–586
    file.units[1]!.bases[0]!.marker = { id: 587, size: 32 };
    (file.referenceMarkers as Array<Record<string, unknown>>)[2]!['id'] = 1000;
    const err = refusal(file);
    expect(err.issues).toEqual(
      expect.arrayContaining([
        {
          path: 'units.1.bases.0.marker.id',
          message: 'marker id 587 is not in apriltag_36h11 (its ids are 0–586)',
        },
        {
          path: 'referenceMarkers.2.id',
          message: 'marker id 1000 is not in apriltag_36h11 (its ids are 0–586)',
        },
      ]),
    );
    const mip = demo();
    mip['markerDictionary'] = 'aruco_mip_36h12';
    mip.units[0]!.bases[0]!.marker = { id: 250, size: 32 };
    expect(refusal(mip).message).toMatch(/marker id 250 is not in aruco_mip_36h12 \(its ids are 0–249\)/);
    mip.units[0]!.bases[0]!.marker = { id: 249, size: 32 };
    expect(() => parseScenario(mip)).not.toThrow();
  });

  it('issue 15.2: every scenario shipped in scenarios/ keeps its markers inside its dictionary', () => {
    for (const name of readdirSync('scenarios').filter((f) => f.endsWith('.json')))
      expect(() => parseScenarioText(readFileSync(`scenarios/${name}`, 'utf8'), name)).not.toThrow();
  });
});
