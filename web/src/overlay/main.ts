import type { StateMessage } from '../../../src/server/protocol.ts';
import type { AskResponse } from '../../../src/server/referee-routes.ts';
import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { api } from '../core/api.ts';
import { LiveConnection } from '../core/connection.ts';
import { buildOverlay } from '../core/overlay-model.ts';
import { render } from '../render/picture.ts';
import { projectShapes } from '../core/shape-projection.ts';
import { buildTableOverlays, defaultToggles } from '../core/table-overlays.ts';
import { fitContain } from '../core/viewport.ts';

/**
 * The streamer page (overlay.html): the same overlays as the live view — unit outlines, terrain,
 * and the referee's current question with its reach, sight lines and measurement — on a
 * transparent background with no picture and no controls. Size the browser source to the camera
 * picture (same aspect ratio) and lay it over the camera feed; it follows the last question asked
 * on the main page (GET /api/referee/last). `?terrain=0` hides terrain, `?units=0` unit outlines.
 */

const canvas = document.getElementById('overlay') as HTMLCanvasElement;
const ctx = canvas.getContext('2d', { alpha: true });
if (!ctx) throw new Error('this browser cannot draw on a canvas');
const params = new URLSearchParams(window.location.search);
const showTerrain = params.get('terrain') !== '0';
const showUnits = params.get('units') !== '0';

let state: StateMessage | null = null;
let scenario: ScenarioFile | null = null;
let answer: AskResponse | null = null;
let size = { width: 0, height: 0, dpr: 1 };
let pending = false;
let drawn = 0;

function resize(): void {
  const dpr = window.devicePixelRatio || 1;
  size = { width: window.innerWidth, height: window.innerHeight, dpr };
  canvas.width = Math.max(1, Math.round(size.width * dpr));
  canvas.height = Math.max(1, Math.round(size.height * dpr));
  draw();
}

function draw(): void {
  if (pending || !ctx) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    if (!state) return;
    const selection = answer ? [answer.subject?.id, answer.object?.id].filter((x): x is string => !!x) : [];
    const shapes = buildTableOverlays({
      state,
      scenario,
      selection,
      answer,
      toggles: { ...defaultToggles(), terrain: showTerrain },
    });
    const vp = fitContain(size.width, size.height, state.camera.imageWidth, state.camera.imageHeight);
    const model = buildOverlay({ ...state, measurement: null }, selection);
    render(ctx, {
      viewport: vp,
      dpr: size.dpr,
      picture: null,
      transparent: true,
      model: showUnits ? model : { ...model, units: [] },
      hover: null,
      shapes: state.pose ? projectShapes(state.camera, state.pose, shapes) : [],
    });
    drawn += 1;
    document.body.dataset['drawn'] = String(drawn);
  });
}

async function loadScenario(): Promise<void> {
  try {
    scenario = (await api<{ scenario: ScenarioFile }>('GET', '/api/scenario')).scenario;
    draw();
  } catch {
    /* retried on the next hello */
  }
}

async function pollAnswer(): Promise<void> {
  try {
    answer = (await api<{ answer: AskResponse | null }>('GET', '/api/referee/last')).answer;
    document.body.dataset['answer'] = answer?.verdict.answer ?? '';
    draw();
  } catch {
    /* keep the last one */
  }
}

const connection: LiveConnection = new LiveConnection({
  onFrame: () => undefined,
  onMessage: (m) => {
    if (m.type === 'state') {
      state = m;
      draw();
    } else if (m.type === 'hello') void loadScenario();
  },
  onBadMessage: () => undefined,
  onStatus: () => undefined,
  // This page draws overlays only, over the streamer's own camera: states, no pictures.
  onOpen: () => void connection.send({ type: 'view', width: 0 }),
});
connection.start();
window.addEventListener('resize', resize);
resize();
void pollAnswer();
window.setInterval(() => void pollAnswer(), 1000);
