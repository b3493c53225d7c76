/**
 * Light the players meet beyond the renderer's gentle unevenness: specular glare (a lamp or a
 * window mirrored in the glossy sticker paper and cloth, so bright it saturates) and soft cast
 * shadows (a player leaning over, a hand, a building). Both are fields over the table plane,
 * given in table millimetres, so the picture and the truth agree on where they fall.
 */

/** A specular hot spot: `peak` grey levels added at its centre, a Gaussian of σ `radiusMm` around it. */
export interface GlareSpot {
  readonly x: number;
  readonly y: number;
  readonly radiusMm: number;
  /** Grey levels added at the centre on a fully glossy surface; > ~150 saturates white paper. */
  readonly peak: number;
}

/** A soft shadow on the table: an ellipse, or a capsule (a segment swept by a radius: an arm's shadow). */
export type CastShadow =
  | {
      readonly shape: 'ellipse';
      readonly x: number;
      readonly y: number;
      readonly rxMm: number;
      readonly ryMm: number;
      /** Turn of the ellipse's x axis, degrees counter-clockwise. */
      readonly headingDeg: number;
      /** Fraction of the light taken away inside (0 = no shadow, 1 = black). */
      readonly depth: number;
      /** Width of the penumbra, mm. */
      readonly softnessMm: number;
    }
  | {
      readonly shape: 'capsule';
      readonly x0: number;
      readonly y0: number;
      readonly x1: number;
      readonly y1: number;
      readonly radiusMm: number;
      readonly depth: number;
      readonly softnessMm: number;
    };

export interface SceneLighting {
  readonly glare: readonly GlareSpot[];
  readonly shadows: readonly CastShadow[];
}

/** How glossy each kind of surface is: the share of a glare spot it reflects. */
export const GLOSS = {
  cloth: 0.55,
  paper: 1,
  paint: 0.7,
  wall: 0.3,
  floor: 0.2,
  plastic: 0.9,
  skin: 0.4,
} as const;

/** Glare spots beyond this many σ add nothing (e^-8 ≈ 0.03 % of the peak). */
const GLARE_REACH = 4;

/** A shadow prepared for fast lookups: trigonometry done once, a bounding circle for rejects. */
interface CompiledShadow {
  readonly shadow: CastShadow;
  readonly cx: number;
  readonly cy: number;
  /** Beyond this distance² from (cx, cy) the shadow takes nothing. */
  readonly reach2: number;
  readonly cos: number;
  readonly sin: number;
}

function compileShadow(s: CastShadow): CompiledShadow {
  const soft = s.softnessMm / 2;
  if (s.shape === 'ellipse') {
    const h = (s.headingDeg * Math.PI) / 180;
    const r = Math.max(s.rxMm, s.ryMm) + soft;
    return { shadow: s, cx: s.x, cy: s.y, reach2: r * r, cos: Math.cos(h), sin: Math.sin(h) };
  }
  const r = Math.hypot(s.x1 - s.x0, s.y1 - s.y0) / 2 + s.radiusMm + soft;
  return { shadow: s, cx: (s.x0 + s.x1) / 2, cy: (s.y0 + s.y1) / 2, reach2: r * r, cos: 1, sin: 0 };
}

/** Compiled for the ray caster: plain arrays, cheap rejects. */
export class LightingField {
  private readonly glareSpots: ReadonlyArray<GlareSpot & { reach2: number; inv2s2: number }>;
  private readonly shadowList: readonly CompiledShadow[];
  readonly hasGlare: boolean;
  readonly hasShadows: boolean;

  constructor(lighting: SceneLighting) {
    for (const g of lighting.glare) {
      if (!(g.radiusMm > 0) || !Number.isFinite(g.peak) || g.peak < 0)
        throw new Error(`glare spot needs radiusMm > 0 and peak ≥ 0 (got ${g.radiusMm}, ${g.peak})`);
    }
    for (const s of lighting.shadows) {
      if (!(s.depth >= 0 && s.depth <= 1)) throw new Error(`shadow depth must be in [0, 1] (got ${s.depth})`);
      if (!(s.softnessMm >= 0)) throw new Error(`shadow softnessMm must be ≥ 0 (got ${s.softnessMm})`);
      const size = s.shape === 'ellipse' ? Math.min(s.rxMm, s.ryMm) : s.radiusMm;
      if (!(size > 0)) throw new Error('shadow sizes (rxMm, ryMm or radiusMm) must be > 0');
    }
    this.glareSpots = lighting.glare.map((g) => ({
      ...g,
      reach2: (GLARE_REACH * g.radiusMm) ** 2,
      inv2s2: 1 / (2 * g.radiusMm * g.radiusMm),
    }));
    this.shadowList = lighting.shadows.map(compileShadow);
    this.hasGlare = this.glareSpots.length > 0;
    this.hasShadows = this.shadowList.length > 0;
  }

  /** Grey levels of glare added at table point (x, y) on a fully glossy surface. */
  glare(x: number, y: number): number {
    let sum = 0;
    for (const g of this.glareSpots) {
      const dx = x - g.x;
      const dy = y - g.y;
      const r2 = dx * dx + dy * dy;
      if (r2 < g.reach2) sum += g.peak * Math.exp(-r2 * g.inv2s2);
    }
    return sum;
  }

  /** Light left at table point (x, y) by the cast shadows: 1 = none. */
  shade(x: number, y: number): number {
    let k = 1;
    for (const c of this.shadowList) {
      const px = x - c.cx;
      const py = y - c.cy;
      if (px * px + py * py >= c.reach2) continue;
      const s = c.shadow;
      const d = signedDistance(c, px, py);
      const soft = s.softnessMm;
      // Smoothstep across the penumbra, centred on the shape's edge.
      let cover: number;
      if (soft <= 0) cover = d < 0 ? 1 : 0;
      else {
        const t = Math.min(1, Math.max(0, 0.5 - d / soft));
        cover = t * t * (3 - 2 * t);
      }
      k *= 1 - s.depth * cover;
    }
    return k;
  }
}

/** Signed distance to the shadow's edge, mm, negative inside (the ellipse's is approximate); (px, py) from its centre. */
function signedDistance(c: CompiledShadow, px: number, py: number): number {
  const s = c.shadow;
  if (s.shape === 'ellipse') {
    const lx = px * c.cos + py * c.sin;
    const ly = -px * c.sin + py * c.cos;
    const rho = Math.hypot(lx / s.rxMm, ly / s.ryMm);
    return (rho - 1) * Math.min(s.rxMm, s.ryMm);
  }
  const x = px + c.cx;
  const y = py + c.cy;
  const vx = s.x1 - s.x0;
  const vy = s.y1 - s.y0;
  const len2 = vx * vx + vy * vy;
  const t = len2 > 0 ? Math.min(1, Math.max(0, ((x - s.x0) * vx + (y - s.y0) * vy) / len2)) : 0;
  return Math.hypot(x - s.x0 - t * vx, y - s.y0 - t * vy) - s.radiusMm;
}
