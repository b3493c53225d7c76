import type { StateMessage } from '../../../src/server/protocol.ts';
import type { AskResponse, RulesetInfo } from '../../../src/server/referee-routes.ts';
import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { api, ApiError } from '../core/api.ts';
import { displayUnit, type DisplayUnit } from '../core/lengths.ts';
import { offers, QUESTIONS, type PickedUnit } from '../core/questions.ts';
import { shortRulesetName, zoneOf, type OptionValue, type Zone } from '../core/rulesets.ts';
import { movedSince, posesOf, type PosesAt } from '../core/stale.ts';
import { h } from '../ui/dom.ts';
import { renderCard } from './card-view.ts';
import { optionFields } from './option-fields.ts';

/**
 * The referee tab: ruleset and its options, the questions that fit the two picked units, and the
 * verdict card. Asking goes to POST /api/ask; the answer (verdict + geometry) is handed to the
 * page, which draws it on both views. An answer whose units have moved since says so, stops being
 * drawn, and offers to ask again.
 */

export interface RefereePanel {
  setSelection(a: string | undefined, b: string | undefined): void;
  setScenario(file: ScenarioFile): void;
  /** Every state from the camera: keeps the answer honest about the table it describes. */
  noteState(state: StateMessage): void;
  /** A terrain piece is being drawn or sent (its name), or null: answers say it is not counted yet. */
  setTerrainEditing(what: string | null): void;
  readonly answer: AskResponse | null;
  /** The answer's units have moved since it was given. */
  readonly answerStale: boolean;
  ask(question: string, declare?: boolean): Promise<void>;
  /** Ruleset names by id (for labels). */
  rulesetNames(): Readonly<Record<string, string>>;
  /** The chosen ruleset's unit (every length on the page is shown in it). */
  unit(): DisplayUnit;
  zone(): Zone | null;
  /** The chosen ruleset and its options (the threat view asks under them too). */
  rules(): {
    readonly ruleset: string | undefined;
    readonly options: Readonly<Record<string, string | number | boolean>>;
  };
}

export interface RefereeHooks {
  onAnswer(answer: AskResponse | null): void;
  /** The ruleset changed: its unit and zone may have. */
  onRuleset(): void;
}

export { shortRulesetName };

export function mountRefereePanel(hooks: RefereeHooks): RefereePanel {
  const select = document.getElementById('ruleset') as HTMLSelectElement;
  const optionsBox = document.getElementById('ruleset-options') as HTMLDivElement;
  const card = document.getElementById('verdict') as HTMLElement;
  const hint = document.getElementById('pick-hint') as HTMLParagraphElement;
  const notOffered = document.getElementById('not-offered') as HTMLParagraphElement;
  const declared = document.getElementById('declared') as HTMLInputElement;
  const declaredRow = document.getElementById('declared-row') as HTMLElement;
  const buttons = [...document.querySelectorAll<HTMLButtonElement>('button.ask')];
  let rulesets: RulesetInfo[] = [];
  let file: ScenarioFile | null = null;
  let a: string | undefined;
  let b: string | undefined;
  let answer: AskResponse | null = null;
  let askedAt = 0;
  let posesThen: PosesAt = new Map();
  let stale = false;
  let lastAsk: { question: string; declare: boolean } | null = null;
  let terrainEditing: string | null = null;
  const chosen = new Map<string, Map<string, OptionValue>>();

  const current = () => rulesets.find((x) => x.id === select.value);
  const picked = (id: string | undefined): PickedUnit | undefined => {
    const u = id ? file?.units.find((x) => x.id === id) : undefined;
    return u ? { name: u.name, side: u.side, type: u.type } : undefined;
  };
  const nameOf = (id: string) => file?.units.find((u) => u.id === id)?.name ?? id;

  function renderOptions(): void {
    const r = current();
    if (!r) return void optionsBox.replaceChildren();
    const mine = chosen.get(r.id) ?? new Map<string, OptionValue>();
    chosen.set(r.id, mine);
    optionsBox.replaceChildren(...optionFields(r, mine));
  }

  function updateButtons(): void {
    const r = current();
    const list = offers(
      r?.answers ?? [],
      r ? shortRulesetName(r.name) : 'this ruleset',
      picked(a),
      picked(b),
    );
    const reasons: string[] = [];
    for (const btn of buttons) {
      const o = list.find((x) => x.id === btn.dataset['question']);
      btn.hidden = !o?.offered;
      btn.disabled = !a || !b;
      if (o && !o.offered && a && b && r?.answers.includes(o.id))
        reasons.push(
          `${QUESTIONS.find((q) => q.id === o.id)
            ?.text.replace('A', nameOf(a))
            .replace('B', nameOf(b))} — ${o.why}`,
        );
    }
    notOffered.textContent = reasons.length ? `Not asked here: ${reasons.join('; ')}.` : '';
    notOffered.hidden = reasons.length === 0;
    declaredRow.hidden = !buttons.some((x) => x.dataset['question'] === 'charge' && !x.hidden);
  }

  function showAnswer(res: AskResponse | null, error: string | null = null): void {
    answer = res;
    stale = false;
    delete card.dataset['stale'];
    if (error) {
      card.hidden = false;
      card.dataset['answer'] = 'error';
      card.replaceChildren(h('h2', {}, '⚠ Cannot answer'), h('p', { class: 'note' }, error));
      hooks.onAnswer(null);
      return;
    }
    if (!res) {
      card.hidden = true;
      card.replaceChildren();
      delete card.dataset['answer'];
      hooks.onAnswer(null);
      return;
    }
    askedAt = Date.now();
    const info = rulesets.find((r) => r.id === res.verdict.ruleset);
    renderCard(card, res, {
      ruleset: info,
      rulesetName: info?.name ?? res.verdict.ruleset,
      askedAt,
      terrainEditing,
      onDeclare: () => void ask('charge', true),
      onAskAgain: () => lastAsk && void ask(lastAsk.question, lastAsk.declare),
    });
    hooks.onAnswer(res);
    // On a phone the card is below the fold of the panel: bring it into view.
    card.scrollIntoView({ block: 'nearest' });
  }

  function markStale(moved: readonly string[]): void {
    stale = true;
    card.dataset['stale'] = 'true';
    const banner = card.querySelector<HTMLElement>('.stale-note');
    if (banner) {
      banner.hidden = false;
      const who = moved.length === 2 ? `${moved[0]} and ${moved[1]} have` : `${moved[0] ?? 'A unit'} has`;
      const text = banner.querySelector('.stale-text');
      if (text) text.textContent = `${who} moved since this answer: it may no longer hold. `;
    }
    hooks.onAnswer(answer);
  }

  async function ask(question: string, declare = false): Promise<void> {
    if (!a || !b) return;
    const r = current();
    const options = Object.fromEntries(chosen.get(select.value) ?? []);
    lastAsk = { question, declare };
    const body = {
      ...(r ? { ruleset: r.id } : {}),
      options,
      question,
      a,
      b,
      ...(declared.checked || declare ? { declared: true } : {}),
    };
    card.setAttribute('aria-busy', 'true');
    // Right after a scenario change the camera has not processed a frame yet (503): wait for it.
    try {
      for (let attempt = 0; ; attempt++) {
        try {
          const res = await api<AskResponse>('POST', '/api/ask', body);
          posesThen = posesOfAnswer;
          showAnswer(res);
          return;
        } catch (err) {
          if (err instanceof ApiError && err.status === 503 && attempt < 60) {
            card.hidden = false;
            card.dataset['answer'] = 'waiting';
            card.replaceChildren(h('p', { class: 'muted' }, 'Waiting for the camera…'));
            await new Promise((res) => setTimeout(res, 1000));
            continue;
          }
          showAnswer(null, (err as Error).message);
          return;
        }
      }
    } finally {
      card.removeAttribute('aria-busy');
    }
  }

  // The poses of A and B as the page last saw them: what an answer asked now is about.
  let posesOfAnswer: PosesAt = new Map();
  let lastUnits: StateMessage['units'] = [];

  for (const btn of buttons)
    btn.addEventListener('click', () => void ask(btn.dataset['question'] ?? 'shoot'));
  select.addEventListener('change', () => {
    renderOptions();
    updateButtons();
    showAnswer(null);
    hooks.onRuleset();
  });

  void api<{ scenarioRuleset: string; rulesets: RulesetInfo[] }>('GET', '/api/rulesets').then((res) => {
    rulesets = res.rulesets;
    select.replaceChildren(...rulesets.map((r) => h('option', { value: r.id }, r.name)));
    select.value = file?.ruleset ?? res.scenarioRuleset;
    renderOptions();
    updateButtons();
    hooks.onRuleset();
  });

  function refreshHint(): void {
    hint.textContent = !a
      ? 'Pick two units, on the table or in the list: A acts, B is the target.'
      : !b
        ? `A = ${nameOf(a)} — now pick B.`
        : `A = ${nameOf(a)}, B = ${nameOf(b)}`;
  }

  return {
    setSelection(na, nb) {
      if (na !== a || nb !== b) {
        a = na;
        b = nb;
        if (answer) showAnswer(null);
      }
      posesOfAnswer = posesOf(
        lastUnits,
        [a, b].filter((x): x is string => !!x),
      );
      refreshHint();
      updateButtons();
    },
    setScenario(next) {
      const rulesetChanged = next.ruleset !== file?.ruleset;
      file = next;
      if (
        rulesetChanged &&
        next.ruleset &&
        rulesets.some((r) => r.id === next.ruleset) &&
        select.value !== next.ruleset
      ) {
        select.value = next.ruleset;
        renderOptions();
        hooks.onRuleset();
      }
      refreshHint();
      updateButtons();
    },
    noteState(state) {
      lastUnits = state.units;
      const ids = [a, b].filter((x): x is string => !!x);
      posesOfAnswer = posesOf(state.units, ids);
      if (!answer || stale) return;
      const moved = movedSince(posesThen, state.units, ids);
      if (moved.length === 0) return;
      const units = [
        ...new Set(
          moved.map((m) => state.units.find((u) => u.bases.some((x) => x.markerId === m))?.name ?? ''),
        ),
      ].filter(Boolean);
      markStale(units);
    },
    setTerrainEditing(what) {
      terrainEditing = what;
    },
    get answer() {
      return answer;
    },
    get answerStale() {
      return stale;
    },
    ask,
    rulesetNames() {
      return Object.fromEntries(rulesets.map((r) => [r.id, shortRulesetName(r.name)]));
    },
    unit() {
      return displayUnit(current()?.unit);
    },
    zone() {
      return zoneOf(current()?.id ?? null);
    },
    rules() {
      return { ruleset: current()?.id, options: Object.fromEntries(chosen.get(select.value) ?? []) };
    },
  };
}
