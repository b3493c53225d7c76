import type { BattleRoster, RulingRecord } from '../../../src/record/types.ts';
import { h } from '../ui/dom.ts';
import { counted, formatElapsed } from './model.ts';
import { kindWord, unitsOf, withNames } from './names.ts';

/**
 * The battle's rulings as a list of buttons (each jumps to its moment), in unit names, with two
 * filters: by unit and by kind of question.
 */

export interface RulingList {
  /** Marks the ruling re-shown now. */
  setCurrent(id: number | null): void;
  /** Rulings listed now (after the filters), by id. */
  readonly shown: readonly number[];
}

export function mountRulingList(
  root: HTMLElement,
  rulings: readonly RulingRecord[],
  roster: BattleRoster,
  start: number,
  onSeek: (t: number) => void,
): RulingList {
  const unitFilter = h(
    'select',
    { id: 'ruling-unit', 'aria-label': 'Show rulings about' },
    h('option', { value: '' }, 'every unit'),
    ...roster.units.map((u) => h('option', { value: u.id }, u.name)),
  );
  const kinds = [...new Set(rulings.map((r) => r.verdict.question))];
  const kindFilter = h(
    'select',
    { id: 'ruling-kind', 'aria-label': 'Show rulings of the kind' },
    h('option', { value: '' }, 'every kind'),
    ...kinds.map((k) => h('option', { value: k }, kindWord(k))),
  );
  const count = h('p', { class: 'muted', id: 'ruling-count', role: 'status' });
  const list = h('ol', { class: 'rulings', id: 'rulings' });
  let shown: number[] = [];
  let current: number | null = null;
  const about = new Map(rulings.map((r) => [r.id, unitsOf(r, roster)]));

  function draw(): void {
    const unit = unitFilter.value;
    const kind = kindFilter.value;
    const rows = rulings.filter(
      (r) => (!unit || about.get(r.id)?.includes(unit)) && (!kind || r.verdict.question === kind),
    );
    shown = rows.map((r) => r.id ?? -1);
    count.textContent = `${rows.length} of ${counted(rulings.length, 'ruling')}`;
    list.replaceChildren(
      ...rows.map((r) => {
        const v = r.verdict;
        const value = v.value !== undefined ? ` ${v.value.toFixed(2)}${v.unit ? ` ${v.unit}` : ''}` : '';
        const asked = withNames(v.asked, roster);
        return h(
          'li',
          { 'data-id': String(r.id), class: r.id === current ? 'current' : undefined },
          h(
            'button',
            {
              type: 'button',
              class: 'ruling',
              title: v.reasons.map((x) => withNames(x, roster)).join('\n'),
              'aria-current': r.id === current ? 'true' : undefined,
              onclick: () => onSeek(r.t),
            },
            h('span', { class: 't' }, formatElapsed(r.t - start)),
            ' ',
            h('span', { class: 'asked' }, asked),
            ' ',
            h(
              'b',
              { class: v.answer },
              `${v.answer === 'borderline' ? 'too close to call' : v.answer}${value}`,
            ),
          ),
        );
      }),
    );
  }
  unitFilter.addEventListener('change', draw);
  kindFilter.addEventListener('change', draw);
  root.replaceChildren(h('div', { class: 'filters' }, unitFilter, kindFilter), count, list);
  draw();
  return {
    setCurrent(id) {
      if (id === current) return;
      current = id;
      for (const li of list.children) {
        const on = Number((li as HTMLElement).dataset['id']) === id;
        li.classList.toggle('current', on);
        const b = li.querySelector('button');
        if (on) b?.setAttribute('aria-current', 'true');
        else b?.removeAttribute('aria-current');
      }
    },
    get shown() {
      return shown;
    },
  };
}
