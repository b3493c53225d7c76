import type { Vec2 } from '../../../src/geometry/vec.ts';
import { renderTactical } from '../render/tactical.ts';
import type { UnitLabel } from '../render/picture.ts';
import { TOLERANCE_CSS } from '../live/picture-view.ts';
import { onTap } from '../ui/tap.ts';
import type { Scene } from '../live/scene.ts';
import { currentState, type LiveState } from '../live/state.ts';
import {
  cssToTable,
  fitTable,
  hitTestTable,
  tableToCss,
  type TacticalViewport,
} from './tactical-viewport.ts';
import type { TerrainDraft } from './terrain-panel.ts';

/**
 * The table from above: draws the scene rectified, picks units by click or tap, and while a
 * terrain piece is being drawn turns taps into its corners.
 */
export class TacticalView {
  private size = { width: 0, height: 0, dpr: 1 };
  private hover: string | null = null;
  private readonly ctx: CanvasRenderingContext2D;
  labels: UnitLabel[] = [];

  constructor(
    private readonly stage: HTMLElement,
    private readonly canvas: HTMLCanvasElement,
    private readonly state: LiveState,
    private readonly scene: Scene,
    private readonly draft: () => TerrainDraft,
    private readonly handlers: { pick(unitId: string | null): void; addPoint(p: Vec2): void },
    private readonly requestRender: () => void,
  ) {
    const ctx = canvas.getContext('2d', { alpha: false });
    if (!ctx) throw new Error('this browser cannot draw on a canvas');
    this.ctx = ctx;
    onTap(canvas, (e) => {
      const p = this.tablePoint(e);
      if (this.draft().active) return this.handlers.addPoint(p);
      const s = currentState(this.state);
      if (!s) return;
      const tol =
        (e.pointerType === 'mouse' ? TOLERANCE_CSS.mouse : TOLERANCE_CSS.touch) / this.viewport().scale;
      this.handlers.pick(hitTestTable(s, p, tol));
    });
    canvas.addEventListener('pointermove', (e) => {
      if (e.pointerType !== 'mouse') return;
      const s = currentState(this.state);
      const id = s ? hitTestTable(s, this.tablePoint(e), TOLERANCE_CSS.mouse / this.viewport().scale) : null;
      if (id !== this.hover) {
        this.hover = id;
        canvas.style.cursor = this.draft().active ? 'crosshair' : id ? 'pointer' : '';
        this.requestRender();
      }
    });
  }

  viewport(): TacticalViewport {
    const table = currentState(this.state)?.table ?? { widthMm: 1828.8, depthMm: 1219.2 };
    return fitTable(this.size.width, this.size.height, table);
  }

  private tablePoint(e: PointerEvent): Vec2 {
    const rect = this.canvas.getBoundingClientRect();
    return cssToTable(this.viewport(), { x: e.clientX - rect.left, y: e.clientY - rect.top });
  }

  resize(): void {
    const rect = this.stage.getBoundingClientRect();
    const dpr = window.devicePixelRatio || 1;
    this.size = { width: rect.width, height: rect.height, dpr };
    this.canvas.width = Math.max(1, Math.round(rect.width * dpr));
    this.canvas.height = Math.max(1, Math.round(rect.height * dpr));
  }

  draw(): void {
    const d = this.draft();
    this.labels = renderTactical(this.ctx, {
      vp: this.viewport(),
      dpr: this.size.dpr,
      state: currentState(this.state),
      shapes: this.scene.tableShapes,
      selection: this.state.selection,
      hover: this.hover,
      draft: d.active ? d.points : null,
      draftClosed: d.closed,
    });
  }

  screenPoint(p: Vec2): { x: number; y: number } {
    const rect = this.canvas.getBoundingClientRect();
    const c = tableToCss(this.viewport(), p);
    return { x: rect.left + c.x, y: rect.top + c.y };
  }

  unitCentre(unitId: string): { x: number; y: number } | null {
    const unit = currentState(this.state)?.units.find((u) => u.id === unitId);
    const base = unit?.bases[Math.floor((unit.bases.length - 1) / 2)];
    return base ? this.screenPoint({ x: base.x, y: base.y }) : null;
  }
}
