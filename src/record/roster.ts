import { z } from 'zod';
import type { Scenario } from '../table/scenario.ts';
import type { BattleRoster } from './types.ts';

/** The replay's view of a scenario: units, their bases' sizes and marker heights, sides and table. */
export function rosterOf(scenario: Scenario): BattleRoster {
  return {
    scenario: scenario.name,
    ruleset: scenario.ruleset,
    table: { widthMm: scenario.table.widthMm, depthMm: scenario.table.depthMm },
    sides: scenario.sides.map((s) => ({ id: s.id, name: s.name, colour: s.colour })),
    units: scenario.units.map((u) => ({
      id: u.id,
      name: u.name,
      side: u.side,
      type: u.type,
      bases: u.bases.map((b) => ({
        markerId: b.marker.id,
        widthMm: b.widthMm,
        depthMm: b.depthMm,
        topMm: b.marker.heightMm,
      })),
    })),
  };
}

const finite = z.number().finite();

/** Validates a roster read from a file (imports). */
export const rosterSchema = z.strictObject({
  scenario: z.string().min(1),
  ruleset: z.string().min(1),
  table: z.strictObject({ widthMm: finite.positive(), depthMm: finite.positive() }),
  sides: z.array(z.strictObject({ id: z.string().min(1), name: z.string(), colour: z.string() })),
  units: z.array(
    z.strictObject({
      id: z.string().min(1),
      name: z.string(),
      side: z.string(),
      type: z.string(),
      bases: z.array(
        z.strictObject({
          markerId: z.number().int().nonnegative(),
          widthMm: finite.positive(),
          depthMm: finite.positive(),
          topMm: finite.nonnegative(),
        }),
      ),
    }),
  ),
});

/** marker id → unit id */
export function unitsByMarker(roster: BattleRoster): Map<number, { unitId: string; side: string }> {
  const out = new Map<number, { unitId: string; side: string }>();
  for (const u of roster.units) for (const b of u.bases) out.set(b.markerId, { unitId: u.id, side: u.side });
  return out;
}
