import type { StateMessage } from '../../../src/server/protocol.ts';
import { LiveConnection, type ConnectionStatus } from '../core/connection.ts';
import { FrameSync, type PresentedFrame } from '../core/frame-sync.ts';
import {
  buildOverlay,
  defaultOverlayOptions,
  formatDistance,
  hitTest,
  measurementMatches,
  unitInteriorPoint,
  type OverlayModel,
} from '../core/overlay-model.ts';
import { render } from '../render/picture.ts';
import { emptySelection, pick, resendFor, type Selection } from '../core/selection.ts';
import { describeConnection, FpsMeter, formatDetection, formatFps } from '../core/status.ts';
import { installTestHook } from './test-hook.ts';
import { mountCameraButton } from './camera-sender.ts';
import type { AskResponse } from '../../../src/server/referee-routes.ts';
import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { api } from '../core/api.ts';
import { mountCalibrationPanel } from '../calibration/calibration-panel.ts';
import { mountRefereePanel } from '../referee/referee-panel.ts';
import { mountRosterPanel } from './roster-panel.ts';
import { mountScenarioPanel } from './scenario-panel.ts';
import { projectShapes, type ProjectedShape } from '../core/shape-projection.ts';
import {
  buildTableOverlays,
  defaultToggles,
  distanceWithheld,
  verdictDistance,
  type OverlayToggles,
  type TableShape,
} from '../core/table-overlays.ts';
import {
  cssToTable,
  fitTable,
  hitTestTable,
  renderTactical,
  tableToCss,
  type TacticalViewport,
} from '../tactical/tactical.ts';
import { mountTerrainPanel } from '../tactical/terrain-panel.ts';
import { cssToImage, fitContain, imageToCss, type Viewport } from '../core/viewport.ts';

/**
 * The live page: wires the connection, frame pairing, selection, overlay model and renderer
 * together and keeps the DOM (status line, measurement read-out) up to date.
 */

function element<T extends HTMLElement>(id: string, type: new () => T): T {
  const el = document.getElementById(id);
  if (!(el instanceof type)) throw new Error(`page is missing #${id}`);
  return el;
}

const dom = {
  stage: element('stage', HTMLElement),
  canvas: element('view', HTMLCanvasElement),
  notice: element('notice', HTMLDivElement),
  scenario: element('scenario', HTMLSpanElement),
  status: element('status', HTMLDivElement),
  connection: element('status-connection', HTMLSpanElement),
  fps: element('status-fps', HTMLSpanElement),
  detection: element('status-detection', HTMLSpanElement),
  pose: element('status-pose', HTMLSpanElement),
  error: element('status-error', HTMLSpanElement),
  hint: element('hint', HTMLParagraphElement),
  measurement: element('measurement', HTMLOutputElement),
  ruled: element('ruled-distance', HTMLOutputElement),
  clear: element('clear', HTMLButtonElement),
  views: element('views', HTMLDivElement),
  tacticalStage: element('tactical-stage', HTMLElement),
  tactical: element('tactical', HTMLCanvasElement),
  drawHint: element('draw-hint', HTMLDivElement),
};
const tctxOrNull = dom.tactical.getContext('2d', { alpha: false });
if (!tctxOrNull) throw new Error('this browser cannot draw on a canvas');
const tctx: CanvasRenderingContext2D = tctxOrNull;
const ctxOrNull = dom.canvas.getContext('2d', { alpha: false });
if (!ctxOrNull) throw new Error('this browser cannot draw on a canvas');
const ctx: CanvasRenderingContext2D = ctxOrNull;

/** How long without a picture before states are drawn over an empty background. */
const NO_PICTURE_AFTER_MS = 2000;
/** Hit tolerance around footprints, CSS pixels. */
const TOLERANCE_CSS = { mouse: 6, touch: 18 } as const;

interface Shown {
  readonly picture: ImageBitmap | null;
  readonly state: StateMessage;
  readonly at: number;
}

let selection: Selection = emptySelection;
let lastState: StateMessage | null = null;
let shown: Shown | null = null;
let model: OverlayModel | null = null;
let modelDirty = true;
let hover: string | null = null;
let connectionStatus: ConnectionStatus = { phase: 'connecting', retryAt: null, attempts: 0 };
let errorTimer: number | null = null;
let cssSize = { width: 0, height: 0, dpr: 1 };
let rafPending = false;
const fps = new FpsMeter();
let scenarioFile: ScenarioFile | null = null;
let answer: AskResponse | null = null;
let toggles: OverlayToggles = defaultToggles();
let tableShapes: TableShape[] = [];
let liveShapes: ProjectedShape[] = [];
let shapesDirty = true;
let tacticalSize = { width: 0, height: 0, dpr: 1 };
let tacticalHover: string | null = null;

// ---------------------------------------------------------------------------------------------
// Frames and messages

function show(next: Shown): void {
  if (shown?.picture && shown.picture !== next.picture) shown.picture.close();
  shown = next;
  modelDirty = true;
  shapesDirty = true;
  requestRender();
  updateNotice();
}

const frames = new FrameSync<ImageBitmap>(
  (jpeg) => createImageBitmap(new Blob([jpeg], { type: 'image/jpeg' })),
  (frame: PresentedFrame<ImageBitmap>) => {
    fps.tick(performance.now());
    show({ picture: frame.picture, state: frame.state, at: performance.now() });
  },
);

function onState(state: StateMessage): void {
  lastState = state;
  const paired = frames.pushState(state);
  if (!paired) {
    // A state without a picture of its own: the server re-sends the current frame's state when
    // the selection changes (same frame counter: same picture), or the camera has gone quiet.
    if (shown && shown.state.frame === state.frame) show({ ...shown, state });
    else if (!shown || performance.now() - shown.at > NO_PICTURE_AFTER_MS)
      show({ picture: null, state, at: shown?.at ?? 0 });
  }
  updateMeasurement();
  updateStatus();
}

let scenarioName: string | null = null;

function onHello(scenario: string, source: string): void {
  dom.scenario.textContent = `${scenario} · ${source}`;
  // Another scenario was loaded: its units are not the ones selected.
  if (scenarioName !== null && scenario !== scenarioName && selection.length > 0) applyPick(null);
  scenarioName = scenario;
  void loadScenario();
}

async function loadScenario(): Promise<void> {
  try {
    const res = await api<{ scenario: ScenarioFile }>('GET', '/api/scenario');
    setScenario(res.scenario);
  } catch (err) {
    showError(`cannot read the scenario: ${(err as Error).message}`);
  }
}

function setScenario(file: ScenarioFile): void {
  scenarioFile = file;
  roster.setScenario(file);
  terrain.setScenario(file);
  referee.setScenarioRuleset(file.ruleset ?? 'prestonpans');
  shapesDirty = true;
  requestRender();
}

function showError(message: string): void {
  dom.error.textContent = message;
  dom.error.hidden = false;
  if (errorTimer !== null) window.clearTimeout(errorTimer);
  errorTimer = window.setTimeout(() => {
    dom.error.hidden = true;
    errorTimer = null;
  }, 8000);
}

const connection = new LiveConnection({
  onFrame: (jpeg) => frames.pushFrame(jpeg),
  onMessage: (message) => {
    if (message.type === 'state') onState(message);
    else if (message.type === 'hello') onHello(message.scenario, message.source);
    else showError(message.message);
  },
  onBadMessage: () => showError('the server sent a message this page does not understand'),
  onOpen: () => {
    frames.reset();
    const resend = resendFor(selection);
    if (resend) connection.send(resend);
  },
  onStatus: (status) => {
    connectionStatus = status;
    if (status.phase !== 'open') fps.reset();
    updateStatus();
  },
});

// ---------------------------------------------------------------------------------------------
// Geometry of the page

function currentModel(): OverlayModel | null {
  if (modelDirty) {
    model = shown ? buildOverlay(shown.state, selection) : null;
    // One distance line at a time: while the referee's answer draws its own distance (measured
    // as the ruleset says), or withholds it (a charge not yet declared), the plain edge-to-edge
    // line is not drawn over it.
    if (model?.measurement && (distanceWithheld(answer, selection) || verdictDistance(answer, selection)))
      model = { ...model, measurement: null };
    modelDirty = false;
  }
  return model;
}

function currentShapes(): { table: TableShape[]; live: ProjectedShape[] } {
  if (shapesDirty) {
    const state = shown?.state ?? lastState;
    tableShapes = state
      ? buildTableOverlays({
          state,
          scenario: scenarioFile,
          selection,
          answer,
          toggles,
          rulesetNames: referee.rulesetNames(),
        })
      : [];
    liveShapes = state?.pose ? projectShapes(state.camera, state.pose, tableShapes) : [];
    shapesDirty = false;
  }
  return { table: tableShapes, live: liveShapes };
}

function tacticalViewport(): TacticalViewport {
  const table = (shown?.state ?? lastState)?.table ?? { widthMm: 1828.8, depthMm: 1219.2 };
  return fitTable(tacticalSize.width, tacticalSize.height, table);
}

function currentViewport(): Viewport {
  const cam = shown?.state.camera ?? lastState?.camera;
  return fitContain(cssSize.width, cssSize.height, cam?.imageWidth ?? 1920, cam?.imageHeight ?? 1080);
}

function resize(): void {
  const rect = dom.stage.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  cssSize = { width: rect.width, height: rect.height, dpr };
  dom.canvas.width = Math.max(1, Math.round(rect.width * dpr));
  dom.canvas.height = Math.max(1, Math.round(rect.height * dpr));
  const trect = dom.tacticalStage.getBoundingClientRect();
  tacticalSize = { width: trect.width, height: trect.height, dpr };
  dom.tactical.width = Math.max(1, Math.round(trect.width * dpr));
  dom.tactical.height = Math.max(1, Math.round(trect.height * dpr));
  requestRender();
}

function requestRender(): void {
  if (rafPending) return;
  rafPending = true;
  requestAnimationFrame(() => {
    rafPending = false;
    const shapes = currentShapes();
    if (dom.views.dataset['layout'] !== 'tactical')
      render(ctx, {
        viewport: currentViewport(),
        dpr: cssSize.dpr,
        picture: shown?.picture ?? null,
        model: currentModel(),
        hover,
        shapes: shapes.live,
      });
    if (dom.views.dataset['layout'] !== 'live') {
      const draft = terrain.draft;
      renderTactical(tctx, {
        vp: tacticalViewport(),
        dpr: tacticalSize.dpr,
        state: shown?.state ?? lastState,
        shapes: shapes.table,
        selection,
        hover: tacticalHover,
        draft: draft.active ? draft.points : null,
        draftClosed: draft.closed,
      });
    }
  });
}

function unitAt(clientX: number, clientY: number, pointerType: string): string | null {
  const m = currentModel();
  if (!m) return null;
  const rect = dom.canvas.getBoundingClientRect();
  const vp = currentViewport();
  const p = cssToImage(vp, { x: clientX - rect.left, y: clientY - rect.top });
  const tolerance = (pointerType === 'mouse' ? TOLERANCE_CSS.mouse : TOLERANCE_CSS.touch) / vp.scale;
  return hitTest(m, p, tolerance);
}

// ---------------------------------------------------------------------------------------------
// Selection

function applyPick(unitId: string | null): void {
  const step = pick(selection, unitId);
  selection = step.selection;
  if (step.send) connection.send(step.send);
  modelDirty = true;
  shapesDirty = true;
  referee.setSelection(selection[0], selection[1], unitName);
  requestRender();
  updateMeasurement();
}

let down: { id: number; x: number; y: number } | null = null;
dom.canvas.addEventListener('pointerdown', (e) => {
  if (!e.isPrimary || e.button > 0) return;
  down = { id: e.pointerId, x: e.clientX, y: e.clientY };
});
dom.canvas.addEventListener('pointerup', (e) => {
  const start = down;
  down = null;
  // A tap or a click, not a drag (fingers wobble: allow a little movement).
  if (!start || start.id !== e.pointerId || Math.hypot(e.clientX - start.x, e.clientY - start.y) > 12) return;
  applyPick(unitAt(e.clientX, e.clientY, e.pointerType));
});
dom.canvas.addEventListener('pointercancel', () => {
  down = null;
});
dom.canvas.addEventListener('pointermove', (e) => {
  if (e.pointerType !== 'mouse') return;
  const id = unitAt(e.clientX, e.clientY, e.pointerType);
  if (id !== hover) {
    hover = id;
    dom.canvas.style.cursor = id ? 'pointer' : '';
    requestRender();
  }
});
dom.canvas.addEventListener('pointerleave', () => {
  if (hover !== null) {
    hover = null;
    requestRender();
  }
});
dom.clear.addEventListener('click', () => applyPick(null));
window.addEventListener('keydown', (e) => {
  if (e.key === 'Escape') applyPick(null);
});

// ---------------------------------------------------------------------------------------------
// DOM read-outs

function unitName(id: string): string {
  return lastState?.units.find((u) => u.id === id)?.name ?? id;
}

function updateMeasurement(): void {
  const el = dom.measurement;
  const [a, b] = selection;
  dom.clear.hidden = selection.length === 0;
  const m = lastState?.measurement ?? null;
  if (a === undefined) {
    dom.hint.textContent = 'Click or tap two units to measure the distance between them.';
  } else if (b === undefined) {
    dom.hint.textContent = `${unitName(a)} selected — pick a second unit.`;
  } else dom.hint.textContent = `${unitName(a)} ↔ ${unitName(b)}`;

  const withheld = distanceWithheld(answer, selection);
  const ruled = verdictDistance(answer, selection, referee.rulesetNames());
  dom.ruled.hidden = !ruled && !withheld;
  dom.ruled.textContent = withheld
    ? 'Distance withheld until the charge is declared'
    : ruled
      ? `Referee: ${ruled.text}`
      : '';
  if (withheld) {
    // Nothing on the page may give the distance away (not even a data attribute).
    el.dataset['valid'] = 'false';
    el.dataset['withheld'] = 'true';
    for (const key of ['a', 'b', 'distanceIn', 'uncertaintyIn']) delete el.dataset[key];
    el.textContent = '';
    el.title = '';
    el.classList.remove('stale');
  } else if (a !== undefined && b !== undefined && m && measurementMatches(m, selection)) {
    delete el.dataset['withheld'];
    el.dataset['valid'] = String(m.valid);
    el.dataset['a'] = m.a;
    el.dataset['b'] = m.b;
    el.dataset['distanceIn'] = String(m.distanceIn);
    el.dataset['uncertaintyIn'] = String(m.uncertaintyIn);
    el.textContent =
      `edge to edge ${formatDistance(m.distanceIn, m.uncertaintyIn)}` +
      (m.valid ? '' : ' (not measured this frame)');
    el.title = `${m.text} — the shortest gap between the two units' nearest bases`;
    el.classList.toggle('stale', !m.valid);
  } else {
    delete el.dataset['withheld'];
    el.dataset['valid'] = 'false';
    for (const key of ['a', 'b', 'distanceIn', 'uncertaintyIn']) delete el.dataset[key];
    el.textContent = a !== undefined && b !== undefined ? 'measuring…' : '';
    el.title = '';
    el.classList.remove('stale');
  }
}

function updateStatus(): void {
  const now = performance.now();
  dom.status.dataset['connection'] = connectionStatus.phase;
  dom.connection.textContent = describeConnection(connectionStatus, now);
  const live = connectionStatus.phase === 'open';
  dom.fps.textContent = live ? formatFps(fps.rate(now)) : '';
  dom.detection.textContent = live && lastState ? formatDetection(lastState.detectionMs) : '';
  const poseUnknown = live && lastState !== null && lastState.pose === null;
  const settling =
    live && lastState !== null && lastState.pose !== null && lastState.poseStatus === 'settling';
  dom.pose.hidden = !poseUnknown && !settling;
  dom.pose.textContent = poseUnknown
    ? '⚠ table pose unknown'
    : settling
      ? '⚠ camera moved — re-checking'
      : '';
  dom.pose.dataset['pose'] = lastState?.poseStatus ?? 'unknown';
  updateNotice();
}

function updateNotice(): void {
  let text = '';
  if (connectionStatus.phase !== 'open' && !shown) text = 'Connecting to the table…';
  else if (!shown) text = 'Waiting for the camera…';
  else if (!shown.picture) text = 'No camera picture — showing the last reported positions';
  else if (shown.state.pose === null)
    text = 'Table pose unknown — make sure the reference markers are in view';
  dom.notice.textContent = text;
  dom.notice.hidden = text === '';
}

// ---------------------------------------------------------------------------------------------
// Start

// ---------------------------------------------------------------------------------------------
// Side panel, tactical view, layout

const referee = mountRefereePanel((res) => {
  answer = res;
  shapesDirty = true;
  modelDirty = true;
  requestRender();
  updateMeasurement();
});
function panel(name: string): HTMLElement {
  const el = document.querySelector<HTMLElement>(`[data-panel="${name}"]`);
  if (!el) throw new Error(`page is missing the ${name} panel`);
  return el;
}
const onScenarioChanged = (file: ScenarioFile) => setScenario(file);
const roster = mountRosterPanel(panel('roster'), onScenarioChanged);
const terrain = mountTerrainPanel(panel('terrain'), onScenarioChanged, () => {
  const d = terrain.draft;
  dom.drawHint.hidden = !d.active;
  dom.drawHint.textContent = d.active ? 'Drawing terrain: tap the table to add points' : '';
  if (d.active && dom.views.dataset['layout'] === 'live') setLayout('split');
  requestRender();
});
const scenarioPanel = mountScenarioPanel(panel('scenario'), onScenarioChanged);
const calibration = mountCalibrationPanel(panel('calibrate'));

function setTab(name: string): void {
  for (const b of document.querySelectorAll<HTMLButtonElement>('[data-tab]'))
    b.setAttribute('aria-selected', String(b.dataset['tab'] === name));
  for (const p of document.querySelectorAll<HTMLElement>('[data-panel]'))
    p.hidden = p.dataset['panel'] !== name;
  roster.setVisible(name === 'roster');
  if (name === 'scenario') scenarioPanel.refresh();
  if (name === 'calibrate') calibration.refresh();
}
for (const b of document.querySelectorAll<HTMLButtonElement>('[data-tab]'))
  b.addEventListener('click', () => setTab(b.dataset['tab'] ?? 'referee'));

function setLayout(layout: string): void {
  dom.views.dataset['layout'] = layout;
  for (const b of document.querySelectorAll<HTMLButtonElement>('.layout-switch [data-layout]'))
    b.setAttribute('aria-pressed', String(b.dataset['layout'] === layout));
  resize();
}
for (const b of document.querySelectorAll<HTMLButtonElement>('.layout-switch [data-layout]'))
  b.addEventListener('click', () => setLayout(b.dataset['layout'] ?? 'live'));

for (const input of document.querySelectorAll<HTMLInputElement>('[data-toggle]'))
  input.addEventListener('change', () => {
    toggles = { ...toggles, [input.dataset['toggle'] ?? '']: input.checked };
    shapesDirty = true;
    requestRender();
  });

function tacticalPoint(e: PointerEvent): { x: number; y: number } {
  const rect = dom.tactical.getBoundingClientRect();
  return cssToTable(tacticalViewport(), { x: e.clientX - rect.left, y: e.clientY - rect.top });
}
let tdown: { id: number; x: number; y: number } | null = null;
dom.tactical.addEventListener('pointerdown', (e) => {
  if (!e.isPrimary || e.button > 0) return;
  tdown = { id: e.pointerId, x: e.clientX, y: e.clientY };
});
dom.tactical.addEventListener('pointerup', (e) => {
  const start = tdown;
  tdown = null;
  if (!start || start.id !== e.pointerId || Math.hypot(e.clientX - start.x, e.clientY - start.y) > 12) return;
  const p = tacticalPoint(e);
  if (terrain.draft.active) return terrain.addPoint(p);
  const state = shown?.state ?? lastState;
  if (!state) return;
  const tol =
    (e.pointerType === 'mouse' ? TOLERANCE_CSS.mouse : TOLERANCE_CSS.touch) / tacticalViewport().scale;
  applyPick(hitTestTable(state, p, tol));
});
dom.tactical.addEventListener('pointercancel', () => {
  tdown = null;
});
dom.tactical.addEventListener('pointermove', (e) => {
  if (e.pointerType !== 'mouse') return;
  const state = shown?.state ?? lastState;
  const id = state
    ? hitTestTable(state, tacticalPoint(e), TOLERANCE_CSS.mouse / tacticalViewport().scale)
    : null;
  if (id !== tacticalHover) {
    tacticalHover = id;
    dom.tactical.style.cursor = terrain.draft.active ? 'crosshair' : id ? 'pointer' : '';
    requestRender();
  }
});

new ResizeObserver(resize).observe(dom.stage);
new ResizeObserver(resize).observe(dom.tacticalStage);
window.addEventListener('resize', resize);
resize();
updateMeasurement();
updateStatus();
window.setInterval(updateStatus, 500);
connection.start();
// A player's phone or laptop can be the camera (issue #8): its own button and socket, see camera-sender.ts.
mountCameraButton(document.querySelector('header.bar'));

installTestHook({
  get lastState() {
    return lastState;
  },
  get shownFrame() {
    return shown?.state.frame ?? null;
  },
  get framesShown() {
    return frames.stats.presented;
  },
  get selection() {
    return [...selection];
  },
  get drawnMeasurement() {
    const m = currentModel()?.measurement;
    return m ? { a: m.a, b: m.b, valid: m.valid } : null;
  },
  get answer() {
    return answer;
  },
  get layout() {
    return dom.views.dataset['layout'] ?? 'live';
  },
  get overlayKinds() {
    return currentShapes().table.map((s) => s.kind);
  },
  get scenario() {
    return scenarioFile;
  },
  baseCorners(unitId: string) {
    const m = currentModel();
    const unit = m?.units.find((u) => u.id === unitId);
    if (!unit) return null;
    const n = defaultOverlayOptions().samplesPerEdge;
    return unit.bases.map((b) => ({
      markerId: b.markerId,
      corners: [0, 1, 2, 3].map((k) => b.outline[k * n]!),
    }));
  },
  tacticalScreenPoint(x: number, y: number) {
    const rect = dom.tactical.getBoundingClientRect();
    const c = tableToCss(tacticalViewport(), { x, y });
    return { x: rect.left + c.x, y: rect.top + c.y };
  },
  tacticalUnitCentre(unitId: string) {
    const unit = (shown?.state ?? lastState)?.units.find((u) => u.id === unitId);
    const base = unit?.bases[Math.floor((unit.bases.length - 1) / 2)];
    if (!base) return null;
    const rect = dom.tactical.getBoundingClientRect();
    const c = tableToCss(tacticalViewport(), { x: base.x, y: base.y });
    return { x: rect.left + c.x, y: rect.top + c.y };
  },
  unitScreenCentre(unitId: string) {
    const m = currentModel();
    if (!m) return null;
    const p = unitInteriorPoint(m, unitId);
    if (!p) return null;
    const rect = dom.canvas.getBoundingClientRect();
    const c = imageToCss(currentViewport(), p);
    return { x: rect.left + c.x, y: rect.top + c.y };
  },
});
