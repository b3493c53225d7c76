import { toLocal } from '../../geometry/frame.ts';
import { grownConvex } from '../../geometry/convex-offset.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { Alternative } from '../engine/alternatives.ts';
import { possessive } from '../engine/measure.ts';
import { lengthWords } from '../engine/words.ts';
import { probeMove } from '../engine/probe.ts';
import { bestChargeLine, pivotFor, turnedBox, type ChargeLine } from './charge-line.ts';
import type { RunObstacle } from './charge-run.ts';
import type { D3Context } from './context.ts';

/**
 * A D3 charge line's edges (charge-line.ts): the target only just inside the path the frontage
 * sweeps, or only just outside it when no turn lines up. A step aside changes the answer, so the
 * reach is too close to call; the target is grown or shrunk all round to find how big a step.
 */

/** What a charge line is searched with: the charger, its target, the turns allowed, what stands in the way, the move (mm). */
export interface ChargeSearch {
  readonly ctx: D3Context;
  readonly charger: TableUnit;
  readonly target: TableUnit;
  readonly allowed: { readonly leftDeg: number; readonly rightDeg: number };
  readonly inTheWay: readonly RunObstacle[];
  readonly moveMm: number;
}

/**
 * When the best line takes the whole turn allowed that way: how far across (mm) the target reaches
 * into the strip the turned frontage sweeps. The target moving that far sideways leaves every line
 * on that side, a smaller turn reaching less far round. Undefined when the turn is short of the limit.
 */
export function reachAtTurnLimit(
  ctx: D3Context,
  charger: TableUnit,
  target: TableUnit,
  line: ChargeLine,
  limits: { readonly leftDeg: number; readonly rightDeg: number },
): number | undefined {
  const limit = line.turnDeg >= 0 ? limits.leftDeg : limits.rightDeg;
  if (Math.abs(line.turnDeg) < limit - 1e-6) return undefined;
  const box = turnedBox(charger.box, line.turnDeg, pivotFor(ctx, charger.box, line.turnDeg));
  const w = box.width / 2;
  let deepest = 0;
  for (const poly of target.bodyPolygons) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const p of poly) {
      const x = toLocal(box.frame, p).x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    deepest = Math.max(deepest, Math.min(hi, w) - Math.max(lo, -w));
  }
  return deepest;
}

/**
 * At the full turn the turn cannot follow the target: a step across the path brings the first
 * contact nearer or further as fast as the contacted edge slants to the path (a corner just inside
 * the strip: many times the step), not one for one as a length. The reach is read again with the
 * target moved across the turned frontage's path a band either way, and a move that changes the
 * answer narrowed down by bisection (`probeMove`). Undefined short of the turn limit or when no
 * such move within the band changes it.
 */
export function reachAcrossAtTurnLimit(
  search: ChargeSearch,
  line: ChargeLine,
  bandMm: number,
): Alternative | undefined {
  const { ctx, charger, target, allowed, inTheWay, moveMm } = search;
  if (reachAtTurnLimit(ctx, charger, target, line, allowed) === undefined) return undefined;
  const across = turnedBox(charger.box, line.turnDeg, pivotFor(ctx, charger.box, line.turnDeg)).frame.right;
  const reachAt = (offsetMm: number): number => {
    const d = { x: across.x * offsetMm, y: across.y * offsetMm };
    const polys = target.bodyPolygons.map((p) => p.map((q) => ({ x: q.x + d.x, y: q.y + d.y })));
    const l = bestChargeLine(ctx, charger, { ...target, bodyPolygons: polys }, allowed, inTheWay);
    return l ? l.contact.distance : Infinity;
  };
  const p = probeMove(reachAt, line.contact.distance, 'atMost', moveMm, bandMm);
  if (p.lowerBound || !(p.moveMm < bandMm)) return undefined;
  const T = target.name;
  return {
    lean: line.contact.distance <= moveMm ? 'no' : 'yes',
    switchMm: p.moveMm,
    why: `at the full ${Math.abs(line.turnDeg).toFixed(1)}° turn ${possessive(charger.name)} path meets ${T} on a slant: ${lengthWords(p.moveMm, 'in')} across and the run is ${line.contact.distance <= moveMm ? 'longer' : 'shorter'} than the move`,
  };
}

/**
 * When no turn lines the charger up on the target within its move: the least the target must
 * reach further round (mm, to a sixteenth of `bandMm`) for a line to exist, the target grown all
 * round by that much (`grownConvex`) standing for it a step aside. At the full turn the target may
 * stand a hair outside the strip the frontage sweeps: a step aside and it is in. Undefined when
 * growing it by the band still leaves no line within the move (`moveMm` of straight run).
 */
export function lineWithTargetAside(
  search: ChargeSearch,
  bandMm: number,
): { asideMm: number; line: ChargeLine } | undefined {
  if (!(bandMm > 0)) return undefined;
  const lineAt = (d: number) => lineToResized(search, d);
  let line = lineAt(bandMm);
  if (!line) return undefined;
  let lo = 0;
  let hi = bandMm;
  for (let i = 0; i < 4; i++) {
    const mid = (lo + hi) / 2;
    const l = lineAt(mid);
    if (l) [hi, line] = [mid, l];
    else lo = mid;
  }
  return { asideMm: hi, line };
}

/**
 * A found line's doubts as alternatives of the reach (alternatives.ts): the target only just inside
 * the strip at the full turn (`reachAtTurnLimit`, exact), or else only just inside the path at
 * all, so that with it a step aside no turn lines up within the move (`lineLostWithTargetAside`).
 */
export function pathEdgeAlternatives(search: ChargeSearch, line: ChargeLine, bandMm: number): Alternative[] {
  const { ctx, charger, target, allowed } = search;
  const T = target.name;
  const C = charger.name;
  const out: Alternative[] = [];
  const edge = reachAtTurnLimit(ctx, charger, target, line, allowed);
  const slant = reachAcrossAtTurnLimit(search, line, bandMm);
  if (slant) out.push(slant);
  if (edge !== undefined)
    out.push({
      lean: 'no',
      switchMm: edge,
      why: `at the full ${Math.abs(line.turnDeg).toFixed(1)}° turn ${T} only just reaches into ${possessive(C)} path`,
    });
  // At the full turn the strip's edge measures it exactly; else the target is shrunk.
  const lost = edge === undefined ? lineLostWithTargetAside(search, bandMm) : undefined;
  if (lost !== undefined)
    out.push({
      lean: 'no',
      switchMm: lost,
      why: `${T} only just stands in ${possessive(C)} path: ${lengthWords(lost, 'in')} less of it and no turn lines up`,
    });
  return out;
}

/**
 * When a line reaches: the least the target must shrink all round (mm, to a sixteenth of
 * `bandMm`) for no turn to line up within the move, standing for it a step aside; undefined when
 * shrunk by the band a line still reaches. A base thinner than twice the shrink is gone.
 */
function lineLostWithTargetAside(search: ChargeSearch, bandMm: number): number | undefined {
  if (!(bandMm > 0)) return undefined;
  const reaches = (d: number): boolean => lineToResized(search, -d) !== undefined;
  if (reaches(bandMm)) return undefined;
  let lo = 0;
  let hi = bandMm;
  for (let i = 0; i < 4; i++) {
    const mid = (lo + hi) / 2;
    if (reaches(mid)) lo = mid;
    else hi = mid;
  }
  return hi;
}

/**
 * The best line within the move to the target grown all round by `d` mm (shrunk when d < 0, a
 * base thinner than twice that gone), or undefined.
 */
function lineToResized(search: ChargeSearch, d: number): ChargeLine | undefined {
  const { ctx, charger, target, allowed, inTheWay, moveMm } = search;
  const polys = target.bodyPolygons.filter((p) => d >= 0 || inradius(p) > -d).map((p) => grownConvex(p, d));
  if (polys.length === 0) return undefined;
  const l = bestChargeLine(ctx, charger, { ...target, bodyPolygons: polys }, allowed, inTheWay);
  return l && l.contact.distance <= moveMm ? l : undefined;
}

/** Half the least width of a convex polygon (across any of its edges): how far it can shrink. */
function inradius(poly: Polygon): number {
  let least = Infinity;
  const n = poly.length;
  for (let i = 0; i < n; i++) {
    const a = poly[i] as Vec2;
    const b = poly[(i + 1) % n] as Vec2;
    const len = Math.hypot(b.x - a.x, b.y - a.y);
    if (len === 0) continue;
    let far = 0;
    for (const q of poly)
      far = Math.max(far, Math.abs((b.x - a.x) * (q.y - a.y) - (b.y - a.y) * (q.x - a.x)) / len);
    least = Math.min(least, far);
  }
  return least / 2;
}
