import type { RulesetInfo } from '../../../src/server/referee-routes.ts';
import { choiceLabel, optionLabel, type OptionValue } from '../core/rulesets.ts';
import { h } from '../ui/dom.ts';

/**
 * A ruleset's options as form fields, each labelled with the rules' own sentence and each choice
 * by its meaning (the identifier stays in the data, never in the label). Returns the fields; the
 * chosen values go into `chosen` as they change.
 */
export function optionFields(r: RulesetInfo, chosen: Map<string, OptionValue>): HTMLElement[] {
  if (r.options.length === 0) return [h('p', { class: 'muted' }, 'This ruleset has no options.')];
  return r.options.map((o, i) => {
    const current = chosen.get(o.name) ?? o.default;
    const id = `opt-${r.id}-${i}`;
    const label = optionLabel(o);
    let input: HTMLElement;
    if (typeof o.default === 'boolean') {
      input = h('input', {
        type: 'checkbox',
        id,
        checked: current === true,
        'data-option': o.name,
        onchange: (e) => void chosen.set(o.name, (e.target as HTMLInputElement).checked),
      });
      return h('label', { class: 'option check', for: id }, input, h('span', {}, label));
    }
    if (o.choices) {
      input = h(
        'select',
        {
          id,
          'data-option': o.name,
          onchange: (e) => void chosen.set(o.name, (e.target as HTMLSelectElement).value),
        },
        ...o.choices.map((c) =>
          h(
            'option',
            { value: String(c), selected: c === current },
            `${choiceLabel(o, c)}${c === o.default ? ' (default)' : ''}`,
          ),
        ),
      );
    } else {
      input = h('input', {
        type: typeof o.default === 'number' ? 'number' : 'text',
        step: 'any',
        id,
        value: String(current),
        'data-option': o.name,
        onchange: (e) => {
          const raw = (e.target as HTMLInputElement).value;
          chosen.set(o.name, typeof o.default === 'number' ? Number(raw) : raw);
        },
      });
    }
    return h('label', { class: 'option', for: id }, h('span', {}, label), input);
  });
}
