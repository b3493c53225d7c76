import { gapAlongLine, type Gap } from '../../geometry/gap.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { pick } from '../engine/options.ts';
import type { Verdict } from '../engine/verdict.ts';
import { inches, inStr, lengthVerdict, mmOf, poss, type BpContext, type Measured } from './context.ts';
import { gapObstacles } from './sight.ts';
import { GAP_CANNON, GAP_SMALL_ARMS, type Weapon } from './tables.ts';
import { hypot } from '../../geometry/hypot.ts';

/**
 * The gap the line of fire (eye → the nearest part of the target in range) passes through, if any,
 * with its two checks: wide enough to shoot through at all (the least gap for a cannon, or for
 * other shooters), and as wide as the shooter's frontage (a clear-target test).
 */
export function gapChecks(
  ctx: BpContext,
  shooter: TableUnit,
  target: TableUnit,
  eye: Vec2,
  range: Measured,
  gun: boolean,
  weapon: Weapon,
): { gap?: Gap; checks: Verdict[] } {
  const S = shooter.name;
  const minGap = gun && weapon.kind === 'cannon' ? GAP_CANNON : GAP_SMALL_ARMS;
  const g = gapAlongLine(
    eye,
    range.to,
    gapObstacles(ctx, new Set([shooter.id, target.id])),
    Math.max(shooter.frontage, mmOf(minGap)) + 1,
    ctx.options.gapReading,
  );
  if (!g) return { checks: [] };
  const width: Measured = {
    mm: g.width,
    sigmaMm: hypot(shooter.sigmaMm, target.sigmaMm),
    from: g.onLeft,
    to: g.onRight,
    fromName: g.left.label,
    toName: g.right.label,
  };
  return {
    gap: g,
    checks: [
      lengthVerdict(
        ctx,
        {
          question: 'gap',
          asked: `is the gap wide enough for ${S} to shoot through?`,
          reasons: [
            `the line of fire passes a ${inStr(g.width)} gap between ${g.left.label} and ${g.right.label}; ${gun ? 'a gun' : 'infantry and cavalry'} need ${minGap}"`,
          ],
          options: pick(ctx.options, 'gapReading'),
          facts: { gapIn: inches(g.width) },
        },
        width,
        'atLeast',
        minGap,
      ),
      lengthVerdict(
        ctx,
        {
          question: 'gapFrontage',
          asked: `is the gap at least as wide as ${poss(S)} frontage?`,
          role: 'modifier',
          reasons: [
            `seen through a ${inStr(g.width)} gap against ${poss(S)} ${inStr(shooter.frontage)} frontage`,
          ],
        },
        width,
        'atLeast',
        inches(shooter.frontage),
      ),
    ],
  };
}
