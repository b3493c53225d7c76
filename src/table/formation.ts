import { angleDiffDegrees } from '../geometry/angle.ts';
import { corners } from '../geometry/oriented-rect.ts';
import { polygonSeparation } from '../geometry/distance.ts';
import { facedBoxAround } from '../geometry/faced-box.ts';
import type { OrientedRect } from '../geometry/oriented-rect.ts';
import type { Vec2 } from '../geometry/vec.ts';
import type { BaseRole, Formation } from './scenario.ts';

export type RecognisedFormation = Formation | 'unknown';

export interface FormationInput {
  readonly type: 'infantry' | 'cavalry' | 'artillery' | 'commander';
  readonly bases: ReadonlyArray<{ readonly footprint: OrientedRect; readonly role?: BaseRole }>;
  /** Unit vector of the unit's facing. */
  readonly facing: Vec2;
  readonly headingDeg: number;
  readonly irregular?: boolean;
}

export interface FormationReading {
  readonly formation: RecognisedFormation;
  /** Ranks deep and files wide, in model rows, estimated from the footprint. */
  readonly ranks: number;
  readonly files: number;
  /** Why, in words. */
  readonly reason: string;
}

/** Depth of one rank and width of one file, mm (BP's recommended 28 mm basing). */
export const RANK_DEPTH_MM = { infantry: 20, cavalry: 50 } as const;
export const FILE_WIDTH_MM = { infantry: 20, cavalry: 25 } as const;

/**
 * Recognises a formation from how the bases stand. Shape rules (Black Powder's, which the other
 * horse-and-musket rulesets share in spirit): a line is two ranks (a three-deep line is still a
 * line if it is much wider than deep); an attack column is 3–6 ranks with at least as many files
 * as ranks; a march column has more ranks than files; a square has bases facing four ways;
 * skirmishers stand apart; a mixed unit has skirmisher bases ahead of a formed body.
 */
export function recogniseFormation(input: FormationInput): FormationReading {
  const bases = input.bases;
  if (input.type === 'artillery') {
    const gun = bases.find((b) => b.role === 'gun') ?? bases[0];
    const team = bases.filter((b) => b.role === 'limber' || b.role === 'team');
    if (gun && team.length > 0) {
      const ahead = team.some(
        (t) =>
          (t.footprint.center.x - gun.footprint.center.x) * input.facing.x +
            (t.footprint.center.y - gun.footprint.center.y) * input.facing.y >
          0,
      );
      if (ahead)
        return { formation: 'limbered', ranks: 0, files: 0, reason: 'the team stands in front of the gun' };
    }
    return { formation: 'deployed', ranks: 0, files: 0, reason: 'no team in front of the gun' };
  }
  const hasSkirmishers = bases.some((b) => b.role === 'skirmisher');
  const body = bases.filter((b) => b.role !== 'skirmisher');
  if (hasSkirmishers && body.length > 0)
    return { formation: 'mixed', ranks: 0, files: 0, reason: 'skirmisher bases screen a formed body' };
  const facings = new Set(
    body.map((b) => Math.round(angleDiffDegrees(b.footprint.headingDeg, input.headingDeg) / 90) & 3),
  );
  if (facings.size >= 3)
    return { formation: 'square', ranks: 0, files: 0, reason: 'bases face three or four ways' };
  if (body.length > 1) {
    const gaps = body.map((b, i) =>
      Math.min(
        ...body
          .filter((_, j) => j !== i)
          .map((o) => polygonSeparation(corners(b.footprint), corners(o.footprint)).distance),
      ),
    );
    gaps.sort((a, b) => a - b);
    const median = gaps[Math.floor(gaps.length / 2)] ?? 0;
    const baseWidth = Math.min(...body.map((b) => b.footprint.width));
    if (median >= 0.5 * baseWidth)
      return {
        formation: 'skirmish',
        ranks: 1,
        files: body.length,
        reason: `bases stand about ${(median / baseWidth).toFixed(1)} base widths apart`,
      };
  }
  const pts = body.flatMap((b) => corners(b.footprint));
  const box = facedBoxAround(pts, input.facing);
  const kind = input.type === 'cavalry' ? 'cavalry' : 'infantry';
  const ranks = Math.max(1, Math.round(box.depth / RANK_DEPTH_MM[kind]));
  const files = Math.max(1, Math.round(box.width / FILE_WIDTH_MM[kind]));
  const rf = `${ranks} rank${ranks === 1 ? '' : 's'} by ${files} file${files === 1 ? '' : 's'}`;
  if (ranks <= 2 || (ranks === 3 && files >= 3 * ranks))
    return { formation: 'line', ranks, files, reason: `${rf}: a line` };
  if (ranks > files)
    return { formation: 'marchColumn', ranks, files, reason: `${rf}: deeper than wide, a march column` };
  if (ranks <= 6) {
    if (input.irregular)
      return { formation: 'warband', ranks, files, reason: `${rf}: an irregular mass, a warband` };
    return { formation: 'attackColumn', ranks, files, reason: `${rf}: an attack column` };
  }
  return { formation: 'unknown', ranks, files, reason: `${rf}: no recognised formation` };
}
