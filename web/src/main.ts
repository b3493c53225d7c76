import type { StateMessage } from '../../src/server/protocol.ts';
import { LiveConnection, type ConnectionStatus } from './connection.ts';
import { FrameSync, type PresentedFrame } from './frame-sync.ts';
import {
  buildOverlay,
  formatDistance,
  hitTest,
  measurementMatches,
  unitInteriorPoint,
  type OverlayModel,
} from './overlay-model.ts';
import { render } from './render.ts';
import { emptySelection, pick, resendFor, type Selection } from './selection.ts';
import { describeConnection, FpsMeter, formatDetection, formatFps } from './status.ts';
import { installTestHook } from './test-hook.ts';
import { cssToImage, fitContain, imageToCss, type Viewport } from './viewport.ts';

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
  clear: element('clear', HTMLButtonElement),
};
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

// ---------------------------------------------------------------------------------------------
// Frames and messages

function show(next: Shown): void {
  if (shown?.picture && shown.picture !== next.picture) shown.picture.close();
  shown = next;
  modelDirty = true;
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
    modelDirty = false;
  }
  return model;
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
  requestRender();
}

function requestRender(): void {
  if (rafPending) return;
  rafPending = true;
  requestAnimationFrame(() => {
    rafPending = false;
    render(ctx, {
      viewport: currentViewport(),
      dpr: cssSize.dpr,
      picture: shown?.picture ?? null,
      model: currentModel(),
      hover,
    });
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

  if (a !== undefined && b !== undefined && m && measurementMatches(m, selection)) {
    el.dataset['valid'] = String(m.valid);
    el.dataset['a'] = m.a;
    el.dataset['b'] = m.b;
    el.dataset['distanceIn'] = String(m.distanceIn);
    el.dataset['uncertaintyIn'] = String(m.uncertaintyIn);
    el.textContent =
      formatDistance(m.distanceIn, m.uncertaintyIn) + (m.valid ? '' : ' (not measured this frame)');
    el.title = m.text;
    el.classList.toggle('stale', !m.valid);
  } else {
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
  dom.pose.hidden = !poseUnknown;
  dom.pose.textContent = poseUnknown ? '⚠ table pose unknown' : '';
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

new ResizeObserver(resize).observe(dom.stage);
window.addEventListener('resize', resize);
resize();
updateMeasurement();
updateStatus();
window.setInterval(updateStatus, 500);
connection.start();

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
