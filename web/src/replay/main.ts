import type { BattleSummary, ReplayData } from '../../../src/record/types.ts';
import { buildOverlay } from '../core/overlay-model.ts';
import { render } from '../render/picture.ts';
import { fitContain } from '../core/viewport.ts';
import { counted, formatElapsed, ReplayModel, RULING_PAIR, type ReplayFrame } from './model.ts';
import { withNames } from './names.ts';
import { mountRulingList, type RulingList } from './ruling-list.ts';
import { drawTactical } from './tactical.ts';
import { installReplayHook } from './test-hook.ts';

/**
 * The replay page: loads one battle (?battle=<id>), then draws the table at the chosen moment
 * from above and over the picture kept at the last settle point, with the timeline, turn marks,
 * steps, play at speed, trails and the rulings re-shown.
 */

function el<T extends HTMLElement>(id: string, type: new () => T): T {
  const e = document.getElementById(id);
  if (!(e instanceof type)) throw new Error(`page is missing #${id}`);
  return e;
}

const dom = {
  title: el('title', HTMLSpanElement),
  clock: el('clock', HTMLSpanElement),
  views: el('views', HTMLElement),
  tactical: el('tactical', HTMLCanvasElement),
  camera: el('camera', HTMLCanvasElement),
  cameraBox: el('camera-box', HTMLElement),
  cameraNote: el('camera-note', HTMLSpanElement),
  notice: el('notice', HTMLDivElement),
  prev: el('prev', HTMLButtonElement),
  play: el('play', HTMLButtonElement),
  next: el('next', HTMLButtonElement),
  speed: el('speed', HTMLSelectElement),
  trails: el('trails', HTMLInputElement),
  where: el('where', HTMLSpanElement),
  marks: el('marks', HTMLDivElement),
  scrub: el('scrub', HTMLInputElement),
  rulings: el('rulings-box', HTMLElement),
  annotations: el('annotations', HTMLOListElement),
};

const tctx = dom.tactical.getContext('2d')!;
const cctx = dom.camera.getContext('2d', { alpha: false })!;

let model: ReplayModel | null = null;
let t = 0;
let playing = false;
let lastTick = 0;
let drawn: ReplayFrame | null = null;
let pictureDrawn = false;
let rafPending = false;
let rulingList: RulingList | null = null;
const pictures = new Map<number, ImageBitmap | 'loading' | 'failed'>();
/** Slider positions over the whole battle: a 4-hour battle moves 1.44 s per step. */
const SCRUB_STEPS = 10_000;
dom.scrub.max = String(SCRUB_STEPS);

function notice(text: string): void {
  dom.notice.textContent = text;
  dom.notice.hidden = text === '';
}

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url);
  const body = (await res.json()) as unknown;
  if (!res.ok) throw new Error((body as { error?: string }).error ?? `${url}: HTTP ${res.status}`);
  return body as T;
}

async function showList(): Promise<void> {
  const list = await getJson<{ battles: BattleSummary[] }>('/api/battles');
  document.body.classList.add('listing');
  const box = document.createElement('div');
  box.className = 'battles';
  const heading = document.createElement('h2');
  heading.textContent = 'Recorded battles';
  const ol = document.createElement('ol');
  for (const b of [...list.battles].reverse()) {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = `?battle=${b.id}`;
    a.textContent = `#${b.id} ${b.name}`;
    li.append(
      a,
      ` — ${b.scenario}, ${formatElapsed(b.lastEventAt - b.startedAt)}, ${counted(b.moves, 'move')}, ${counted(b.rulings, 'ruling')}`,
    );
    ol.append(li);
  }
  box.append(heading);
  if (list.battles.length === 0)
    box.append('No battles recorded yet: `vedette serve` records every battle it watches.');
  box.append(ol);
  dom.views.replaceChildren(box);
}

function requestDraw(): void {
  if (rafPending) return;
  rafPending = true;
  requestAnimationFrame(() => {
    rafPending = false;
    draw();
  });
}

function canvasSize(c: HTMLCanvasElement): { width: number; height: number; dpr: number } {
  const r = c.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  const w = Math.max(1, Math.round(r.width * dpr));
  const h = Math.max(1, Math.round(r.height * dpr));
  if (c.width !== w) c.width = w;
  if (c.height !== h) c.height = h;
  return { width: r.width, height: r.height, dpr };
}

function picture(id: number, battleId: number): ImageBitmap | null {
  const p = pictures.get(id);
  if (p instanceof ImageBitmap) return p;
  if (p === undefined) {
    pictures.set(id, 'loading');
    fetch(`/api/battles/${battleId}/snapshots/${id}`)
      .then((r) => (r.ok ? r.blob() : Promise.reject(new Error(String(r.status)))))
      .then((b) => createImageBitmap(b))
      .then((bmp) => {
        pictures.set(id, bmp);
        requestDraw();
      })
      .catch(() => pictures.set(id, 'failed'));
  }
  return null;
}

function draw(): void {
  if (!model) return;
  const frame = model.frame(t);
  drawn = frame;
  const data = model.data;
  drawTactical(tctx, canvasSize(dom.tactical), data.battle.roster.table, frame, {
    trails: dom.trails.checked,
    annotations: data.annotations.filter((a) => a.at && a.t <= t).map((a) => ({ ...a.at!, text: a.text })),
  });
  // The camera picture kept at the last settle point, with the overlay code of the live page.
  const state = model.cameraState(frame);
  const size = canvasSize(dom.camera);
  if (state && frame.snapshot) {
    const pic = picture(frame.snapshot.id, data.battle.id);
    pictureDrawn = pic !== null;
    const selection = state.measurement ? [...RULING_PAIR] : [];
    render(cctx, {
      viewport: fitContain(size.width, size.height, state.camera.imageWidth, state.camera.imageHeight),
      dpr: size.dpr,
      picture: pic,
      model: buildOverlay(state, selection),
      hover: null,
    });
    dom.cameraNote.textContent = `picture at ${formatElapsed(frame.snapshot.t - model.start)}`;
  } else {
    pictureDrawn = false;
    cctx.setTransform(size.dpr, 0, 0, size.dpr, 0, 0);
    cctx.fillStyle = '#15181c';
    cctx.fillRect(0, 0, size.width, size.height);
    dom.cameraNote.textContent = data.snapshots.length === 0 ? '(no pictures kept)' : '(no picture yet)';
  }
  dom.clock.textContent = `${formatElapsed(t - model.start)} / ${formatElapsed(model.end - model.start)}`;
  dom.where.textContent = [frame.turn?.label, frame.phase?.label].filter(Boolean).join(' · ');
  dom.scrub.value = String(Math.round(((t - model.start) / (model.end - model.start)) * SCRUB_STEPS));
  dom.scrub.setAttribute('aria-valuetext', dom.clock.textContent);
  rulingList?.setCurrent(frame.ruling?.id ?? null);
}

function seek(next: number): void {
  if (!model) return;
  t = model.clamp(next);
  requestDraw();
}

function tick(now: number): void {
  if (!playing || !model) return;
  const dt = now - lastTick;
  lastTick = now;
  seek(t + dt * Number(dom.speed.value));
  if (t >= model.end) setPlaying(false);
  else requestAnimationFrame(tick);
}

function setPlaying(on: boolean): void {
  playing = on && model !== null;
  dom.play.textContent = playing ? '⏸' : '▶';
  if (playing) {
    if (model && t >= model.end) t = model.start;
    lastTick = performance.now();
    requestAnimationFrame(tick);
  }
}

function buildTimeline(m: ReplayModel): void {
  const span = m.end - m.start;
  const pos = (at: number) => `${((at - m.start) / span) * 100}%`;
  dom.marks.innerHTML = '';
  for (const mark of m.data.marks) {
    const d = document.createElement('div');
    d.className = `mark ${mark.kind}${mark.source === 'inferred' ? ' inferred' : ''}`;
    d.style.left = pos(mark.t);
    d.title = `${mark.label} at ${formatElapsed(mark.t - m.start)}`;
    dom.marks.append(d);
  }
  for (const r of m.data.rulings) {
    const d = document.createElement('div');
    d.className = 'mark ruling';
    d.style.left = pos(r.t);
    d.title = withNames(r.verdict.asked, m.data.battle.roster);
    dom.marks.append(d);
  }
  rulingList = mountRulingList(dom.rulings, m.data.rulings, m.data.battle.roster, m.start, (at) => {
    setPlaying(false);
    seek(at);
  });
  dom.annotations.innerHTML = '';
  for (const a of m.data.annotations) {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'ruling';
    b.textContent = `${formatElapsed(a.t - m.start)} ${a.author ? `${a.author}: ` : ''}${a.text}`;
    b.addEventListener('click', () => seek(a.t));
    li.append(b);
    dom.annotations.append(li);
  }
}

dom.play.addEventListener('click', () => setPlaying(!playing));
dom.next.addEventListener('click', () => {
  if (!model) return;
  setPlaying(false);
  const n = model.nextStep(t);
  if (n !== null) seek(n);
});
dom.prev.addEventListener('click', () => {
  if (!model) return;
  setPlaying(false);
  const p = model.prevStep(t);
  if (p !== null) seek(p);
});
dom.scrub.addEventListener('input', () => {
  if (!model) return;
  seek(model.start + (Number(dom.scrub.value) / SCRUB_STEPS) * (model.end - model.start));
});
dom.trails.addEventListener('change', requestDraw);
window.addEventListener('keydown', (e) => {
  if (e.target instanceof HTMLInputElement || e.target instanceof HTMLSelectElement) return;
  if (e.key === ' ') {
    e.preventDefault();
    setPlaying(!playing);
  } else if (e.key === 'ArrowRight') dom.next.click();
  else if (e.key === 'ArrowLeft') dom.prev.click();
});
new ResizeObserver(requestDraw).observe(dom.views);

installReplayHook({
  get ready() {
    return model !== null && drawn !== null;
  },
  get battleId() {
    return model?.data.battle.id ?? null;
  },
  get start() {
    return model?.start ?? 0;
  },
  get end() {
    return model?.end ?? 0;
  },
  get drawnAt() {
    return drawn?.t ?? null;
  },
  get playing() {
    return playing;
  },
  seek(at: number) {
    setPlaying(false);
    seek(at);
  },
  basesOf(unitId: string) {
    const u = drawn?.units.find((x) => x.id === unitId);
    return u
      ? u.bases.map((b) => ({ markerId: b.markerId, x: b.x, y: b.y, headingDeg: b.headingDeg }))
      : null;
  },
  get shownRuling() {
    return drawn?.ruling?.id ?? null;
  },
  get shownSnapshot() {
    return drawn?.snapshot?.id ?? null;
  },
  get pictureDrawn() {
    return pictureDrawn;
  },
  get clock() {
    return dom.clock.textContent ?? '';
  },
  get listedRulings() {
    return rulingList?.shown ?? [];
  },
  get trailPoints() {
    return drawn?.trails.reduce((s, tr) => s + tr.points.length, 0) ?? 0;
  },
});

async function start(): Promise<void> {
  const id = new URLSearchParams(location.search).get('battle');
  if (!id) return showList();
  notice('Loading the battle…');
  const data = await getJson<ReplayData>(`/api/battles/${encodeURIComponent(id)}/replay`);
  model = new ReplayModel(data);
  document.title = `Vedette — ${data.battle.name}`;
  dom.title.textContent = `#${data.battle.id} ${data.battle.name} · ${data.battle.scenario}${data.battle.endedAt === null ? ' (recording ended without a stop)' : ''}`;
  buildTimeline(model);
  const at = Number(new URLSearchParams(location.search).get('t'));
  t = Number.isFinite(at) && at > 0 ? model.clamp(at) : model.start;
  notice('');
  requestDraw();
}

start().catch((err: unknown) =>
  notice(`Cannot show this battle: ${err instanceof Error ? err.message : String(err)}`),
);
