import type { FaceName } from '../../geometry/face-contact.ts';
import { enemiesOf, friendsOf } from '../../table/table-state.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { contactsOf } from './contacts.ts';
import { BP, inches, mmOf, type BpContext } from './context.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * Contact as the supports rules read it, three-valued: a base within contactToleranceIn of a face
 * touches it, and whether it does is too close to call when the gap is within the pose band of
 * that tolerance (a firm touch is inside tolerance − band, a firm miss beyond tolerance + band).
 * Along the face too: a firm touch runs more than the band along it, and a base that stops within
 * the band of the face's end may touch it (an enemy at the front whose corner reaches the flank
 * face's line past the corner: a turn within the heading error makes it a flank contact).
 */
export type Tri = 'yes' | 'maybe' | 'no';

export interface Touch {
  /** Judged at the tolerance itself: what the bare numbers say. */
  readonly lean: boolean;
  readonly tri: Tri;
}

const NONE: Touch = { lean: false, tri: 'no' };

/** Faces of `unit` touched by any of `among` (only `faces`), at the tolerance and at ± the pose band. */
export function touches(
  ctx: BpContext,
  unit: TableUnit,
  among: readonly TableUnit[],
  faces: readonly FaceName[],
): Touch {
  if (among.length === 0) return NONE;
  const sigma = hypot(unit.sigmaMm, Math.max(...among.map((u) => u.sigmaMm)));
  const band = inches(BP.bandMm(ctx, sigma));
  const tol = ctx.options.contactToleranceIn;
  const bandMm = mmOf(band);
  const at = (t: number, minStretchMm?: number): boolean =>
    t >= 0 &&
    contactsOf(
      { ...ctx, options: { ...ctx.options, contactToleranceIn: t } },
      unit,
      among,
      minStretchMm,
    ).some((c) => faces.includes(c.face));
  const lean = at(tol);
  if (band > 0 ? at(tol - band, bandMm) : lean) return { lean, tri: 'yes' };
  if (band > 0 ? at(tol + band, -bandMm) : lean) return { lean, tri: 'maybe' };
  return { lean, tri: 'no' };
}

const ALL: readonly FaceName[] = ['front', 'right', 'rear', 'left'];

/** Is the unit in a fight: flagged engaged in the scenario, or touching an enemy on the table? */
export function engagedTouch(ctx: BpContext, u: TableUnit): Touch {
  if (u.engaged === true) return { lean: true, tri: 'yes' };
  return touches(ctx, u, enemiesOf(ctx.state, u), ALL);
}

/** Is E fighting to a flank or its rear (an enemy touching one of those faces)? */
export const flankOrRearEngaged = (ctx: BpContext, e: TableUnit): Touch =>
  touches(ctx, e, enemiesOf(ctx.state, e), ['left', 'right', 'rear']);

/**
 * Is E's flank `face` an inner one: touched by a friend that is itself engaged (units fighting
 * side by side are supported only on the outside)?
 */
export function innerFlank(ctx: BpContext, e: TableUnit, face: 'left' | 'right'): Touch {
  let lean = false;
  let tri: Tri = 'no';
  for (const f of friendsOf(ctx.state, e)) {
    const eng = engagedTouch(ctx, f);
    if (eng.tri === 'no' && !eng.lean) continue;
    const t = touches(ctx, e, [f], [face]);
    lean ||= eng.lean && t.lean;
    const both: Tri =
      eng.tri === 'no' || t.tri === 'no' ? 'no' : eng.tri === 'yes' && t.tri === 'yes' ? 'yes' : 'maybe';
    if (both === 'yes') tri = 'yes';
    else if (both === 'maybe' && tri === 'no') tri = 'maybe';
  }
  return { lean, tri };
}
