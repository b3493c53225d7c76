import type { AskResponse, RulesetInfo } from '../../../src/server/referee-routes.ts';
import { api, ApiError } from '../core/api.ts';
import { h } from '../ui/dom.ts';
import { measuredFromPhrase } from '../core/table-overlays.ts';
import { verdictCard } from './verdict-card.ts';

/**
 * The referee tab: ruleset and its options, the question buttons for the two picked units, and
 * the verdict card. Asking goes to POST /api/ask; the answer (verdict + geometry) is handed to
 * the page, which draws it on both views.
 */

export interface RefereePanel {
  setSelection(a: string | undefined, b: string | undefined, names: (id: string) => string): void;
  /** The scenario's ruleset (after a scenario is loaded). */
  setScenarioRuleset(id: string): void;
  readonly answer: AskResponse | null;
  ask(question: string, declare?: boolean): Promise<void>;
  /** Ruleset names by id (for labels). */
  rulesetNames(): Readonly<Record<string, string>>;
}

/** A ruleset's name short enough for a label: "Prestonpans 1745 battlegame (…)" → "Prestonpans". */
export function shortRulesetName(name: string): string {
  const bare = name.split(/ \(| — |: /)[0]!.trim();
  if (bare.length <= 18) return bare;
  const words = bare.split(/\s+/);
  const cut = words.findIndex((w) => /\d/.test(w));
  return cut > 0 ? words.slice(0, cut).join(' ') : bare;
}

export function mountRefereePanel(onAnswer: (answer: AskResponse | null) => void): RefereePanel {
  const select = document.getElementById('ruleset') as HTMLSelectElement;
  const optionsBox = document.getElementById('ruleset-options') as HTMLDivElement;
  const card = document.getElementById('verdict') as HTMLElement;
  const hint = document.getElementById('pick-hint') as HTMLParagraphElement;
  const declared = document.getElementById('declared') as HTMLInputElement;
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('button.ask')];
  let rulesets: RulesetInfo[] = [];
  let a: string | undefined;
  let b: string | undefined;
  let answer: AskResponse | null = null;
  let scenarioRuleset: string | null = null;
  const chosen = new Map<string, Map<string, string | number | boolean>>();

  function renderOptions(): void {
    optionsBox.replaceChildren();
    const r = rulesets.find((x) => x.id === select.value);
    if (!r) return;
    const mine = chosen.get(r.id) ?? new Map<string, string | number | boolean>();
    chosen.set(r.id, mine);
    if (r.options.length === 0) optionsBox.append(h('p', { class: 'muted' }, 'This ruleset has no options.'));
    for (const o of r.options) {
      const current = mine.get(o.name) ?? o.default;
      let input: HTMLElement;
      if (typeof o.default === 'boolean') {
        input = h('input', {
          type: 'checkbox',
          checked: current === true,
          'data-option': o.name,
          onchange: (e) => {
            mine.set(o.name, (e.target as HTMLInputElement).checked);
          },
        });
      } else if (o.choices) {
        input = h(
          'select',
          {
            'data-option': o.name,
            onchange: (e) => void mine.set(o.name, (e.target as HTMLSelectElement).value),
          },
          ...o.choices.map((c) => h('option', { value: String(c), selected: c === current }, String(c))),
        );
      } else {
        input = h('input', {
          type: typeof o.default === 'number' ? 'number' : 'text',
          step: 'any',
          value: String(current),
          'data-option': o.name,
          onchange: (e) => {
            const raw = (e.target as HTMLInputElement).value;
            mine.set(o.name, typeof o.default === 'number' ? Number(raw) : raw);
          },
        });
      }
      optionsBox.append(h('label', { class: 'option' }, `${o.name}`, input, h('small', {}, o.summary)));
    }
  }

  function updateButtons(): void {
    const r = rulesets.find((x) => x.id === select.value);
    for (const btn of buttons) {
      const q = btn.dataset['question'] ?? '';
      btn.disabled = !a || !b || (r !== undefined && !r.answers.includes(q));
      btn.title = r && !r.answers.includes(q) ? `${r.name} has no rule for this question` : '';
    }
  }

  function showAnswer(res: AskResponse | null, error: string | null = null): void {
    answer = res;
    card.replaceChildren();
    if (error) {
      card.hidden = false;
      card.dataset['answer'] = 'error';
      card.append(h('h2', {}, '⚠ Cannot answer'), h('p', { class: 'note' }, error));
      onAnswer(null);
      return;
    }
    if (!res) {
      card.hidden = true;
      delete card.dataset['answer'];
      onAnswer(null);
      return;
    }
    const c = verdictCard(res.verdict, res.caution);
    const v = res.verdict;
    const name = rulesets.find((r) => r.id === v.ruleset)?.name ?? v.ruleset;
    card.hidden = false;
    card.dataset['answer'] = c.tone;
    card.dataset['question'] = v.question;
    card.dataset['withheld'] = String(v.hiddenUntilDeclared === true);
    // The ruleset's distance is not always the edge-to-edge gap shown under the picture: say how it was taken.
    const measured =
      v.value !== undefined && v.between && !v.hiddenUntilDeclared
        ? h(
            'p',
            { class: 'measured-from', id: 'verdict-measured-from' },
            `Value measured ${measuredFromPhrase(v)}, as ${name} says; the edge-to-edge figure under the picture is the plain gap between the nearest bases.`,
          )
        : '';
    const declare =
      v.hiddenUntilDeclared && v.question === 'charge'
        ? h(
            'button',
            {
              type: 'button',
              class: 'primary',
              id: 'declare-charge',
              onclick: () => void ask('charge', true),
            },
            'Declare charge',
          )
        : '';
    card.append(
      h(
        'h2',
        {},
        h('span', { class: 'icon', 'aria-hidden': 'true' }, c.icon),
        h('span', { class: 'word' }, c.headline),
      ),
      h('p', { class: 'asked' }, `${c.asked} — ${name}, frame ${res.frame}`),
      h(
        'dl',
        {},
        ...c.numbers.flatMap((n) => [h('dt', {}, n.label), h('dd', { 'data-number': n.label }, n.value)]),
      ),
      measured,
      h('ul', { class: 'reasons' }, ...c.reasons.map((r) => h('li', {}, r))),
      c.note ? h('p', { class: 'note' }, c.note) : '',
      declare,
    );
    onAnswer(res);
  }

  async function ask(question: string, declare = false): Promise<void> {
    if (!a || !b) return;
    const r = rulesets.find((x) => x.id === select.value);
    const options = Object.fromEntries(chosen.get(select.value) ?? []);
    const body = {
      ...(r ? { ruleset: r.id } : {}),
      options,
      question,
      a,
      b,
      ...(declared.checked || declare ? { declared: true } : {}),
    };
    // Right after a scenario change the camera has not processed a frame yet (503): wait for it.
    for (let attempt = 0; ; attempt++) {
      try {
        showAnswer(await api<AskResponse>('POST', '/api/ask', body));
        return;
      } catch (err) {
        if (err instanceof ApiError && err.status === 503 && attempt < 60) {
          card.hidden = false;
          card.dataset['answer'] = 'waiting';
          card.replaceChildren(h('p', { class: 'muted' }, 'Waiting for the camera…'));
          await new Promise((r) => setTimeout(r, 1000));
          continue;
        }
        showAnswer(null, (err as Error).message);
        return;
      }
    }
  }

  for (const btn of buttons)
    btn.addEventListener('click', () => void ask(btn.dataset['question'] ?? 'shoot'));
  select.addEventListener('change', () => {
    renderOptions();
    updateButtons();
    showAnswer(null);
  });

  void api<{ scenarioRuleset: string; rulesets: RulesetInfo[] }>('GET', '/api/rulesets').then((res) => {
    rulesets = res.rulesets;
    select.replaceChildren(...rulesets.map((r) => h('option', { value: r.id }, r.name)));
    select.value = scenarioRuleset ?? res.scenarioRuleset;
    renderOptions();
    updateButtons();
  });

  return {
    setSelection(na, nb, names) {
      if (na !== a || nb !== b) {
        a = na;
        b = nb;
        if (answer) showAnswer(null);
      }
      hint.textContent = !a
        ? 'Pick two units on the table: A acts, B is the target.'
        : !b
          ? `A = ${names(a)} — now pick B.`
          : `A = ${names(a)}, B = ${names(b)}`;
      updateButtons();
    },
    setScenarioRuleset(id) {
      scenarioRuleset = id;
      if (rulesets.some((r) => r.id === id) && select.value !== id) {
        select.value = id;
        renderOptions();
        updateButtons();
      }
    },
    get answer() {
      return answer;
    },
    ask,
    rulesetNames() {
      return Object.fromEntries(rulesets.map((r) => [r.id, shortRulesetName(r.name)]));
    },
  };
}
