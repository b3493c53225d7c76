import { h } from './dom.ts';

/**
 * A list of tappable rows (<li><details><summary>…</summary>body</details></li>) kept in place
 * across updates. Views arrive with every frame; rebuilding the rows each time detached the
 * summary a player was tapping (the tap landed on nothing) and closed nothing only by luck.
 * Rows are keyed: a row that stays keeps its elements, and only text or body that changed is
 * written, so open reasons stay open and taps land.
 */

export interface DetailsRow {
  readonly key: string;
  /** data-tone of the row (yes / no / close …). */
  readonly tone: string;
  readonly summary: string;
  /** The reason shown when the row is open. */
  readonly body: readonly HTMLElement[];
}

/** Brings `list` to `rows`, keyed by `data-<keyName>`, touching only what changed. */
export function updateDetailsList(list: HTMLElement, keyName: string, rows: readonly DetailsRow[]): void {
  const existing = new Map<string, HTMLLIElement>();
  for (const li of list.children)
    if (li instanceof HTMLLIElement && li.dataset[keyName] !== undefined)
      existing.set(li.dataset[keyName]!, li);
  const wanted = rows.map((row) => {
    const li = existing.get(row.key) ?? newRow(keyName, row.key);
    existing.delete(row.key);
    fillRow(li, row);
    return li;
  });
  for (const gone of existing.values()) gone.remove();
  // Re-insert only rows out of place: moving a row detaches it for an instant.
  wanted.forEach((li, i) => {
    if (list.children[i] !== li) list.insertBefore(li, list.children[i] ?? null);
  });
}

function newRow(keyName: string, key: string): HTMLLIElement {
  const attr = `data-${keyName}`;
  return h('li', { [attr]: key }, h('details', { [attr]: key }, h('summary', {})));
}

/** The body each row shows, as markup, to tell whether a new one differs. */
const shownBody = new WeakMap<HTMLDetailsElement, string>();

function fillRow(li: HTMLLIElement, row: DetailsRow): void {
  if (li.dataset['tone'] !== row.tone) li.dataset['tone'] = row.tone;
  const details = li.firstElementChild as HTMLDetailsElement;
  const summary = details.firstElementChild as HTMLElement;
  if (summary.textContent !== row.summary) summary.textContent = row.summary;
  const body = row.body.map((el) => el.outerHTML).join('');
  if (shownBody.get(details) !== body) {
    shownBody.set(details, body);
    while (summary.nextSibling) summary.nextSibling.remove();
    details.append(...row.body);
  }
}
