import { radToDeg } from '../geometry/angle.ts';
import { boxOf, unionBox, type Box } from '../geometry/box.ts';
import { facedBoxAround, type FacedBox } from '../geometry/faced-box.ts';
import { containsPointOrNear, type Polygon } from '../geometry/polygon.ts';
import { corners, facing, baseToTable, type OrientedRect } from '../geometry/oriented-rect.ts';
import type { Vec2 } from '../geometry/vec.ts';
import type { MeasuredBase } from '../rules/unit-distance.ts';
import { recogniseFormation, type FormationReading, type RecognisedFormation } from './formation.ts';
import type { BaseRole, UnitAttributes, UnitSpec } from './scenario.ts';

/** A located base: footprint, uncertainty, and which marker put it there. */
export interface TableBase extends MeasuredBase {
  readonly markerId: number;
  readonly role?: BaseRole;
  readonly polygon: Polygon;
  readonly box: Box;
}

/**
 * A unit on the table as the rules see it: its bases, the box of its formed body, its facing,
 * its leader point (centre of the front edge) and frontage. For artillery the body is the gun
 * model; for a mixed-order unit the body is the formed part without its skirmish screen.
 */
export interface TableUnit extends UnitAttributes {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly type: 'infantry' | 'cavalry' | 'artillery';
  readonly bases: readonly TableBase[];
  readonly body: readonly TableBase[];
  /** Footprint polygons of the body (what is targeted and measured to). */
  readonly bodyPolygons: readonly Polygon[];
  /** Footprints of every base (what blocks sight). */
  readonly allPolygons: readonly Polygon[];
  readonly box: FacedBox;
  readonly bounds: Box;
  readonly headingDeg: number;
  readonly facing: Vec2;
  readonly leader: Vec2;
  readonly leaderBase: TableBase;
  readonly frontage: number;
  readonly depth: number;
  /** The formation the rules use: declared if given, else recognised. */
  readonly formationInUse: RecognisedFormation;
  readonly recognised: FormationReading;
  /** Artillery: barrel tip and unit axis. */
  readonly barrel?: { readonly tip: Vec2; readonly axis: Vec2 };
  /** Bases of the scenario unit that have not been located. */
  readonly missingBases: number;
  /** Largest one-sigma base position uncertainty, mm. */
  readonly sigmaMm: number;
  readonly sigmaHeadingDeg: number;
}

export function tableBase(
  markerId: number,
  footprint: OrientedRect,
  sigmaMm: number,
  sigmaHeadingDeg: number,
  role?: BaseRole,
): TableBase {
  const polygon = corners(footprint);
  return {
    markerId,
    footprint,
    sigmaMm,
    sigmaHeadingDeg,
    polygon,
    box: boxOf(polygon),
    ...(role ? { role } : {}),
  };
}

/** Circular mean of headings, degrees. */
function meanHeadingDeg(headings: readonly number[]): number {
  let s = 0;
  let c = 0;
  for (const h of headings) {
    const a = (h * Math.PI) / 180;
    s += Math.sin(a);
    c += Math.cos(a);
  }
  return radToDeg(Math.atan2(s, c));
}

function bodyOf(spec: UnitSpec, bases: readonly TableBase[], formation: RecognisedFormation): TableBase[] {
  if (spec.type === 'artillery') {
    const guns = bases.filter((b) => b.role === 'gun');
    if (guns.length > 0) return guns;
    const notCrew = bases.filter((b) => b.role !== 'crew' && b.role !== 'limber' && b.role !== 'team');
    return notCrew.length > 0 ? notCrew : [...bases];
  }
  if (formation === 'mixed') {
    const formed = bases.filter((b) => b.role !== 'skirmisher');
    if (formed.length > 0) return formed;
  }
  return [...bases];
}

/** Builds the rules' view of one unit from its located bases (at least one). */
export function buildTableUnit(spec: UnitSpec, bases: readonly TableBase[]): TableUnit {
  if (spec.type === 'commander') throw new Error(`${spec.name} is a commander, not a unit`);
  if (bases.length === 0) throw new Error(`${spec.name} has no located base`);
  const guns = bases.filter((b) => b.role === 'gun');
  const headingSource =
    spec.type === 'artillery' && guns.length > 0 ? guns : bases.filter((b) => b.role !== 'skirmisher');
  const headingDeg =
    spec.facingDeg ??
    (spec.formation === 'square' || headingSource.length === 0
      ? (bases[0] as TableBase).footprint.headingDeg
      : meanHeadingDeg(headingSource.map((b) => b.footprint.headingDeg)));
  const f = facing({ headingDeg });
  const recognised = recogniseFormation({
    type: spec.type,
    bases,
    facing: f,
    headingDeg,
    ...(spec.irregular === undefined ? {} : { irregular: spec.irregular }),
  });
  const formationInUse: RecognisedFormation = spec.formation ?? recognised.formation;
  const body = bodyOf(spec, bases, formationInUse);
  const box = facedBoxAround(
    body.flatMap((b) => b.polygon),
    f,
  );
  const leader = box.frame.origin;
  const leaderBase =
    body.find((b) => containsPointOrNear(b.polygon, leader, 1e-6)) ??
    body.reduce((best, b) =>
      Math.hypot(b.footprint.center.x - leader.x, b.footprint.center.y - leader.y) <
      Math.hypot(best.footprint.center.x - leader.x, best.footprint.center.y - leader.y)
        ? b
        : best,
    );
  const gun = guns[0] ?? (spec.type === 'artillery' ? body[0] : undefined);
  const barrel = gun
    ? { tip: baseToTable(gun.footprint, { x: 0, y: gun.footprint.depth / 2 }), axis: facing(gun.footprint) }
    : undefined;
  const { facingDeg: _f, ...attributes } = spec;
  void _f;
  return {
    ...attributes,
    ...(spec.facingDeg === undefined ? {} : { facingDeg: spec.facingDeg }),
    type: spec.type,
    bases,
    body,
    bodyPolygons: body.map((b) => b.polygon),
    allPolygons: bases.map((b) => b.polygon),
    box,
    bounds: unionBox(bases.map((b) => b.box)),
    headingDeg,
    facing: f,
    leader,
    leaderBase,
    frontage: box.width,
    depth: box.depth,
    formationInUse,
    recognised,
    ...(barrel ? { barrel } : {}),
    missingBases: spec.bases.length - bases.length,
    sigmaMm: Math.max(...bases.map((b) => b.sigmaMm)),
    sigmaHeadingDeg: Math.max(...bases.map((b) => b.sigmaHeadingDeg)),
  };
}
