import { facedBoxAround, type FacedBox } from '../../geometry/faced-box.ts';
import { faceSegment, FACE_NAMES, type FaceName } from '../../geometry/face-contact.ts';
import { frameFromFront } from '../../geometry/frame.ts';
import { pointToPolygonSet } from '../../geometry/distance.ts';
import { quarterPolygon } from '../../geometry/quarters.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TerrainPiece } from '../../table/terrain.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { Verdict } from '../engine/verdict.ts';
import { bpVerdict, inStr, lengthVerdict, weaponOf, type BpContext, poss } from './context.ts';
import { shareInZone } from './quarters.ts';
import { seen } from './sight.ts';
import { hypot } from '../../geometry/hypot.ts';

/** One facing of a building: its own box (front = outward), the centre it measures from, and a name. */
export interface BuildingFacing {
  readonly name: string;
  readonly box: FacedBox;
  readonly centre: Vec2;
}

/** Compass word of an outward direction (table +y is called north, +x east). */
function compass(d: Vec2): string {
  return Math.abs(d.y) >= Math.abs(d.x) ? (d.y > 0 ? 'north' : 'south') : d.x > 0 ? 'east' : 'west';
}

/**
 * The four facings of a building block: the sides of the box around its outline, squared to its
 * longest wall. Each facing is a box of its own facing outward, so its front quarter is the zone
 * that facing shoots into; ranges and sight are taken from the centre of the facing (nudged a
 * hair outside the wall so the building itself does not hide what stands in front of it).
 */
export function buildingFacings(building: TerrainPiece): BuildingFacing[] {
  const poly = building.polygon ?? [];
  let best: Vec2 = { x: 0, y: 1 };
  let longest = -1;
  poly.forEach((a, i) => {
    const b = poly[(i + 1) % poly.length] as Vec2;
    const len = hypot(b.x - a.x, b.y - a.y);
    if (len > longest) {
      longest = len;
      best = { x: -(b.y - a.y), y: b.x - a.x };
    }
  });
  const block = facedBoxAround(poly, best);
  return FACE_NAMES.map((face: FaceName) => {
    const seg = faceSegment(block, face);
    const sideways = face === 'front' || face === 'rear';
    const nudge = 0.01;
    const centre = { x: seg.centre.x + seg.outward.x * nudge, y: seg.centre.y + seg.outward.y * nudge };
    const box: FacedBox = {
      frame: frameFromFront(seg.centre, seg.outward),
      width: sideways ? block.width : block.depth,
      depth: sideways ? block.depth : block.width,
    };
    return { name: `${compass(seg.outward)} facing`, box, centre };
  });
}

/** The building a unit garrisons (its leader inside the outline), if any. */
export function garrisonedBuilding(ctx: BpContext, u: TableUnit): TerrainPiece | undefined {
  return ctx.state.terrain.find(
    (t) => t.kind === 'building' && t.polygon && pointToPolygonSet(u.leader, [t.polygon]).distance === 0,
  );
}

/**
 * "Can the garrison of a building shoot T, and from which facing?" Each facing shoots into its
 * own front quarter, sees from its centre and measures range from its centre to the nearest seen
 * part of T; the facing with T in its quarter, in sight and nearest is chosen. A building shoots
 * 2 dice per facing (up to the unit's shooting value).
 */
export function garrisonShotVerdict(ctx: BpContext, garrison: TableUnit, target: TableUnit): Verdict {
  const asked = `can ${garrison.name} shoot ${target.name} from its building?`;
  const building = garrisonedBuilding(ctx, garrison);
  const weapon = weaponOf(garrison);
  if (!building || !weapon)
    return bpVerdict({
      question: 'garrisonShot',
      asked,
      answer: 'no',
      reasons: [
        !building ? `${garrison.name} is not in a building` : `${garrison.name} has no missile weapon`,
      ],
    });
  const opts = { exclude: new Set([garrison.id, target.id]) };
  const tried = buildingFacings(building).map((f) => {
    const share = shareInZone(ctx, target, quarterPolygon(f.box, 'front', ctx.options.quarterReading));
    const view = share > 0 ? seen(ctx, f.centre, garrison.sigmaMm, target, opts).region : undefined;
    const seenShare = view?.share ?? 0;
    const to = view?.nearest ?? pointToPolygonSet(f.centre, target.bodyPolygons).onB;
    const mm = hypot(to.x - f.centre.x, to.y - f.centre.y);
    return { f, share, seen: seenShare, to, mm };
  });
  const able = tried.filter((t) => t.share > 0 && t.seen > 0).sort((a, b) => a.mm - b.mm);
  const pick = able[0];
  if (!pick)
    return bpVerdict({
      question: 'garrisonShot',
      asked,
      answer: 'no',
      reasons: [`no facing of ${building.label} has ${target.name} in its front quarter and in sight`],
      facts: {
        facings: tried
          .map(
            (t) =>
              `${t.f.name}: ${(t.share * 100).toFixed(0)}% in quarter, ${(t.seen * 100).toFixed(0)}% seen`,
          )
          .join('; '),
      },
    });
  const range = lengthVerdict(
    ctx,
    {
      question: 'garrisonShot',
      asked,
      reasons: [
        `from the centre of the ${pick.f.name} of ${building.label}: ${inStr(pick.mm)} to the nearest seen part of ${target.name}; ${weapon.name} reaches ${weapon.max}"`,
        `${poss(garrison.name)} ${pick.f.name} shoots 2 dice (up to its shooting value)`,
      ],
      facts: { facing: pick.f.name, frontShare: pick.share, visibleShare: pick.seen, dicePerFacing: 2 },
      options: { quarterReading: ctx.options.quarterReading },
    },
    {
      mm: pick.mm,
      sigmaMm: hypot(garrison.sigmaMm, target.sigmaMm),
      from: pick.f.centre,
      to: pick.to,
      fromName: `the centre of the ${pick.f.name} of ${building.label}`,
      toName: `the nearest seen part of ${target.name}`,
    },
    'atMost',
    weapon.max,
  );
  return range;
}
