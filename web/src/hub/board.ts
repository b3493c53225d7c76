import { counted, formatElapsed } from '../replay/model.ts';
import { board, el, tableState, type BoardTable } from './hub-api.ts';

/**
 * The tournament board: a card per table with its live picture (refreshed every few seconds),
 * state, players, scenario, turn and last ruling, and links to its live view and its replay.
 */

const list = document.getElementById('board') as HTMLOListElement;
const summary = document.getElementById('summary') as HTMLSpanElement;
const notice = document.getElementById('notice') as HTMLDivElement;
const cards = new Map<string, HTMLLIElement>();
let refreshes = 0;

function card(t: BoardTable, stamp: number): HTMLLIElement {
  const { state, text } = tableState(t);
  const li = el('li', { className: 'card' });
  li.dataset['table'] = t.id;
  li.dataset['state'] = state;
  const thumb = el('a', { className: 'thumb', href: `/hub/table.html?table=${encodeURIComponent(t.id)}` });
  if (t.live || t.battle) {
    const img = el('img');
    img.alt = `${t.name}: the table's camera`;
    img.src = `/hub/api/tables/${encodeURIComponent(t.id)}/thumbnail.jpg?at=${stamp}`;
    img.addEventListener('error', () =>
      img.replaceWith(el('span', { className: 'none', textContent: 'no picture yet' })),
    );
    thumb.append(img);
  } else thumb.append(el('span', { className: 'none', textContent: 'no picture yet' }));
  const badge = el('span', { className: 'badge', textContent: text });
  badge.dataset['state'] = state;
  const b = t.battle;
  const body = el(
    'div',
    { className: 'body' },
    el('h2', {}, el('span', { textContent: t.name }), badge),
    el('span', {
      className: 'players',
      textContent: t.players.length ? t.players.join(' vs ') : 'players not set',
    }),
    el('span', { className: 'scenario', textContent: b?.scenario ?? t.liveScenario ?? 'no battle yet' }),
  );
  if (b) {
    body.append(
      el('span', {
        className: 'turn',
        textContent: `${b.turn ? `Turn ${b.turn}` : 'before the first turn'} · ${formatElapsed(b.lastEventAt - b.startedAt)} · ${counted(b.moves, 'move')}`,
      }),
    );
    const r = b.lastRuling;
    const ruling = el('span', { className: 'last-ruling' });
    if (r)
      ruling.append(
        'Last ruling: ',
        r.asked,
        ' — ',
        el('strong', { className: `answer-${r.answer}`, textContent: r.answer }),
      );
    else ruling.textContent = 'No ruling yet';
    body.append(ruling);
  }
  const links = el(
    'div',
    { className: 'links' },
    el('a', { href: `/hub/table.html?table=${encodeURIComponent(t.id)}`, textContent: 'Watch live' }),
  );
  if (b) links.append(el('a', { href: `/replay.html?battle=${b.id}`, textContent: 'Replay' }));
  body.append(links);
  li.append(thumb, body);
  return li;
}

async function refresh(): Promise<void> {
  try {
    const { tables } = await board();
    notice.hidden = true;
    const stamp = Math.floor(Date.now() / 3000);
    const seen = new Set<string>();
    for (const t of tables) {
      seen.add(t.id);
      const next = card(t, stamp);
      const old = cards.get(t.id);
      if (old) old.replaceWith(next);
      else list.append(next);
      cards.set(t.id, next);
    }
    for (const [id, li] of cards) {
      if (seen.has(id)) continue;
      li.remove();
      cards.delete(id);
    }
    const live = tables.filter((t) => t.live).length;
    summary.textContent = `${tables.length} tables, ${live} live`;
    if (tables.length === 0) {
      notice.textContent = 'No tables yet: the organiser adds them with `vedette hub add-table <id>`.';
      notice.hidden = false;
    }
    refreshes++;
    document.body.dataset['refreshes'] = String(refreshes);
  } catch (err) {
    notice.textContent = `The board cannot be read: ${(err as Error).message}`;
    notice.hidden = false;
  }
}

void refresh();
window.setInterval(() => void refresh(), 3000);
