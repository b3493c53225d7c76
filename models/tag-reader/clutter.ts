import { fillEllipse, fillPolygon, rectangle, type Colour, type Point } from './paint.ts';
import type { Rng } from './rng.ts';

/**
 * Things on a wargames table that are not markers but can look like one to a square finder:
 * dice (a black die with white pips is a dark square with white blobs), rulers and tape measures
 * (ticks and digits), printed cards and rule sheets (text, boxes, tables) and the players' hands.
 * Drawn into the clean picture before blur and noise, sized in table millimetres.
 */

export interface ClutterTarget {
  /** Where the tag is, pixels, and the radius clutter must keep away from (0: anywhere). */
  readonly centre: Point;
  readonly keepOut: number;
}

const SKIN: readonly Colour[] = [
  [224, 172, 140],
  [198, 140, 105],
  [160, 110, 80],
  [110, 75, 55],
  [240, 200, 175],
];

/** A point at least `keepOut + radius` from the target, inside or near the crop; null if none is found. */
function placeAway(rng: Rng, size: number, target: ClutterTarget, radius: number): Point | null {
  for (let tries = 0; tries < 20; tries++) {
    const p = { x: rng.uniform(-0.2, 1.2) * size, y: rng.uniform(-0.2, 1.2) * size };
    if (
      target.keepOut <= 0 ||
      Math.hypot(p.x - target.centre.x, p.y - target.centre.y) > target.keepOut + radius
    )
      return p;
  }
  return null;
}

/** A die seen from above: its top face, a darker rim of its sides, and its pips. */
export function paintDie(
  img: Float32Array,
  size: number,
  rng: Rng,
  pxPerMm: number,
  target: ClutterTarget,
): void {
  const side = rng.uniform(10, 17) * pxPerMm;
  const at = placeAway(rng, size, target, side * 0.75);
  if (!at) return;
  const angle = rng.uniform(0, Math.PI);
  const [body, pip] = rng.pick<readonly [Colour, Colour]>([
    [
      [20, 20, 22],
      [235, 235, 230],
    ],
    [
      [235, 235, 228],
      [20, 20, 22],
    ],
    [
      [170, 30, 30],
      [235, 235, 230],
    ],
    [
      [30, 90, 40],
      [235, 235, 230],
    ],
    [
      [40, 60, 150],
      [235, 225, 120],
    ],
  ]);
  const rim = rng.uniform(0.05, 0.2) * side;
  fillPolygon(img, size, rectangle(at.x + rim * 0.5, at.y + rim * 0.5, side + rim, side + rim, angle), [
    body[0] * 0.55,
    body[1] * 0.55,
    body[2] * 0.55,
  ]);
  fillPolygon(img, size, rectangle(at.x, at.y, side, side, angle), body);
  const n = 1 + rng.int(6);
  const spots: Record<number, Array<[number, number]>> = {
    1: [[0, 0]],
    2: [
      [-1, -1],
      [1, 1],
    ],
    3: [
      [-1, -1],
      [0, 0],
      [1, 1],
    ],
    4: [
      [-1, -1],
      [1, -1],
      [-1, 1],
      [1, 1],
    ],
    5: [
      [-1, -1],
      [1, -1],
      [0, 0],
      [-1, 1],
      [1, 1],
    ],
    6: [
      [-1, -1],
      [1, -1],
      [-1, 0],
      [1, 0],
      [-1, 1],
      [1, 1],
    ],
  };
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const step = side * 0.27;
  const r = side * rng.uniform(0.08, 0.12);
  for (const [i, j] of spots[n]!) {
    const x = at.x + step * (i * c - j * s);
    const y = at.y + step * (i * s + j * c);
    fillEllipse(img, size, x, y, r, r, 0, pip);
  }
}

/** A ruler or tape across the crop: a strip with millimetre ticks and digit-like marks. */
export function paintRuler(
  img: Float32Array,
  size: number,
  rng: Rng,
  pxPerMm: number,
  target: ClutterTarget,
): void {
  const width = rng.uniform(12, 30) * pxPerMm;
  const angle = rng.uniform(0, Math.PI);
  // The strip's centre line passes at least keepOut + width/2 from the tag.
  const offset = (target.keepOut > 0 ? target.keepOut + width / 2 : 0) + rng.uniform(0, size * 0.4);
  const dir = rng.chance(0.5) ? 1 : -1;
  const cx = target.centre.x - Math.sin(angle) * offset * dir;
  const cy = target.centre.y + Math.cos(angle) * offset * dir;
  const colour = rng.pick<Colour>([
    [230, 200, 60],
    [235, 235, 225],
    [190, 195, 200],
    [200, 170, 120],
  ]);
  const length = size * 3;
  fillPolygon(img, size, rectangle(cx, cy, length, width, angle), colour);
  const ink: Colour = [25, 25, 25];
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const mm = pxPerMm;
  const edge = -width / 2;
  for (let k = -Math.floor(length / mm / 2); k <= length / mm / 2; k++) {
    const tick = k % 10 === 0 ? 7 : k % 5 === 0 ? 5 : 3;
    const along = k * mm;
    const across = edge + (tick * mm) / 2;
    const x = cx + along * c - across * s;
    const y = cy + along * s + across * c;
    fillPolygon(img, size, rectangle(x, y, 0.25 * mm, tick * mm, angle), ink);
    if (k % 10 === 0) {
      const a2 = edge + 10 * mm;
      fillPolygon(
        img,
        size,
        rectangle(cx + along * c - a2 * s, cy + along * s + a2 * c, 2 * mm, 3 * mm, angle),
        ink,
        rng.uniform(0.6, 1),
      );
    }
  }
}

/** A printed card: lines of glyph-like strokes, a few boxes and table rules. */
export function paintCard(
  img: Float32Array,
  size: number,
  rng: Rng,
  pxPerMm: number,
  target: ClutterTarget,
): void {
  const w = rng.uniform(40, 100) * pxPerMm;
  const h = rng.uniform(30, 70) * pxPerMm;
  const at = placeAway(rng, size, target, Math.hypot(w, h) / 2);
  if (!at) return;
  const angle = rng.uniform(0, Math.PI);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const paper: Colour = rng.pick<Colour>([
    [236, 234, 226],
    [230, 220, 190],
    [245, 245, 245],
  ]);
  fillPolygon(img, size, rectangle(at.x, at.y, w, h, angle), paper);
  const ink: Colour = rng.pick<Colour>([
    [20, 20, 22],
    [60, 30, 30],
    [30, 40, 80],
  ]);
  const to = (u: number, v: number): Point => ({ x: at.x + u * c - v * s, y: at.y + u * s + v * c });
  const glyph = rng.uniform(2, 5) * pxPerMm;
  const stroke = Math.max(0.25 * pxPerMm, glyph * rng.uniform(0.1, 0.22));
  for (let v = -h / 2 + glyph; v < h / 2 - glyph; v += glyph * rng.uniform(1.4, 2)) {
    let u = -w / 2 + glyph;
    while (u < w / 2 - glyph) {
      const word = 2 + rng.int(7);
      for (let g = 0; g < word && u < w / 2 - glyph; g++) {
        for (let k = 0; k < 1 + rng.int(3); k++) {
          const du = rng.uniform(0, glyph * 0.6);
          const vertical = rng.chance(0.5);
          const p = to(u + du, v + rng.uniform(-glyph * 0.3, glyph * 0.3));
          fillPolygon(
            img,
            size,
            rectangle(p.x, p.y, vertical ? stroke : glyph * 0.6, vertical ? glyph : stroke, angle),
            ink,
          );
        }
        u += glyph * 0.75;
      }
      u += glyph * 0.8;
    }
  }
  // Boxes and checkbox frames: dark squares with something inside, the closest thing to a tag.
  for (let b = rng.int(4); b > 0; b--) {
    const side = rng.uniform(3, 14) * pxPerMm;
    const p = to(rng.uniform(-w / 2, w / 2), rng.uniform(-h / 2, h / 2));
    fillPolygon(img, size, rectangle(p.x, p.y, side, side, angle), ink);
    const inner = side * rng.uniform(0.5, 0.85);
    fillPolygon(img, size, rectangle(p.x, p.y, inner, inner, angle), paper);
    if (rng.chance(0.6))
      for (let k = rng.int(6); k > 0; k--) {
        const q = {
          x: p.x + rng.uniform(-inner / 3, inner / 3),
          y: p.y + rng.uniform(-inner / 3, inner / 3),
        };
        const e = inner * rng.uniform(0.15, 0.35);
        fillPolygon(img, size, rectangle(q.x, q.y, e, e, angle), ink);
      }
  }
}

/**
 * A hand reaching in: fingers (capsules) and the palm behind them, skin-coloured and shaded, with
 * a soft shadow on what is under it. The tip of the leading finger lands at `tip`. Records the
 * hand's coverage in `mask`.
 */
export function paintHand(
  img: Float32Array,
  size: number,
  rng: Rng,
  pxPerMm: number,
  tip: Point,
  mask: Float32Array,
): void {
  const skin = rng.pick(SKIN);
  const angle = rng.uniform(0, 2 * Math.PI);
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const fingerW = rng.uniform(14, 20) * pxPerMm;
  const shade = (x: number, y: number) =>
    0.75 + 0.3 * Math.max(-1, Math.min(1, ((x - tip.x) * c + (y - tip.y) * s) / size));
  // Shadow first, offset away from the light.
  const shadowOffset = rng.uniform(2, 8) * pxPerMm;
  const fingers = 1 + rng.int(4);
  const parts: Array<(dx: number, dy: number, colour: Colour, alpha: number, m?: Float32Array) => void> = [];
  for (let f = 0; f < fingers; f++) {
    const lateral = (f - (fingers - 1) / 2) * fingerW * 1.05 + rng.uniform(-0.1, 0.1) * fingerW;
    const back = (f === 0 ? 0 : rng.uniform(0.1, 0.6)) * fingerW * 2;
    const len = rng.uniform(50, 80) * pxPerMm;
    // Finger axis points from the palm (behind) toward the tip along -direction (c, s).
    const tx = tip.x + back * c - lateral * s;
    const ty = tip.y + back * s + lateral * c;
    const mx = tx + (len / 2) * c;
    const my = ty + (len / 2) * s;
    parts.push((dx, dy, colour, alpha, m) => {
      fillPolygon(
        img,
        size,
        rectangle(mx + dx, my + dy, len, fingerW, angle),
        colour,
        alpha,
        m,
        colour === skin ? shade : undefined,
      );
      fillEllipse(
        img,
        size,
        tx + dx,
        ty + dy,
        fingerW / 2,
        fingerW / 2,
        0,
        colour,
        alpha,
        m,
        colour === skin ? shade : undefined,
      );
    });
  }
  const palmX = tip.x + rng.uniform(60, 90) * pxPerMm * c;
  const palmY = tip.y + rng.uniform(60, 90) * pxPerMm * s;
  const palmR = rng.uniform(40, 55) * pxPerMm;
  parts.push((dx, dy, colour, alpha, m) =>
    fillEllipse(
      img,
      size,
      palmX + dx,
      palmY + dy,
      palmR,
      palmR * 0.8,
      angle,
      colour,
      alpha,
      m,
      colour === skin ? shade : undefined,
    ),
  );
  const dark: Colour = [0, 0, 0];
  const shadowAlpha = rng.uniform(0.15, 0.45);
  for (const part of parts) part(shadowOffset, shadowOffset, dark, shadowAlpha);
  for (const part of parts) part(0, 0, skin, 1, mask);
}
