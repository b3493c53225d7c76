import type { StateMessage } from '../../../src/server/protocol.ts';
import { LiveConnection, type ConnectionStatus } from '../core/connection.ts';
import { FrameSync } from '../core/frame-sync.ts';
import { buildOverlay } from '../core/overlay-model.ts';
import { render } from '../render/picture.ts';
import { fitContain } from '../core/viewport.ts';
import { formatElapsed } from '../replay/model.ts';
import { board, clock, el, tableState, type BoardTable } from './hub-api.ts';

/**
 * One table's live view through the hub (`/hub/table.html?table=<id>`): the table's own live
 * messages, fanned out by the hub unchanged, drawn with the live page's own renderer (picture,
 * unit outlines, the table's outline); beside it the table's battle, turn and last ruling.
 */

const params = new URLSearchParams(window.location.search);
const tableId = params.get('table') ?? '';
const canvas = document.getElementById('view') as HTMLCanvasElement;
const ctx = canvas.getContext('2d', { alpha: false });
const notice = document.getElementById('notice') as HTMLDivElement;
const connection = document.getElementById('connection') as HTMLSpanElement;
const title = document.getElementById('title') as HTMLSpanElement;
const facts = document.getElementById('facts') as HTMLDListElement;
const ruling = document.getElementById('ruling') as HTMLParagraphElement;
const replay = document.getElementById('replay') as HTMLAnchorElement;

let picture: ImageBitmap | null = null;
let state: StateMessage | null = null;
let size = { width: 1, height: 1, dpr: 1 };
let pending = false;
let presented = 0;
let scenario = '';
let source = '';

function say(text: string): void {
  notice.textContent = text;
  notice.hidden = text === '';
}

function draw(): void {
  if (pending || !ctx) return;
  pending = true;
  requestAnimationFrame(() => {
    pending = false;
    const cam = state?.camera;
    render(ctx, {
      viewport: fitContain(size.width, size.height, cam?.imageWidth ?? 1920, cam?.imageHeight ?? 1080),
      dpr: size.dpr,
      picture,
      model: state ? buildOverlay(state, []) : null,
      hover: null,
    });
  });
}

function resize(): void {
  const r = canvas.getBoundingClientRect();
  const dpr = window.devicePixelRatio || 1;
  size = { width: r.width, height: r.height, dpr };
  canvas.width = Math.max(1, Math.round(r.width * dpr));
  canvas.height = Math.max(1, Math.round(r.height * dpr));
  draw();
}

const frames = new FrameSync<ImageBitmap>(
  (jpeg) => createImageBitmap(new Blob([jpeg], { type: 'image/jpeg' })),
  (frame) => {
    picture?.close();
    picture = frame.picture;
    state = frame.state;
    presented++;
    document.body.dataset['presented'] = String(presented);
    document.body.dataset['units'] = String(frame.state.units.length);
    say('');
    draw();
  },
);

function showConnection(s: ConnectionStatus): void {
  connection.dataset['state'] = s.phase === 'open' ? 'live' : 'connecting';
  connection.textContent =
    s.phase === 'open' ? 'watching' : s.phase === 'connecting' ? 'connecting…' : 'reconnecting…';
}

function fact(name: string, value: string): Node[] {
  return [el('dt', { textContent: name }), el('dd', { textContent: value })];
}

function showTable(t: BoardTable): void {
  const { state: s, text } = tableState(t);
  title.textContent = `${t.name}${t.players.length ? ` — ${t.players.join(' vs ')}` : ''}`;
  document.title = `Vedette hub — ${t.name}`;
  const b = t.battle;
  facts.replaceChildren(
    ...fact('Table', text),
    ...fact('Camera', source || t.source || '—'),
    ...fact('Scenario', scenario || t.liveScenario || b?.scenario || '—'),
    ...(b
      ? [
          ...fact('Battle', b.name),
          ...fact('Ruleset', b.ruleset),
          ...fact('Turn', b.turn ? String(b.turn) : 'before the first'),
          ...fact('Length', formatElapsed(b.lastEventAt - b.startedAt)),
          ...fact('Moves', String(b.moves)),
          ...fact('Rulings', String(b.rulings)),
        ]
      : []),
  );
  if (s === 'offline' && !picture) say('This table is not sending its picture now.');
  if (b?.lastRuling) {
    const r = b.lastRuling;
    ruling.replaceChildren(
      el('span', { textContent: `${clock(r.t).slice(11)} ` }),
      r.asked,
      ' — ',
      el('strong', { className: `answer-${r.answer}`, textContent: r.answer }),
    );
  } else ruling.textContent = 'none yet';
  if (b) {
    replay.href = `/replay.html?battle=${b.id}`;
    replay.hidden = false;
  }
}

async function refreshFacts(): Promise<void> {
  try {
    const t = (await board()).tables.find((x) => x.id === tableId);
    if (!t) return say(`No table "${tableId}" on this hub.`);
    showTable(t);
  } catch (err) {
    say(`The hub cannot be read: ${(err as Error).message}`);
  }
}

if (!/^[a-z0-9][a-z0-9-]{0,39}$/.test(tableId)) say('Open a table from the board (this address names none).');
else {
  const url = `${window.location.protocol === 'https:' ? 'wss' : 'ws'}://${window.location.host}/hub/live/${encodeURIComponent(tableId)}`;
  new LiveConnection(
    {
      onFrame: (jpeg) => frames.pushFrame(jpeg),
      onMessage: (m) => {
        if (m.type === 'state') {
          if (!frames.pushState(m)) {
            state = m;
            draw();
          }
        } else if (m.type === 'hello') {
          scenario = m.scenario;
          source = m.source;
          document.body.dataset['scenario'] = m.scenario;
        } else if (m.type === 'error') say(`The table says: ${m.message}`);
      },
      // Messages this page does not draw yet (a newer table's overlays) are passed over.
      onBadMessage: () => undefined,
      onStatus: showConnection,
      onOpen: () => frames.reset(),
    },
    { url, minDelayMs: 500, maxDelayMs: 10_000, staleAfterMs: 15_000 },
  ).start();
  void refreshFacts();
  window.setInterval(() => void refreshFacts(), 3000);
}
window.addEventListener('resize', resize);
resize();
