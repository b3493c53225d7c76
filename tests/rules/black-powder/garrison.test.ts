import { describe, expect, it } from 'vitest';
import { buildingFacings, garrisonShotVerdict } from '../../../src/rules/black-powder/garrison.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { box, ctxOf, IN, rectPoly, table } from './fixtures.ts';

const farm = { id: 'farm', name: 'the farm', kind: 'building' as const, polygon: rectPoly(-4, 4, -3, 3) };

describe('a building garrison shoots from the centre of each facing', () => {
  it('four facings, named by compass, centred on the walls', () => {
    const st = table([], [farm]);
    const f = buildingFacings(st.terrain[0]!);
    expect(f.map((x) => x.name).sort()).toEqual([
      'east facing',
      'north facing',
      'south facing',
      'west facing',
    ]);
    const north = f.find((x) => x.name === 'north facing')!;
    expect(north.centre.x / IN).toBeCloseTo(0, 6);
    expect(north.centre.y / IN).toBeCloseTo(3, 3);
  });

  it('range from the facing that sees the target, not from the leader', () => {
    const st = table(
      [
        box('G', -3, 3, -1, 1, { weapon: 'smoothbore musket' }),
        box('E', 10, 16, -1, 1, { side: 'blue', headingDeg: 90 }),
      ],
      [farm],
    );
    const v = garrisonShotVerdict(ctxOf(st), findUnit(st, 'G'), findUnit(st, 'E'));
    expect(v.facts.facing).toBe('east facing');
    expect(v.value).toBeCloseTo(6, 2); // east wall x = 4 → enemy at x = 10
    expect(v.answer).toBe('yes');
    // Far to the north-east, out of every facing's reach of 18".
    const far = table([box('G', -3, 3, -1, 1), box('E', 20, 26, 20, 22, { side: 'blue' })], [farm]);
    expect(garrisonShotVerdict(ctxOf(far), findUnit(far, 'G'), findUnit(far, 'E')).answer).toBe('no');
  });

  it('a unit outside any building is not a garrison', () => {
    const st = table([box('G', 10, 16, 10, 11.5), box('E', 10, 16, 20, 21.5, { side: 'blue' })], [farm]);
    expect(garrisonShotVerdict(ctxOf(st), findUnit(st, 'G'), findUnit(st, 'E')).answer).toBe('no');
  });
});
