import { boxGap, boxOf, growBox, unionBox, type Box } from '../../geometry/box.ts';
import { facedBoxPolygon } from '../../geometry/faced-box.ts';
import { hypot } from '../../geometry/hypot.ts';
import { noteEnemiesLooked } from '../../geometry/look-record.ts';
import { enemiesOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { BP, mmOf, type BpContext } from './context.ts';
import { quarterBox } from './quarters.ts';
import { engagedTouch, type Touch } from './support-contacts.ts';

/**
 * engagedTouch, once per table and unit (every pair of a shooter, or of a target, asks it). Where
 * it looked is noted on every use (look-record.ts): an enemy moving within reach of touching this
 * one changes every shot it takes part in (a friend moving there does not).
 */
export function inCombat(ctx: BpContext, u: TableUnit): Touch {
  let byUnit = combats.get(ctx);
  if (!byUnit) combats.set(ctx, (byUnit = new WeakMap()));
  let c = byUnit.get(u);
  if (!c) {
    const sigma = Math.max(0, ...ctx.state.units.map((x) => x.sigmaMm));
    // contactsOf looks this far round the unit's faced box, at the tolerance plus the band.
    const reach = mmOf(ctx.options.contactToleranceIn) + BP.bandMm(ctx, hypot(u.sigmaMm, sigma)) + 1;
    const looked = growBox(unionBox([u.bounds, boxOf(facedBoxPolygon(quarterBox(ctx, u)))]), reach);
    // No enemy within that reach: contactsOf would pass every one over at every tolerance.
    const near = u.engaged === true || enemiesOf(ctx.state, u).some((e) => boxGap(e.bounds, looked) === 0);
    c = { touch: near ? engagedTouch(ctx, u) : NOT_TOUCHING, looked };
    byUnit.set(u, c);
  }
  noteEnemiesLooked(u.side, c.looked);
  return c.touch;
}

const NOT_TOUCHING: Touch = { lean: false, tri: 'no' };

const combats = new WeakMap<BpContext, WeakMap<TableUnit, { touch: Touch; looked: Box }>>();
