import { projectPoint, type SynthCamera } from './camera.ts';
import type { Rect } from './noise.ts';
import type { Prop } from './props.ts';
import type { SceneBase } from './scene.ts';

/** Where bases and props fall in the picture: the pixel rectangles the shader redraws them in (shade.ts). */

export interface BaseBox {
  readonly base: SceneBase;
  /** Pixel rectangle that holds the base, its walls and its contact shadow. */
  readonly rect: Rect;
}

/** One part of a prop's picture (a prop may have several, so long thin parts stay tight). */
export interface PropBox {
  readonly prop: Prop;
  readonly rect: Rect;
}

/** Pixel rectangle of a base: box corners and a contact-shadow skirt, projected, plus 2 px. */
export function baseBoxIn(cam: SynthCamera, b: SceneBase): BaseBox {
  const skirt = 8;
  const corners = [
    [-b.halfWidth - skirt, -b.halfDepth - skirt, 0],
    [b.halfWidth + skirt, -b.halfDepth - skirt, 0],
    [b.halfWidth + skirt, b.halfDepth + skirt, 0],
    [-b.halfWidth - skirt, b.halfDepth + skirt, 0],
    [-b.halfWidth, -b.halfDepth, b.topMm],
    [b.halfWidth, -b.halfDepth, b.topMm],
    [b.halfWidth, b.halfDepth, b.topMm],
    [-b.halfWidth, b.halfDepth, b.topMm],
  ] as const;
  const rect = pixelRect(
    cam,
    corners.map(([lx, ly, z]) => ({
      x: b.x + lx * b.cos - ly * b.sin,
      y: b.y + lx * b.sin + ly * b.cos,
      z,
    })),
  );
  return { base: b, rect };
}

/** Pixel rectangles of a prop's parts (empty rectangles dropped). */
export function propBoxesIn(cam: SynthCamera, prop: Prop): PropBox[] {
  return prop
    .hulls()
    .map((hull) => ({ prop, rect: pixelRect(cam, hull) }))
    .filter((b) => b.rect.x0 < b.rect.x1 && b.rect.y0 < b.rect.y1);
}

/** Bounding pixel rectangle of projected table points, plus 2 px, clamped to the image. */
function pixelRect(cam: SynthCamera, points: readonly { x: number; y: number; z: number }[]): Rect {
  let u0 = Infinity;
  let v0 = Infinity;
  let u1 = -Infinity;
  let v1 = -Infinity;
  for (const q of points) {
    const p = projectPoint(cam, q);
    if (!p) continue;
    u0 = Math.min(u0, p.u);
    v0 = Math.min(v0, p.v);
    u1 = Math.max(u1, p.u);
    v1 = Math.max(v1, p.v);
  }
  const clampX = (n: number) => Math.max(0, Math.min(cam.width, n));
  const clampY = (n: number) => Math.max(0, Math.min(cam.height, n));
  const rect = {
    x0: clampX(Math.floor(u0) - 2),
    y0: clampY(Math.floor(v0) - 2),
    x1: clampX(Math.ceil(u1) + 3),
    y1: clampY(Math.ceil(v1) + 3),
  };
  if (!(rect.x0 < rect.x1 && rect.y0 < rect.y1)) return { x0: 0, y0: 0, x1: 0, y1: 0 };
  return rect;
}
