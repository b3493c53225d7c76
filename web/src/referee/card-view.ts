import type { AskResponse, RulesetInfo } from '../../../src/server/referee-routes.ts';
import { h } from '../ui/dom.ts';
import { verdictCard } from './verdict-card.ts';

/** The verdict card in the DOM: headline, what was asked and when, named numbers, reasons, settings. */

export interface CardViewOptions {
  readonly ruleset: RulesetInfo | undefined;
  readonly rulesetName: string;
  /** When the answer arrived (epoch ms), shown as a time of day. */
  readonly askedAt: number;
  /** A terrain piece being drawn or sent, which this answer does not count. */
  readonly terrainEditing: string | null;
  onDeclare(): void;
  onAskAgain(): void;
}

export function renderCard(card: HTMLElement, res: AskResponse, o: CardViewOptions): void {
  const v = res.verdict;
  const c = verdictCard(v, { caution: res.caution, ruleset: o.ruleset, subject: res.subject });
  card.replaceChildren();
  card.hidden = false;
  card.dataset['answer'] = c.tone;
  card.dataset['question'] = v.question;
  card.dataset['withheld'] = String(v.hiddenUntilDeclared === true);
  const time = new Date(o.askedAt).toLocaleTimeString([], {
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });
  const declare =
    v.hiddenUntilDeclared && v.question === 'charge'
      ? h(
          'button',
          { type: 'button', class: 'primary', id: 'declare-charge', onclick: o.onDeclare },
          'Declare charge',
        )
      : '';
  const settings = c.settings.length
    ? h(
        'details',
        { class: 'settings', id: 'verdict-settings', open: c.settings.some((s) => s.changed) },
        h('summary', {}, `Settings this answer used (${c.settings.length})`),
        h(
          'ul',
          {},
          ...c.settings.map((s) =>
            h(
              'li',
              {},
              h('span', { class: 'muted' }, `${s.label} `),
              h('b', {}, s.value),
              s.changed ? ' (changed)' : ' (default)',
            ),
          ),
        ),
      )
    : '';
  card.append(
    h(
      'h2',
      {},
      h('span', { class: 'icon', 'aria-hidden': 'true' }, c.icon),
      h('span', { class: 'word' }, c.headline),
    ),
    h(
      'p',
      { class: 'asked' },
      `${c.asked[0]?.toUpperCase() ?? ''}${c.asked.slice(1)} — ${o.rulesetName}, asked at ${time}`,
    ),
    h(
      'p',
      { class: 'stale-note note', hidden: true, role: 'status' },
      h('span', { class: 'stale-text' }),
      h('button', { type: 'button', id: 'ask-again', onclick: o.onAskAgain }, 'Ask again'),
    ),
    c.measure ? h('p', { class: 'measure' }, c.measure) : '',
    c.numbers.length
      ? h(
          'dl',
          {},
          ...c.numbers.flatMap((n) => [h('dt', {}, n.label), h('dd', { 'data-number': n.key }, n.value)]),
        )
      : '',
    h('ul', { class: 'reasons' }, ...c.reasons.map((r) => h('li', {}, r))),
    settings,
    o.terrainEditing
      ? h(
          'p',
          { class: 'note', id: 'verdict-terrain-note' },
          `Answered with the terrain already on the table: ${o.terrainEditing} is not counted until it is added.`,
        )
      : '',
    c.note ? h('p', { class: 'note' }, c.note) : '',
    declare,
  );
}
