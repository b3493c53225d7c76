import type { CardItem, ClutterItem, ClutterKind, HandItem } from './clutter.ts';
import type { CastShadow, GlareSpot } from './lighting.ts';
import { Prng } from './noise.ts';

/**
 * Seeded scatterings of clutter, hands, glare and shadows over a table, for benchmarks and for
 * training data: the same seed always gives the same table. Sizes and colours are those a club
 * table shows (bases from 20 × 40 to 80 × 40 mm, near-black to sand; 10–19 mm dice; inch and
 * centimetre rulers; unit labels and rules cards; hands of every skin tone).
 */

export interface TableSize {
  readonly widthMm: number;
  readonly depthMm: number;
}

/** A circle on the table to keep clear (a marked base, a reference sheet). */
export interface KeepClear {
  readonly x: number;
  readonly y: number;
  readonly radiusMm: number;
}

export interface ClutterLayoutOptions {
  readonly table: TableSize;
  readonly seed: number;
  /** How many of each kind (default 6 bare bases, 6 dice, 2 rulers, 4 cards, 1 hand). */
  readonly counts?: Partial<Record<ClutterKind, number>>;
  /** Places lying clutter must not cover (hands go anywhere). */
  readonly avoid?: readonly KeepClear[];
}

export const DEFAULT_CLUTTER_COUNTS: Readonly<Record<ClutterKind, number>> = {
  base: 6,
  die: 6,
  ruler: 2,
  card: 4,
  hand: 1,
};

const BASE_SIZES: readonly (readonly [number, number])[] = [
  [40, 60],
  [40, 40],
  [60, 30],
  [50, 50],
  [25, 25],
  [20, 40],
  [60, 60],
  [80, 40],
  [25, 50],
];
const DARK_PAINT = ['#111111', '#18181a', '#222019', '#2e2418', '#1f2b19', '#3a2b1c', '#4a4a48'];
const LIGHT_PAINT = ['#8a7a55', '#6b5a3a', '#5c5c58'];
const FLOCK = ['#4d6b2e', '#5a7a35', '#6b5a3a', '#3f5a2a', '#7a6a45'];
const DICE: readonly (readonly [string, string])[] = [
  ['#f4f4f0', '#151515'],
  ['#c8201e', '#f4f4f0'],
  ['#151515', '#f4f4f0'],
  ['#1f7a3a', '#f4f4f0'],
  ['#1d4fa8', '#f4f4f0'],
  ['#efe6d0', '#1a1a1a'],
];
const RULER_COLOURS = ['#f1d54a', '#f4f4f0', '#d9e6ef', '#c49a5a', '#2a2a2a'];
const CARD_COLOURS = ['#f5f3ec', '#efe4c8', '#dde8f0', '#f7f7f7'];
const INKS = ['#141414', '#1a2a5a', '#5a1414'];
const WORDS = [
  '1ST BN ROYAL SCOTS',
  'CLAN CAMERON',
  "GARDINER'S DRAGOONS",
  'LORD GEORGE MURRAY',
  'FIRE: 4D6 AT 12"',
  'MOVE 6" / CHARGE 9"',
  'MORALE 4+',
  'STAMINA 3',
  'LINE INFANTRY',
  'HIGHLAND CHARGE',
  'BRIGADE 2',
  'TURN 3',
  'ARTILLERY 18" RANGE',
  'SHAKEN',
  'DISORDERED',
  'COMMAND 8',
];
const SKINS = ['#f0cfb6', '#e9c09f', '#d7a27c', '#b67e57', '#8c5a3a', '#5e3b27', '#3f281c'];
const SLEEVES = ['#2a3b5c', '#5c2a2a', '#3a3a3a', '#d8d8d0', '#4f6b3a', '#7a6a55'];

class Draw {
  private readonly rng: Prng;
  constructor(seed: number) {
    this.rng = new Prng(seed);
  }
  uniform(a: number, b: number): number {
    return a + (b - a) * this.rng.next();
  }
  int(a: number, b: number): number {
    return Math.min(b, a + Math.floor((b - a + 1) * this.rng.next()));
  }
  pick<T>(list: readonly T[]): T {
    return list[this.int(0, list.length - 1)]!;
  }
  chance(p: number): boolean {
    return this.rng.next() < p;
  }
}

function cardItem(d: Draw, x: number, y: number, headingDeg: number): CardItem {
  const colour = d.pick(CARD_COLOURS);
  const inkColour = d.pick(INKS);
  if (d.chance(0.5)) {
    // A unit label: one or two lines.
    const lines = d.chance(0.5) ? [d.pick(WORDS)] : [d.pick(WORDS), d.pick(WORDS)];
    const textMm = d.uniform(2.5, 4);
    const longest = Math.max(...lines.map((l) => l.length));
    return {
      kind: 'card',
      x,
      y,
      headingDeg,
      widthMm: Math.max(30, (longest * 6 * textMm) / 7 + 8),
      depthMm: lines.length * textMm * 1.3 + 8,
      colour,
      inkColour,
      lines,
      textMm,
      border: d.chance(0.5),
    };
  }
  // A rules card: a title, a few lines, a printed table.
  const a6 = d.chance(0.5);
  return {
    kind: 'card',
    x,
    y,
    headingDeg,
    widthMm: a6 ? 105 : 90,
    depthMm: a6 ? 148 : 60,
    colour,
    inkColour,
    lines: Array.from({ length: d.int(2, 5) }, () => d.pick(WORDS)),
    textMm: d.uniform(2.2, 3.2),
    border: d.chance(0.5),
    grid: { rows: d.int(2, 6), columns: d.int(2, 4) },
  };
}

/** Lying clutter and hands scattered over the table, seeded. */
export function randomClutter(options: ClutterLayoutOptions): ClutterItem[] {
  const d = new Draw(options.seed);
  const counts = { ...DEFAULT_CLUTTER_COUNTS, ...options.counts };
  const { widthMm: W, depthMm: D } = options.table;
  const taken: KeepClear[] = [...(options.avoid ?? [])];
  const out: ClutterItem[] = [];
  /** A free place for something of this radius, or null after many tries. */
  const place = (radius: number): { x: number; y: number } | null => {
    for (let i = 0; i < 200; i++) {
      const x = d.uniform(radius + 10, W - radius - 10);
      const y = d.uniform(radius + 10, D - radius - 10);
      if (taken.every((c) => Math.hypot(c.x - x, c.y - y) > c.radiusMm + radius + 3)) {
        taken.push({ x, y, radiusMm: radius });
        return { x, y };
      }
    }
    return null;
  };
  const kinds: ClutterKind[] = ['ruler', 'card', 'base', 'die'];
  for (const kind of kinds) {
    for (let n = 0; n < counts[kind]; n++) {
      const headingDeg = d.uniform(-180, 180);
      let item: ClutterItem | null = null;
      if (kind === 'base') {
        const [w, dep] = d.pick(BASE_SIZES);
        const dark = d.chance(0.75);
        const colour = d.pick(dark ? DARK_PAINT : LIGHT_PAINT);
        const p = place(Math.hypot(w, dep) / 2);
        if (p)
          item = {
            kind,
            ...p,
            headingDeg,
            widthMm: w,
            depthMm: dep,
            heightMm: d.uniform(2, 5),
            colour,
            ...(d.chance(0.5) ? { rim: { widthMm: d.uniform(1.5, 4), topColour: d.pick(FLOCK) } } : {}),
          };
      } else if (kind === 'die') {
        const size = d.uniform(10, 19);
        const [colour, pipColour] = d.pick(DICE);
        const p = place((size * Math.SQRT2) / 2);
        if (p)
          item = {
            kind,
            ...p,
            headingDeg,
            sizeMm: size,
            colour,
            pipColour,
            top: d.int(1, 6) as 1 | 2 | 3 | 4 | 5 | 6,
          };
      } else if (kind === 'ruler') {
        const inch = d.chance(0.6);
        const lengthMm = inch ? d.pick([152.4, 304.8, 457.2]) : d.pick([150, 300]);
        const widthMm = d.chance(0.3) ? d.uniform(12, 16) : d.uniform(25, 32);
        const p = place(lengthMm / 2);
        if (p)
          item = {
            kind,
            ...p,
            headingDeg,
            lengthMm,
            widthMm,
            heightMm: d.uniform(1.5, 3),
            colour: d.pick(RULER_COLOURS),
            inkColour: '#161616',
            units: inch ? 'in' : 'cm',
          };
      } else if (kind === 'card') {
        const card = cardItem(d, 0, 0, headingDeg);
        const p = place(Math.hypot(card.widthMm, card.depthMm) / 2);
        if (p) item = { ...card, ...p };
      }
      if (item) out.push(item);
    }
  }
  for (let n = 0; n < counts.hand; n++)
    out.push(randomHand(d, W / 2 + d.uniform(-0.4, 0.4) * W, d.uniform(0.15, 0.85) * D, D));
  return out;
}

/** A hand with its palm over (x, y), reaching in from the nearer long edge. */
function randomHand(
  d: Draw,
  x: number,
  y: number,
  depthMm: number,
  heightMm?: number,
  curlMm?: number,
): HandItem {
  const fromNear = y < depthMm / 2;
  const turn = d.uniform(-40, 40);
  const height = heightMm ?? d.uniform(35, 90);
  // The arm runs back to a shoulder ~350 mm above the table and ~250 mm beyond its edge.
  const toEdge = (fromNear ? y : depthMm - y) / Math.cos((turn * Math.PI) / 180);
  const run = toEdge + 250;
  const rise = Math.atan2(Math.max(0, 350 - height), run);
  return {
    kind: 'hand',
    x,
    y,
    headingDeg: (fromNear ? 0 : 180) + turn,
    heightMm: height,
    curlMm: curlMm ?? d.uniform(5, 25),
    scale: d.uniform(0.85, 1.15),
    armRiseDeg: Math.max(5, Math.min(40, (rise * 180) / Math.PI)),
    armLengthMm: Math.min(1200, run / Math.cos(rise)),
    skin: d.pick(SKINS),
    sleeve: d.pick(SLEEVES),
  };
}

/** A marker a hand should reach over: its centre, size and surface height. */
export interface HandTarget {
  readonly x: number;
  readonly y: number;
  readonly sizeMm: number;
  readonly zMm: number;
}

/**
 * Hands reaching over markers, one per target: the fingertips end over the marker, off its
 * centre by 0.2–0.8 of its side, hovering a little above it, so they hide part of it (the
 * truth's `hiddenFraction` says how much).
 */
export function handsOverMarkers(targets: readonly HandTarget[], table: TableSize, seed: number): HandItem[] {
  const d = new Draw(seed);
  return targets.map((t) => {
    const curl = d.uniform(5, 20);
    const probe = randomHand(d, t.x, t.y, table.depthMm, t.zMm + 12 + curl + d.uniform(0, 15), curl);
    const h = (probe.headingDeg * Math.PI) / 180;
    const fwd = [-Math.sin(h), Math.cos(h)] as const;
    const side = [Math.cos(h), Math.sin(h)] as const;
    // Middle fingertip ≈ 120 mm ahead of the palm's middle (at scale 1); aim it off the centre.
    const ahead = 120 * probe.scale + t.sizeMm * d.uniform(0.2, 0.8) * (d.chance(0.5) ? 1 : -1);
    const across = t.sizeMm * d.uniform(-0.5, 0.5);
    return {
      ...probe,
      x: t.x - ahead * fwd[0] + across * side[0],
      y: t.y - ahead * fwd[1] + across * side[1],
    };
  });
}

/** The soft shadow each hand casts (light from above, a little from the upper left): palm, fingers, arm. */
export function handShadows(items: readonly ClutterItem[]): CastShadow[] {
  const out: CastShadow[] = [];
  for (const item of items) {
    if (item.kind !== 'hand') continue;
    const h = (item.headingDeg * Math.PI) / 180;
    const fwd = [-Math.sin(h), Math.cos(h)] as const;
    // Shadow displaced away from the light (toward +x, −y), farther for a higher hand.
    const dx = 0.35 * item.heightMm;
    const dy = -0.45 * item.heightMm;
    const soft = 10 + 0.5 * item.heightMm;
    const k = item.scale;
    out.push({
      shape: 'ellipse',
      x: item.x + dx + 35 * k * fwd[0],
      y: item.y + dy + 35 * k * fwd[1],
      rxMm: 50 * k,
      ryMm: 90 * k,
      headingDeg: item.headingDeg,
      depth: 0.45,
      softnessMm: soft,
    });
    out.push({
      shape: 'capsule',
      x0: item.x + dx - 60 * k * fwd[0],
      y0: item.y + dy - 60 * k * fwd[1],
      x1: item.x + dx - 330 * k * fwd[0],
      y1: item.y + dy - 330 * k * fwd[1],
      radiusMm: 32 * k,
      depth: 0.4,
      softnessMm: soft * 1.5,
    });
  }
  return out;
}

/** A glare spot: somewhere on the table (or at `at`), 25–80 mm across, bright enough to saturate its core. */
export function randomGlare(table: TableSize, seed: number, at?: { x: number; y: number }): GlareSpot {
  const d = new Draw(seed);
  return {
    x: at?.x ?? d.uniform(0.1, 0.9) * table.widthMm,
    y: at?.y ?? d.uniform(0.1, 0.9) * table.depthMm,
    radiusMm: d.uniform(25, 80),
    peak: d.uniform(180, 400),
  };
}

/** Soft cast shadows (a player leaning over, a building, an arm), seeded. */
export function randomShadows(table: TableSize, seed: number, count: number): CastShadow[] {
  const d = new Draw(seed);
  return Array.from({ length: count }, (): CastShadow => {
    const x = d.uniform(0, table.widthMm);
    const y = d.uniform(0, table.depthMm);
    if (d.chance(0.6))
      return {
        shape: 'ellipse',
        x,
        y,
        rxMm: d.uniform(80, 350),
        ryMm: d.uniform(60, 250),
        headingDeg: d.uniform(-90, 90),
        depth: d.uniform(0.25, 0.55),
        softnessMm: d.uniform(20, 90),
      };
    const a = d.uniform(-Math.PI, Math.PI);
    const len = d.uniform(150, 500);
    return {
      shape: 'capsule',
      x0: x,
      y0: y,
      x1: x + len * Math.cos(a),
      y1: y + len * Math.sin(a),
      radiusMm: d.uniform(25, 60),
      depth: d.uniform(0.25, 0.5),
      softnessMm: d.uniform(15, 60),
    };
  });
}
