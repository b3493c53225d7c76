import type { Vec3 } from '../camera/table-pose.ts';
import { cameraCentre, projectPoint, type SynthCamera } from './camera.ts';
import type { ClutterItem, ClutterKind } from './clutter.ts';
import { GLOSS, LightingField } from './lighting.ts';
import { slabHit, type Prop } from './props.ts';
import type { SceneBase, SceneMarker, SynthScene } from './scene.ts';

/**
 * The conditions each marker is seen under, for the truth: how much of it is hidden from the
 * camera (by a hand, a die, a taller base…), how much glare lies on it and how deep a cast
 * shadow; and, for each piece of clutter, where its picture is and which markers it hides.
 * Occlusion is sampled with the renderer's own ray tests from the synthetic camera's centre.
 */

/** Samples per side of the marker's black square when measuring occlusion. */
export const OCCLUSION_GRID = 12;

export interface MarkerConditions {
  /** Share of the black square the camera cannot see (0–1, sampled on a 12 × 12 grid). */
  readonly hiddenFraction: number;
  /** Strongest glare on the marker: grey levels added to its white paper (0 = none). */
  readonly glareLevel: number;
  /** Light left by cast shadows at the marker's centre (1 = none). */
  readonly shadowFactor: number;
}

export interface ClutterTruth {
  readonly index: number;
  readonly kind: ClutterKind;
  /** The item as drawn (position, size, colours). */
  readonly item: ClutterItem;
  /** Pixel rectangle holding its picture (contact shadow included), clipped; null when out of view. */
  readonly boundsPx: {
    readonly x0: number;
    readonly y0: number;
    readonly x1: number;
    readonly y1: number;
  } | null;
  /** Markers it hides part of, with the share of each marker's black square it hides. */
  readonly covers: readonly { readonly markerId: number; readonly fraction: number }[];
}

interface Occluder {
  readonly top: number;
  readonly x: number;
  readonly y: number;
  readonly radius: number;
  /** Ray parameter of the first hit, Infinity if missed. */
  hit(ox: number, oy: number, oz: number, dx: number, dy: number, dz: number): number;
  /** Index of the prop, or −1 for a base. */
  readonly prop: number;
}

function baseOccluder(b: SceneBase): Occluder {
  return {
    top: b.topMm,
    x: b.x,
    y: b.y,
    radius: Math.hypot(b.halfWidth, b.halfDepth),
    prop: -1,
    hit: (ox, oy, oz, dx, dy, dz) =>
      slabHit(ox, oy, oz, dx, dy, dz, b.x, b.y, b.cos, b.sin, b.halfWidth, b.halfDepth, b.topMm),
  };
}

function propOccluder(p: Prop): Occluder {
  return {
    top: p.topMm,
    x: p.centre.x,
    y: p.centre.y,
    radius: p.radiusMm,
    prop: p.index,
    hit: (ox, oy, oz, dx, dy, dz) => p.intersect(ox, oy, oz, dx, dy, dz),
  };
}

/** Conditions of every base's marker (scene order) and reference marker, and per prop the markers it hides. */
export function sceneConditions(
  cam: SynthCamera,
  scene: SynthScene,
): {
  bases: MarkerConditions[];
  references: MarkerConditions[];
  covers: Map<number, { markerId: number; fraction: number }[]>;
} {
  const o = cameraCentre(cam);
  const field = scene.lighting ? new LightingField(scene.lighting) : null;
  const props = scene.props ?? [];
  const all: Occluder[] = [...scene.bases.map(baseOccluder), ...props.map(propOccluder)];
  const covers = new Map<number, { markerId: number; fraction: number }[]>();
  const n = OCCLUSION_GRID;
  const byProp = new Float64Array(props.reduce((n, p) => Math.max(n, p.index + 1), 0));

  const conditions = (m: SceneMarker, own: number): MarkerConditions => {
    const half = m.sizeMm / 2;
    const reachBase = Math.hypot(m.x - o.x, m.y - o.y) + half * Math.SQRT2;
    // Only what stands higher than the marker and near enough to the line of sight can hide it.
    const near = all.filter((oc, i) => {
      if (i === own || oc.top <= m.z) return false;
      const reach = (reachBase * (oc.top - m.z)) / Math.max(1e-9, o.z - oc.top);
      return Math.hypot(oc.x - m.x, oc.y - m.y) <= oc.radius + half * Math.SQRT2 + reach;
    });
    byProp.fill(0);
    let hidden = 0;
    let glare = 0;
    for (let j = 0; j < n; j++) {
      for (let i = 0; i < n; i++) {
        const a = ((i + 0.5) / n - 0.5) * m.sizeMm;
        const b = ((j + 0.5) / n - 0.5) * m.sizeMm;
        const x = m.x + a * m.right[0] + b * m.up[0];
        const y = m.y + a * m.right[1] + b * m.up[1];
        if (field?.hasGlare) glare = Math.max(glare, field.glare(x, y) * GLOSS.paper);
        // The sample is at t = 1 along o → sample; anything hit before it hides it.
        let first = 1 - 1e-9;
        let by: Occluder | null = null;
        for (const oc of near) {
          const t = oc.hit(o.x, o.y, o.z, x - o.x, y - o.y, m.z - o.z);
          if (t < first) {
            first = t;
            by = oc;
          }
        }
        if (by) {
          hidden++;
          if (by.prop >= 0) byProp[by.prop]!++;
        }
      }
    }
    byProp.forEach((count, p) => {
      if (count === 0) return;
      let list = covers.get(p);
      if (!list) covers.set(p, (list = []));
      list.push({ markerId: m.id, fraction: count / (n * n) });
    });
    return {
      hiddenFraction: hidden / (n * n),
      glareLevel: glare,
      shadowFactor: field?.hasShadows ? field.shade(m.x, m.y) : 1,
    };
  };

  return {
    bases: scene.bases.map((b, i) => conditions(b.marker, i)),
    references: scene.references.map((m) => conditions(m, -1)),
    covers,
  };
}

/** Truth of each piece of clutter: its picture's pixel rectangle and the markers it hides. */
export function clutterTruth(
  cam: SynthCamera,
  scene: SynthScene,
  covers: ReadonlyMap<number, readonly { markerId: number; fraction: number }[]>,
): ClutterTruth[] {
  const byItem = new Map<number, Prop[]>();
  for (const p of scene.props ?? []) {
    const list = byItem.get(p.index);
    if (list) list.push(p);
    else byItem.set(p.index, [p]);
  }
  return [...byItem].map(([index, parts]) => {
    let u0 = Infinity;
    let v0 = Infinity;
    let u1 = -Infinity;
    let v1 = -Infinity;
    for (const hull of parts.flatMap((p) => p.hulls()))
      for (const q of hull as readonly Vec3[]) {
        const px = projectPoint(cam, q);
        if (!px) continue;
        u0 = Math.min(u0, px.u);
        v0 = Math.min(v0, px.v);
        u1 = Math.max(u1, px.u);
        v1 = Math.max(v1, px.v);
      }
    // The renderer's own rectangle (pixel-boxes.ts): projected hull, 2 px margin for the lens's curvature.
    const x0 = Math.max(0, Math.floor(u0) - 2);
    const y0 = Math.max(0, Math.floor(v0) - 2);
    const x1 = Math.min(cam.width, Math.ceil(u1) + 3);
    const y1 = Math.min(cam.height, Math.ceil(v1) + 3);
    const item = parts[0]!.item;
    return {
      index,
      kind: item.kind,
      item,
      boundsPx: x0 < x1 && y0 < y1 ? { x0, y0, x1, y1 } : null,
      covers: covers.get(index) ?? [],
    };
  });
}
