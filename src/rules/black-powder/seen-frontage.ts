import { toLocal } from '../../geometry/frame.ts';
import type { Polygon } from '../../geometry/polygon.ts';
import type { Vec2 } from '../../geometry/vec.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import { probedQuantity } from '../engine/probe.ts';
import { blindCapped, type SeenShare } from '../engine/sight-share.ts';
import type { Comparison, Quantity } from '../engine/threshold.ts';

/**
 * "Half the target" by frontage (option halfMeasure = frontage) for what is seen of it: the share
 * of its frontage across which some part of it is seen (the seen pieces' extents along its front
 * edge, overlaps counted once). The target moved by `offset` carries its frontage with it.
 */
export function frontageSeen(
  target: TableUnit,
  seen: readonly Polygon[],
  offset: Vec2 = { x: 0, y: 0 },
): number {
  const frame = target.box.frame;
  const w = target.box.width / 2;
  if (w <= 0) return 0;
  const spans: Array<[number, number]> = [];
  for (const poly of seen) {
    let lo = Infinity;
    let hi = -Infinity;
    for (const p of poly) {
      const x = toLocal(frame, { x: p.x - offset.x, y: p.y - offset.y }).x;
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    const a = Math.max(lo, -w);
    const b = Math.min(hi, w);
    if (b > a) spans.push([a, b]);
  }
  spans.sort((p, q) => p[0] - q[0]);
  let covered = 0;
  let at = -w;
  for (const [a, b] of spans) {
    if (b <= at) continue;
    covered += b - Math.max(a, at);
    at = b;
  }
  return Math.min(1, covered / (2 * w));
}

/**
 * The seen frontage (%) against a limit as a threshold quantity, probed across and along the
 * sight line as the seen area is; `hiddenShare` turns it round (the frontage hidden, for cover).
 */
export function seenFrontageQuantity(
  s: SeenShare,
  target: TableUnit,
  comparison: Comparison,
  limitPercent: number,
  bandMm: number,
  hiddenShare = false,
): Quantity {
  const f = (share: number) => (hiddenShare ? 100 - share * 100 : share * 100);
  const at = (k: 0 | 1) => (offsetMm: number) => {
    const r = s.seenAt(k, offsetMm);
    return f(frontageSeen(target, r.seen, r.offset));
  };
  return blindCapped(
    s,
    probedQuantity(
      f(frontageSeen(target, s.region.polygons)),
      '%',
      [at(0), at(1)],
      s.sigmaMm,
      comparison,
      limitPercent,
      bandMm,
    ),
    comparison,
    limitPercent,
    f(0),
    s.acrossScreen ? f(frontageSeen(target, s.acrossScreen.seen)) : undefined,
  );
}
