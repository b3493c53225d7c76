import type { StateMessage } from '../../../src/server/protocol.ts';
import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { api } from '../core/api.ts';
import { LiveConnection } from '../core/connection.ts';
import { FrameSync, type PresentedFrame } from '../core/frame-sync.ts';
import { defaultOverlayOptions } from '../core/overlay-model.ts';
import { pick, resendFor } from '../core/selection.ts';
import { FpsMeter } from '../core/status.ts';
import { mountCalibrationPanel } from '../calibration/calibration-panel.ts';
import { mountRefereePanel } from '../referee/referee-panel.ts';
import { mountThreatPanel } from '../referee/threat-panel.ts';
import { mountUnitList } from '../referee/unit-list.ts';
import type { TableThreatResponse, ThreatResponse } from '../../../src/server/threat-routes.ts';
import { kindOfMode, ThreatPoller } from '../core/threats.ts';
import { TacticalView } from '../tactical/tactical-view.ts';
import { mountTerrainPanel } from '../tactical/terrain-panel.ts';
import { mountTabs } from '../ui/tabs.ts';
import { mountCameraButton } from './camera-sender.ts';
import { PictureView } from './picture-view.ts';
import { updateReadOut } from './read-out.ts';
import { mountRosterPanel } from './roster-panel.ts';
import { mountScenarioPanel } from './scenario-panel.ts';
import { Scene } from './scene.ts';
import { defaultLiveState, unitName, type Layout, type Shown } from './state.ts';
import { updateNotice, updateStatusLine } from './status-line.ts';
import { installTestHook } from './test-hook.ts';

/**
 * The live page (the home page): wires the connection and frame pairing to the headless state,
 * the two views, the side panel's tabs and the footer. Each piece lives in its own file; this one
 * only connects them.
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

/** How long without a picture before states are drawn over an empty background. */
const NO_PICTURE_AFTER_MS = 2000;

const state = defaultLiveState();
const scene = new Scene(state);
const fps = new FpsMeter();
let errorTimer: number | null = null;
let rafPending = false;

function changed(): void {
  scene.invalidate();
  requestRender();
}

function requestRender(): void {
  if (rafPending) return;
  rafPending = true;
  requestAnimationFrame(() => {
    rafPending = false;
    if (state.layout !== 'tactical') picture.draw();
    if (state.layout !== 'live') tactical.draw();
  });
}

const picture = new PictureView(dom.stage, dom.canvas, state, scene, (id) => applyPick(id), requestRender);
const tactical = new TacticalView(
  dom.tacticalStage,
  dom.tactical,
  state,
  scene,
  () => terrain.draft,
  { pick: (id) => applyPick(id), addPoint: (p) => terrain.addPoint(p) },
  requestRender,
);

// ---------------------------------------------------------------------------------------------
// Frames and messages

function show(next: Shown): void {
  if (state.shown?.picture && state.shown.picture !== next.picture) state.shown.picture.close();
  state.shown = next;
  changed();
  updateNotice(dom, state);
}

const frames = new FrameSync<ImageBitmap>(
  (jpeg) => createImageBitmap(new Blob([jpeg], { type: 'image/jpeg' })),
  (frame: PresentedFrame<ImageBitmap>) => {
    fps.tick(performance.now());
    show({ picture: frame.picture, state: frame.state, at: performance.now() });
  },
);

/** When recent states arrived, with their bases (the browser test times the threat view from these). */
const stateArrivals: Array<{
  frame: number;
  at: number;
  bases: Array<{ markerId: number; x: number; y: number }>;
}> = [];

function onState(message: StateMessage): void {
  state.lastState = message;
  stateArrivals.push({
    frame: message.frame,
    at: performance.now(),
    bases: message.units.flatMap((u) => u.bases.map((b) => ({ markerId: b.markerId, x: b.x, y: b.y }))),
  });
  if (stateArrivals.length > 120) stateArrivals.shift();
  const paired = frames.pushState(message);
  if (!paired) {
    // A state without a picture of its own: the server re-sends the current frame's state when
    // the selection changes (same frame counter: same picture), or the camera has gone quiet.
    const shown = state.shown;
    if (shown && shown.state.frame === message.frame) show({ ...shown, state: message });
    else if (!shown || performance.now() - shown.at > NO_PICTURE_AFTER_MS)
      show({ picture: null, state: message, at: shown?.at ?? 0 });
  }
  referee.noteState(message);
  if (referee.answerStale !== state.answerStale) {
    state.answerStale = referee.answerStale;
    changed();
  }
  noteThreats();
  units.setSeen(new Set(message.units.filter((u) => u.bases.some((b) => b.seen)).map((u) => u.id)));
  updateReadOut(dom, state);
  updateStatusLine(dom, state, fps);
}

let scenarioName: string | null = null;

function onHello(scenario: string, source: string): void {
  dom.scenario.textContent = `${scenario} · ${source}`;
  // Another scenario was loaded: its units are not the ones selected.
  if (scenarioName !== null && scenario !== scenarioName && state.selection.length > 0) applyPick(null);
  scenarioName = scenario;
  void loadScenario();
}

async function loadScenario(): Promise<void> {
  try {
    setScenario((await api<{ scenario: ScenarioFile }>('GET', '/api/scenario')).scenario);
  } catch (err) {
    showError(`cannot read the scenario: ${(err as Error).message}`);
  }
}

function setScenario(file: ScenarioFile): void {
  state.scenario = file;
  roster.setScenario(file);
  terrain.setScenario(file);
  referee.setScenario(file);
  units.setScenario(file);
  changed();
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
    sendPictureWidth(true);
    const resend = resendFor(state.selection);
    if (resend) connection.send(resend);
  },
  onStatus: (status) => {
    state.connection = status;
    if (status.phase !== 'open') fps.reset();
    updateStatusLine(dom, state, fps);
  },
});

// ---------------------------------------------------------------------------------------------
// Picking units (picture, tactical view, unit list)

function applyPick(unitId: string | null): void {
  const step = pick(state.selection, unitId);
  state.selection = step.selection;
  if (step.send) connection.send(step.send);
  referee.setSelection(state.selection[0], state.selection[1]);
  units.setSelection(state.selection);
  noteThreats();
  changed();
  updateReadOut(dom, state);
}

dom.clear.addEventListener('click', () => applyPick(null));
window.addEventListener('keydown', (e) => {
  if (e.key === 'Escape' && !(e.target instanceof HTMLInputElement)) applyPick(null);
});

// ---------------------------------------------------------------------------------------------
// Side panel, views, layout

const referee = mountRefereePanel({
  onAnswer: (res) => {
    state.answer = res;
    state.answerStale = referee.answerStale;
    changed();
    updateReadOut(dom, state);
  },
  onRuleset: () => {
    state.unit = referee.unit();
    state.zone = referee.zone();
    state.rulesetNames = referee.rulesetNames();
    const zone = document.getElementById('zone-toggle-text');
    if (zone)
      zone.textContent = state.zone
        ? `${state.zone.value} ${state.zone.unit} zone (${state.zone.purpose})`
        : 'Zone';
    changed();
    updateReadOut(dom, state);
  },
});
// The threat view: the picked unit (A) against every enemy, asked again whenever poses change.
const threatPanel = mountThreatPanel(element('threats', HTMLElement), () => {
  state.threats.on = threatPanel.on;
  state.threats.mode = threatPanel.mode;
  noteThreats();
  changed();
});
// This page's own name for its threat requests: a newer request supersedes an older one of the
// same page only, never another player's (not a secret: crypto.randomUUID needs a secure context).
const threatClient = Math.random().toString(36).slice(2, 12);
const threats = new ThreatPoller(
  (q) =>
    api<ThreatResponse>('POST', '/api/threats', {
      client: threatClient,
      unit: q.unit,
      ...(q.ruleset ? { ruleset: q.ruleset } : {}),
      options: q.options,
    }),
  () => {
    state.threats.view = threats.view;
    showThreats();
    changed();
  },
);
const tableThreats = new ThreatPoller<TableThreatResponse>(
  (q) =>
    api<TableThreatResponse>('POST', '/api/threats/table', {
      client: threatClient,
      kind: q.kind ?? 'shoot',
      ...(q.ruleset ? { ruleset: q.ruleset } : {}),
      options: q.options,
    }),
  () => {
    state.threats.table = tableThreats.view;
    threatPanel.showTable(tableThreats.view, tableThreats.error);
    changed();
  },
  () => performance.now(),
  (view, q) => view.kind === q.kind,
);
function showThreats(): void {
  const a = state.selection[0];
  threatPanel.show(threats.view, a ? unitName(state, a) : null, threats.error);
}
function noteThreats(): void {
  const a = state.selection[0];
  threats.note(
    threatPanel.on ? state.lastState : null,
    threatPanel.on && a ? { unit: a, ...referee.rules() } : null,
  );
  tableThreats.note(
    threatPanel.whole ? state.lastState : null,
    threatPanel.whole ? { unit: null, kind: kindOfMode(threatPanel.mode), ...referee.rules() } : null,
  );
  if (!threatPanel.whole) state.threats.table = null;
  showThreats();
}
const units = mountUnitList(element('unit-list', HTMLDivElement), (id) => applyPick(id));
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
  referee.setTerrainEditing(terrain.editing);
  if (d.active && state.layout === 'live') setLayout('split');
  requestRender();
});
const scenarioPanel = mountScenarioPanel(panel('scenario'), onScenarioChanged);
const calibration = mountCalibrationPanel(panel('calibrate'));

const tabs = mountTabs(element('tabs', HTMLElement), (name) => {
  roster.setVisible(name === 'roster');
  if (name === 'scenario') scenarioPanel.refresh();
  if (name === 'calibrate') calibration.refresh();
});
// The home page's links open a tab directly: /#calibrate.
const fromHash = () => {
  const name = location.hash.replace('#', '');
  if (document.querySelector(`[data-tab="${CSS.escape(name)}"]`)) tabs.select(name);
};
window.addEventListener('hashchange', fromHash);
fromHash();

function setLayout(layout: Layout): void {
  state.layout = layout;
  dom.views.dataset['layout'] = layout;
  for (const b of document.querySelectorAll<HTMLButtonElement>('.layout-switch [data-layout]'))
    b.setAttribute('aria-pressed', String(b.dataset['layout'] === layout));
  resize();
}
for (const b of document.querySelectorAll<HTMLButtonElement>('.layout-switch [data-layout]'))
  b.addEventListener('click', () => setLayout((b.dataset['layout'] ?? 'live') as Layout));

for (const input of document.querySelectorAll<HTMLInputElement>('[data-toggle]'))
  input.addEventListener('change', () => {
    state.toggles = { ...state.toggles, [input.dataset['toggle'] ?? '']: input.checked };
    changed();
  });

function resize(): void {
  picture.resize();
  tactical.resize();
  sendPictureWidth(false);
  requestRender();
}

/**
 * Asks for pictures as wide as the canvas draws them, in device pixels: a wider picture only costs
 * a larger decode and a downscale each frame (src/server/picture-sizes.ts).
 */
let pictureWidthSent = 0;
function sendPictureWidth(always: boolean): void {
  const width = Math.min(8192, Math.max(64, dom.canvas.width));
  if (!always && width === pictureWidthSent) return;
  if (connection.send({ type: 'view', width })) pictureWidthSent = width;
}

new ResizeObserver(resize).observe(dom.stage);
new ResizeObserver(resize).observe(dom.tacticalStage);
window.addEventListener('resize', resize);
resize();
updateReadOut(dom, state);
updateStatusLine(dom, state, fps);
window.setInterval(() => updateStatusLine(dom, state, fps), 500);
connection.start();
// A player's phone or laptop can be the camera (issue #8): its own button and socket, see camera-sender.ts.
mountCameraButton(document.getElementById('camera-slot'));

installTestHook({
  get lastState() {
    return state.lastState;
  },
  get shownFrame() {
    return state.shown?.state.frame ?? null;
  },
  get framesShown() {
    return frames.stats.presented;
  },
  get pictureSize() {
    const p = state.shown?.picture;
    return p ? { width: p.width, height: p.height, canvasWidth: dom.canvas.width } : null;
  },
  get selection() {
    return [...state.selection];
  },
  get drawnMeasurement() {
    const m = scene.overlay?.measurement;
    return m ? { a: m.a, b: m.b, valid: m.valid } : null;
  },
  get answer() {
    return state.answer;
  },
  get answerStale() {
    return state.answerStale;
  },
  get layout() {
    return state.layout;
  },
  get threats() {
    return {
      view: threats.view,
      receivedAt: threats.receivedAt,
      mode: state.threats.mode,
      on: state.threats.on,
      table: state.threats.table,
    };
  },
  get stateArrivals() {
    return [...stateArrivals];
  },
  get overlayKinds() {
    return scene.tableShapes.map((s) => s.kind);
  },
  get scenario() {
    return state.scenario;
  },
  get unitLabels() {
    return state.layout === 'tactical' ? tactical.labels : picture.labels;
  },
  get tacticalLabels() {
    return tactical.labels;
  },
  baseCorners(unitId: string) {
    const unit = scene.overlay?.units.find((u) => u.id === unitId);
    if (!unit) return null;
    const n = defaultOverlayOptions().samplesPerEdge;
    return unit.bases.map((b) => ({
      markerId: b.markerId,
      corners: [0, 1, 2, 3].map((k) => b.outline[k * n]!),
    }));
  },
  tacticalScreenPoint: (x: number, y: number) => tactical.screenPoint({ x, y }),
  tacticalUnitCentre: (unitId: string) => tactical.unitCentre(unitId),
  unitScreenCentre: (unitId: string) => picture.unitScreenCentre(unitId),
});
