import { makeBlocker, sightObstructions } from '../../geometry/line-of-sight.ts';
import { containsPoint } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { Hider } from '../../geometry/visibility.ts';
import type { TableState } from '../../table/table-state.ts';
import type { TerrainPiece } from '../../table/terrain.ts';

/** What a ruleset lets hide a line of sight: which terrain pieces, and whether units do. */
export interface SightRule {
  readonly terrain: (t: TerrainPiece) => boolean;
  readonly units: boolean;
}

/**
 * The first thing that hides `p` from `eye` under a ruleset's sight rule: terrain first, then
 * units (except those in `exclude`, the looker and the target). Terrain the eye or the point
 * stands in does not hide (a unit in a wood sees out of it, and is seen in it).
 */
export function firstHider(
  state: TableState,
  eye: Vec2,
  p: Vec2,
  exclude: ReadonlySet<string>,
  rule: SightRule,
): Hider | undefined {
  for (const t of state.terrain) {
    if (!t.polygon || !rule.terrain(t) || containsPoint(t.polygon, eye) || containsPoint(t.polygon, p))
      continue;
    const o = sightObstructions(eye, p, [makeBlocker(t.id, t.label, t.polygon)], true)[0];
    if (o) return { id: t.id, label: t.label, fromMm: o.fromMm, toMm: o.toMm };
  }
  if (!rule.units) return undefined;
  for (const u of state.units) {
    if (exclude.has(u.id)) continue;
    const blockers = u.allPolygons.map((poly) => makeBlocker(u.id, u.name, poly));
    const o = sightObstructions(eye, p, blockers, true)[0];
    if (o) return { id: u.id, label: u.name, fromMm: o.fromMm, toMm: o.toMm };
  }
  return undefined;
}
