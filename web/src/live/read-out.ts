import { distanceWithheld, verdictDistance } from '../core/answer.ts';
import { formatDistance, PLAIN_DISTANCE_NAME } from '../core/lengths.ts';
import { measurementMatches } from '../core/overlay-model.ts';
import { unitName, type LiveState } from './state.ts';

/**
 * The footer: who is picked, the plain distance between them (edge to edge, nearest bases, in
 * the ruleset's unit) and, beside it under its own name, the referee's distance when the answer
 * carries one. While the rules withhold the distance, nothing on the page gives it away.
 */
export interface ReadOutDom {
  readonly hint: HTMLElement;
  readonly measurement: HTMLOutputElement;
  readonly ruled: HTMLOutputElement;
  readonly clear: HTMLButtonElement;
}

export function updateReadOut(dom: ReadOutDom, s: LiveState): void {
  const el = dom.measurement;
  const [a, b] = s.selection;
  dom.clear.hidden = s.selection.length === 0;
  const m = s.lastState?.measurement ?? null;
  if (a === undefined) dom.hint.textContent = 'Tap two units (or pick them in the Referee list) to measure.';
  else if (b === undefined) dom.hint.textContent = `${unitName(s, a)} picked — pick a second unit.`;
  else dom.hint.textContent = `${unitName(s, a)} ↔ ${unitName(s, b)}`;

  const withheld = distanceWithheld(s.answer, s.selection);
  const ruled = s.answerStale ? null : verdictDistance(s.answer, s.selection, s.rulesetNames);
  dom.ruled.hidden = !ruled && !withheld;
  dom.ruled.textContent = withheld
    ? 'Distance withheld until the charge is declared'
    : ruled
      ? `Referee: ${ruled.text}`
      : '';
  const clearData = () => {
    for (const key of ['a', 'b', 'distanceIn', 'uncertaintyIn']) delete el.dataset[key];
  };
  if (withheld) {
    // Nothing on the page may give the distance away (not even a data attribute).
    el.dataset['valid'] = 'false';
    el.dataset['withheld'] = 'true';
    clearData();
    el.textContent = '';
    el.title = '';
    el.classList.remove('stale');
  } else if (a !== undefined && b !== undefined && m && measurementMatches(m, s.selection)) {
    delete el.dataset['withheld'];
    el.dataset['valid'] = String(m.valid);
    el.dataset['a'] = m.a;
    el.dataset['b'] = m.b;
    el.dataset['distanceIn'] = String(m.distanceIn);
    el.dataset['uncertaintyIn'] = String(m.uncertaintyIn);
    el.textContent =
      `${PLAIN_DISTANCE_NAME} ${formatDistance(m.distanceIn, m.uncertaintyIn, s.unit)}` +
      (m.valid ? '' : ' (not measured this frame)');
    el.title = "The shortest gap between the two units' nearest bases, measured now";
    el.classList.toggle('stale', !m.valid);
  } else {
    delete el.dataset['withheld'];
    el.dataset['valid'] = 'false';
    clearData();
    el.textContent = a !== undefined && b !== undefined ? 'measuring…' : '';
    el.title = '';
    el.classList.remove('stale');
  }
}
