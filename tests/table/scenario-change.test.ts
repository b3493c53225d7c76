import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sameForVision, terrainChanges } from '../../src/table/scenario-change.ts';
import { parseScenario, type Scenario } from '../../src/table/scenario.ts';

const base = parseScenario(JSON.parse(readFileSync('scenarios/black-powder-sample.json', 'utf8')));
const wood = {
  id: 'wood-9',
  kind: 'wood' as const,
  name: 'Tranent Wood',
  polygon: [
    { x: 100, y: 100 },
    { x: 300, y: 100 },
    { x: 300, y: 200 },
  ],
};

describe('scenario changes', () => {
  it('a terrain edit or a new name keeps the camera; a marker or a base size does not', () => {
    const withWood: Scenario = { ...base, terrain: [...(base.terrain ?? []), wood] };
    expect(sameForVision(base, withWood)).toBe(true);
    expect(sameForVision(base, { ...base, name: 'Another name', ruleset: 'd3' })).toBe(true);
    const [first, ...rest] = base.units;
    const rebound = {
      ...first!,
      bases: first!.bases.map((b, i) => (i === 0 ? { ...b, marker: { ...b.marker, id: 999 } } : b)),
    };
    expect(sameForVision(base, { ...base, units: [rebound, ...rest] })).toBe(false);
    const wider = { ...first!, bases: first!.bases.map((b) => ({ ...b, widthMm: b.widthMm + 1 })) };
    expect(sameForVision(base, { ...base, units: [wider, ...rest] })).toBe(false);
    expect(sameForVision(base, { ...base, markerDictionary: 'aruco_4x4_250' })).toBe(false);
  });

  it('says which terrain was added, changed or removed, and where', () => {
    const withWood: Scenario = { ...base, terrain: [wood] };
    const added = terrainChanges({ ...base, terrain: [] }, withWood);
    expect(added).toEqual([{ text: 'Terrain added: Tranent Wood (wood)', at: { x: 700 / 3, y: 400 / 3 } }]);
    const moved = {
      ...withWood,
      terrain: [{ ...wood, polygon: wood.polygon.map((p) => ({ x: p.x + 10, y: p.y })) }],
    };
    expect(terrainChanges(withWood, moved).map((c) => c.text)).toEqual([
      'Terrain changed: Tranent Wood (wood)',
    ]);
    expect(terrainChanges(withWood, { ...base, terrain: [] }).map((c) => c.text)).toEqual([
      'Terrain removed: Tranent Wood (wood)',
    ]);
    expect(terrainChanges(withWood, withWood)).toEqual([]);
  });
});
