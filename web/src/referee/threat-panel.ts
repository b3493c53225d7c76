import type { TableThreatResponse, ThreatResponse } from '../../../src/server/threat-routes.ts';
import {
  cellFor,
  ICON,
  kindOfMode,
  THREAT_MODES,
  toneOfCell,
  WORD,
  type ThreatMode,
} from '../core/threats.ts';
import type { ThreatCell } from '../../../src/server/threat-routes.ts';
import { h } from '../ui/dom.ts';
import { updateDetailsList } from '../ui/details-list.ts';
import { verdictCard } from './verdict-card.ts';

/**
 * The referee tab's threat view: a switch, which answer to show (A can shoot / charge / see each
 * enemy, or each enemy can shoot A), and the list of enemies with the answer as icon and word;
 * tapping an enemy opens the reason in the verdict card's words (the numbers line and reasons).
 */

export interface ThreatPanel {
  readonly on: boolean;
  readonly mode: ThreatMode;
  /** The whole-table view is asked for. */
  readonly whole: boolean;
  /** Shows the whole-table view (null: none yet). */
  showTable(view: TableThreatResponse | null, status: string | null): void;
  /** Shows a view (null: none yet), for the picked unit's name, with the status line. */
  show(view: ThreatResponse | null, unitName: string | null, status: string | null): void;
}

export function mountThreatPanel(root: HTMLElement, onChange: () => void): ThreatPanel {
  const toggle = h('input', { type: 'checkbox', id: 'threat-on' });
  const modes = h('div', { class: 'threat-modes', role: 'radiogroup', 'aria-label': 'Which answer to show' });
  for (const { mode, label } of THREAT_MODES)
    modes.append(
      h(
        'label',
        { class: 'check' },
        h('input', { type: 'radio', name: 'threat-mode', value: mode, checked: mode === 'shoot' }),
        ` ${label}`,
      ),
    );
  const whole = h('input', { type: 'checkbox', id: 'threat-whole' });
  const wholeRow = h(
    'label',
    { class: 'check' },
    whole,
    ' Whole table: every unit that can do it to some enemy',
  );
  const tableStatus = h('p', { class: 'muted', id: 'threat-table-status', 'aria-live': 'polite' });
  const tableList = h('ul', {
    class: 'threat-list',
    id: 'threat-table-list',
    'aria-label': 'Units and whether they can',
  });
  const status = h('p', { class: 'muted', id: 'threat-status', 'aria-live': 'polite' });
  const list = h('ul', { class: 'threat-list', id: 'threat-list', 'aria-label': 'Enemies and the answer' });
  root.append(
    h('label', { class: 'check' }, toggle, ' Threat view: every enemy of A, updating as units move'),
    modes,
    status,
    list,
    wholeRow,
    tableStatus,
    tableList,
    h(
      'p',
      { class: 'legend muted' },
      'Threat lines: ✔ solid = yes, ✘ dotted = no, ≈ dashed amber = too close to call. Tap an enemy for the reason.',
    ),
  );
  let mode: ThreatMode = 'shoot';
  let last: { view: ThreatResponse | null; unitName: string | null; status: string | null } = {
    view: null,
    unitName: null,
    status: null,
  };
  let lastTable: { view: TableThreatResponse | null; status: string | null } = { view: null, status: null };
  const sync = (): void => {
    modes.hidden = !toggle.checked;
    list.hidden = !toggle.checked;
    wholeRow.hidden = !toggle.checked;
    tableList.hidden = !toggle.checked || !whole.checked;
    tableStatus.hidden = tableList.hidden;
  };
  whole.addEventListener('change', () => {
    sync();
    renderTable();
    onChange();
  });
  toggle.addEventListener('change', () => {
    sync();
    render();
    renderTable();
    onChange();
  });
  modes.addEventListener('change', (e) => {
    const t = e.target;
    if (t instanceof HTMLInputElement && t.name === 'threat-mode') {
      mode = t.value as ThreatMode;
      render();
      renderTable();
      onChange();
    }
  });
  sync();

  function render(): void {
    const { view, unitName, status: words } = last;
    if (!toggle.checked) {
      status.textContent = '';
      list.replaceChildren();
      return;
    }
    if (!unitName) status.textContent = 'Pick a unit (A) to see what it threatens.';
    else if (words) status.textContent = words;
    else if (!view) status.textContent = `Asking about ${unitName}…`;
    else if (view.kinds.length === 0)
      status.textContent = 'This ruleset answers none of shoot, charge or see: nothing to show.';
    else if (mode !== 'shotBy' && !view.kinds.includes(mode))
      status.textContent = `This ruleset does not answer ${mode}.`;
    else {
      const yes = view.pairs.filter((p) => toneOfCell(cellFor(p, mode)) === 'yes').length;
      const what = THREAT_MODES.find((m) => m.mode === mode)?.label.replace('A', unitName) ?? mode;
      status.textContent = `${what}: ${yes} of ${view.pairs.length} enemies (frame ${view.frame}, ${view.ms} ms).`;
    }
    updateDetailsList(
      list,
      'enemy',
      (view?.pairs ?? []).map((pair) => {
        const cell = cellFor(pair, mode);
        const tone = toneOfCell(cell);
        return {
          key: pair.enemy,
          tone,
          summary: `${ICON[tone]} ${pair.name} — ${WORD[tone]}`,
          body: reasonOf(cell),
        };
      }),
    );
  }

  /** The reason in the verdict card's words: its numbers line and the ruleset's reasons. */
  function reasonOf(cell: ThreatCell | undefined): HTMLElement[] {
    if (!cell) return [];
    if ('refused' in cell) return [h('p', {}, cell.refused)];
    const card = verdictCard({ ...cell.verdict, checks: [] });
    return [
      ...(card.measure ? [h('p', { class: 'threat-measure' }, card.measure)] : []),
      h('ul', {}, ...card.reasons.map((r) => h('li', {}, r))),
    ];
  }

  function renderTable(): void {
    const { view, status: words } = lastTable;
    if (!toggle.checked || !whole.checked) {
      tableList.replaceChildren();
      return;
    }
    const kind = kindOfMode(mode);
    if (words) tableStatus.textContent = words;
    else if (!view || view.kind !== kind) tableStatus.textContent = `Asking every unit (${kind})…`;
    else if (!view.answered) tableStatus.textContent = `This ruleset does not answer ${kind}.`;
    else {
      const yes = view.units.filter((u) => u.answer === 'yes').length;
      tableStatus.textContent = `${yes} of ${view.units.length} units can ${kind} some enemy (frame ${view.frame}, ${view.ms} ms, ${view.asked} pairs asked).`;
    }
    updateDetailsList(
      tableList,
      'unit',
      (view && view.kind === kind ? view.units : []).map((u) => {
        const against = u.enemyName ? ` → ${u.enemyName}` : '';
        return {
          key: u.unit,
          tone: u.answer,
          summary: `${ICON[u.answer]} ${u.name} — ${WORD[u.answer]}${u.answer === 'no' ? '' : against}`,
          body: reasonOf(u.cell),
        };
      }),
    );
  }

  return {
    get whole() {
      return toggle.checked && whole.checked;
    },
    showTable(view, words) {
      lastTable = { view, status: words };
      renderTable();
    },
    get on() {
      return toggle.checked;
    },
    get mode() {
      return mode;
    },
    show(view, unitName, words) {
      last = { view, unitName, status: words };
      render();
    },
  };
}
