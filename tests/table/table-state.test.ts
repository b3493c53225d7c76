import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseScenario, parseScenarioText, ScenarioError } from '../../src/table/scenario.ts';
import { buildTableState, findUnit } from '../../src/table/table-state.ts';

const sampleText = readFileSync('scenarios/black-powder-sample.json', 'utf8');

describe('scenario rules attributes and terrain', () => {
  it('loads the Black Powder sample in inches, terrain converted to mm', () => {
    const s = parseScenarioText(sampleText);
    expect(s.ruleset).toBe('black-powder');
    const wall = s.terrain!.find((t) => t.id === 'wall')!;
    expect(wall.line![1]!.x).toBeCloseTo(66 * 25.4, 6);
    expect(s.terrain!.find((t) => t.kind === 'hill')!.heightMm).toBeCloseTo(2 * 25.4, 6);
    expect(s.units.find((u) => u.id === 'lees')!.weapon).toBe('smoothbore musket');
  });

  it('refuses a terrain area without a polygon and an unknown terrain field, naming them', () => {
    const file = JSON.parse(sampleText) as { terrain: Array<Record<string, unknown>> };
    delete file.terrain[0]!.polygon;
    file.terrain[1]!.colour = 'green';
    try {
      parseScenario(file);
      throw new Error('accepted');
    } catch (err) {
      expect(err).toBeInstanceOf(ScenarioError);
      const e = err as ScenarioError;
      expect(e.message).toMatch(/terrain\.0\.polygon: a wood needs a polygon/);
      expect(e.message).toMatch(/terrain\.1: unknown field\(s\): colour/);
    }
  });

  it('refuses an unknown formation value', () => {
    const file = JSON.parse(sampleText) as { units: Array<Record<string, unknown>> };
    file.units[0]!.formation = 'phalanx';
    expect(() => parseScenario(file)).toThrow(/units\.0\.formation/);
  });
});

describe('TableState', () => {
  const scenario = parseScenarioText(sampleText);

  it('builds units with leader, frontage and a recognised formation from file poses', () => {
    const st = buildTableState(scenario);
    const lees = findUnit(st, "lee's");
    expect(lees.frontage / 25.4).toBeCloseTo(8, 6);
    expect(lees.leader.x / 25.4).toBeCloseTo(24, 6);
    expect(lees.leader.y / 25.4).toBeCloseTo(10.8, 6);
    expect(findUnit(st, 'murrays').recognised.formation).toBe('line');
    expect(findUnit(st, 'stuarts').recognised.formation).toBe('skirmish');
    const gun = findUnit(st, 'Royal Artillery');
    expect(gun.barrel!.tip.y / 25.4).toBeCloseTo(13.2, 6);
    expect(st.commanders.map((c) => c.name).sort()).toEqual(['Cope', 'Lord George Murray']);
    expect(st.terrain).toHaveLength(5);
  });

  it('measured poses override file poses and carry their uncertainty', () => {
    const lees = scenario.units.find((u) => u.id === 'lees')!;
    const poses = new Map(
      lees.bases.map((b) => [b.marker.id, { ...b.pose!, y: b.pose!.y + 10, sigmaMm: 2, sigmaHeadingDeg: 1 }]),
    );
    const st = buildTableState(scenario, poses);
    const u = findUnit(st, 'lees');
    expect(u.leader.y).toBeCloseTo(10.8 * 25.4 + 10, 6);
    expect(u.sigmaMm).toBe(2);
  });

  it('a unit with no located base is listed as missing', () => {
    const st = buildTableState(scenario, new Map(), { fallBackToFilePoses: false });
    expect(st.units).toHaveLength(0);
    expect(st.missing.length).toBe(scenario.units.length);
  });

  it('recognises attack and march columns', () => {
    const col = (files: number, ranks: number) =>
      Array.from({ length: files * ranks }, (_, i) => ({
        width: 40,
        depth: 40,
        marker: { id: 500 + i, size: 30 },
        pose: { x: 1000 + (i % files) * 40, y: 500 - Math.floor(i / files) * 40, headingDeg: 0 },
      }));
    const file = JSON.parse(sampleText) as { units: unknown[]; lengthUnit: string };
    const mk = (bases: unknown) => ({
      ...file,
      lengthUnit: 'mm',
      table: { width: 2000, depth: 2000 },
      referenceMarkers: [0, 1, 2].map((id) => ({ id, x: id, y: 0, size: 10 })),
      terrain: [],
      units: [{ id: 'c', name: 'C', side: 'jacobite', type: 'infantry', bases }],
    });
    expect(findUnit(buildTableState(parseScenario(mk(col(2, 2)))), 'C').recognised.formation).toBe(
      'attackColumn',
    );
    expect(findUnit(buildTableState(parseScenario(mk(col(1, 4)))), 'C').recognised.formation).toBe(
      'marchColumn',
    );
  });
});
