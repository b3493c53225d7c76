import { hitTest, unitInteriorPoint } from '../core/overlay-model.ts';
import { cssToImage, fitContain, imageToCss, type Viewport } from '../core/viewport.ts';
import { render, type UnitLabel } from '../render/picture.ts';
import type { Scene } from './scene.ts';
import type { LiveState } from './state.ts';
import { onTap } from '../ui/tap.ts';

/**
 * The camera picture with its overlays: sizes the canvas, draws the scene, and turns a click or a
 * tap into a unit (a finger gets a wider margin than a mouse; a drag is not a tap).
 */

/** Hit tolerance around footprints, CSS pixels. */
export const TOLERANCE_CSS = { mouse: 6, touch: 18 } as const;

export class PictureView {
  private size = { width: 0, height: 0, dpr: 1 };
  private hover: string | null = null;
  labels: UnitLabel[] = [];

  constructor(
    private readonly stage: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly state: LiveState,
    private readonly scene: Scene,
    private readonly onPick: (unitId: string | null) => void,
    private readonly requestRender: () => void,
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    this.ctx = ctx;
    onTap(canvas, (e) => {
      this.onPick(this.unitAt(e.clientX, e.clientY, e.pointerType));
    });
    canvas.addEventListener('pointermove', (e) => {
      if (e.pointerType !== 'mouse') return;
      const id = this.unitAt(e.clientX, e.clientY, e.pointerType);
      if (id !== this.hover) {
        this.hover = id;
        canvas.style.cursor = id ? 'pointer' : '';
        this.requestRender();
      }
    });
    canvas.addEventListener('pointerleave', () => {
      if (this.hover === null) return;
      this.hover = null;
      this.requestRender();
    });
  }

  private readonly ctx: CanvasRenderingContext2D;

  viewport(): Viewport {
    const cam = this.state.shown?.state.camera ?? this.state.lastState?.camera;
    return fitContain(this.size.width, this.size.height, cam?.imageWidth ?? 1920, cam?.imageHeight ?? 1080);
  }

  resize(): void {
    const rect = this.stage.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.size = { width: rect.width, height: rect.height, dpr };
    this.canvas.width = Math.max(1, Math.round(rect.width * dpr));
    this.canvas.height = Math.max(1, Math.round(rect.height * dpr));
  }

  draw(): void {
    this.labels = render(this.ctx, {
      viewport: this.viewport(),
      dpr: this.size.dpr,
      picture: this.state.shown?.picture ?? null,
      model: this.scene.overlay,
      hover: this.hover,
      shapes: this.scene.liveShapes,
    });
  }

  unitAt(clientX: number, clientY: number, pointerType: string): string | null {
    const m = this.scene.overlay;
    if (!m) return null;
    const rect = this.canvas.getBoundingClientRect();
    const vp = this.viewport();
    const p = cssToImage(vp, { x: clientX - rect.left, y: clientY - rect.top });
    const tolerance = (pointerType === 'mouse' ? TOLERANCE_CSS.mouse : TOLERANCE_CSS.touch) / vp.scale;
    return hitTest(m, p, tolerance);
  }

  /** A point inside the unit as drawn now, CSS px relative to the page viewport. */
  unitScreenCentre(unitId: string): { x: number; y: number } | null {
    const m = this.scene.overlay;
    const p = m ? unitInteriorPoint(m, unitId) : null;
    if (!p) return null;
    const rect = this.canvas.getBoundingClientRect();
    const c = imageToCss(this.viewport(), p);
    return { x: rect.left + c.x, y: rect.top + c.y };
  }
}
