import type { HubBattleSummary } from '../../../src/hub/store/archive.ts';
import { formatElapsed } from '../replay/model.ts';
import { clock, el, getJson } from './hub-api.ts';

/**
 * The archive: every battle of every table, searched by player, ruleset, scenario, table and
 * dates; each opens in the replay page and exports as a `.vedette-battle` file (or JSON, CSV).
 */

const form = document.getElementById('search') as HTMLFormElement;
const results = document.getElementById('results') as HTMLTableSectionElement;
const summary = document.getElementById('summary') as HTMLSpanElement;

function option(value: string): HTMLOptionElement {
  const o = el('option', { textContent: value });
  o.value = value;
  return o;
}

async function facets(): Promise<void> {
  const f = await getJson<{ rulesets: string[]; scenarios: string[]; tables: string[] }>(
    '/hub/api/archive/facets',
  );
  const ruleset = form.elements.namedItem('ruleset') as HTMLSelectElement;
  const table = form.elements.namedItem('table') as HTMLSelectElement;
  ruleset.append(...f.rulesets.map(option));
  table.append(...f.tables.map(option));
  (document.getElementById('scenarios') as HTMLDataListElement).append(...f.scenarios.map(option));
  const params = new URLSearchParams(window.location.search);
  for (const [k, v] of params) {
    const input = form.elements.namedItem(k);
    if (input instanceof HTMLInputElement || input instanceof HTMLSelectElement) input.value = v;
  }
}

function row(b: HubBattleSummary): HTMLTableRowElement {
  const tr = el('tr');
  tr.dataset['battle'] = String(b.id);
  const links = el(
    'td',
    { className: 'links' },
    el('a', { href: `/replay.html?battle=${b.id}`, textContent: 'Replay' }),
    el('a', {
      href: `/api/battles/${b.id}/export?format=battle`,
      textContent: 'Export',
      title: 'the .vedette-battle file',
    }),
    el('a', { href: `/api/battles/${b.id}/export?format=json`, textContent: 'JSON' }),
    el('a', { href: `/api/battles/${b.id}/export?format=moves.csv`, textContent: 'CSV' }),
  );
  tr.append(
    el('td', { textContent: clock(b.startedAt) }),
    el('td', { textContent: b.table }),
    el('td', { textContent: b.players.join(', ') || '—' }),
    el('td', { textContent: `${b.name}${b.endedAt === null ? ' (not ended)' : ''}`, title: b.scenario }),
    el('td', { textContent: b.ruleset }),
    el('td', { textContent: formatElapsed(b.lastEventAt - b.startedAt) }),
    el('td', { textContent: String(b.moves) }),
    el('td', { textContent: String(b.rulings) }),
    links,
  );
  return tr;
}

async function search(): Promise<void> {
  const params = new URLSearchParams();
  for (const [k, v] of new FormData(form))
    if (typeof v === 'string' && v.trim() !== '') params.set(k, v.trim());
  history.replaceState(null, '', `?${params.toString()}`);
  try {
    const { battles } = await getJson<{ battles: HubBattleSummary[] }>(
      `/hub/api/archive?${params.toString()}`,
    );
    results.replaceChildren(...battles.map(row));
    summary.textContent = `${battles.length} battle${battles.length === 1 ? '' : 's'}`;
  } catch (err) {
    summary.textContent = `The archive cannot be read: ${(err as Error).message}`;
  }
  document.body.dataset['searched'] = String(Number(document.body.dataset['searched'] ?? 0) + 1);
}

form.addEventListener('submit', (e) => {
  e.preventDefault();
  void search();
});
void facets()
  .catch(() => undefined)
  .then(() => search());
