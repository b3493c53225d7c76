/**
 * ARIA tabs (the WAI-ARIA Authoring Practices pattern): a tablist of tab buttons, each tied to
 * its panel (aria-controls / aria-labelledby), one tab in the Tab order at a time, and the arrow
 * keys, Home and End moving between tabs (activating them as they go).
 */
export function mountTabs(
  tablist: HTMLElement,
  onSelect: (name: string) => void,
): { select(name: string): void } {
  const tabs = [...tablist.querySelectorAll<HTMLButtonElement>('[role="tab"]')];
  tablist.setAttribute('role', 'tablist');
  for (const tab of tabs) {
    const name = tab.dataset['tab'] ?? '';
    const panel = document.querySelector<HTMLElement>(`[data-panel="${name}"]`);
    tab.id ||= `tab-${name}`;
    if (panel) {
      panel.id ||= `panel-${name}`;
      panel.setAttribute('role', 'tabpanel');
      panel.setAttribute('aria-labelledby', tab.id);
      panel.tabIndex = 0;
      tab.setAttribute('aria-controls', panel.id);
    }
  }

  function select(name: string, focus = false): void {
    for (const tab of tabs) {
      const on = tab.dataset['tab'] === name;
      tab.setAttribute('aria-selected', String(on));
      tab.tabIndex = on ? 0 : -1;
      if (on && focus) tab.focus();
    }
    for (const p of document.querySelectorAll<HTMLElement>('[data-panel]'))
      p.hidden = p.dataset['panel'] !== name;
    onSelect(name);
  }

  for (const tab of tabs) {
    tab.addEventListener('click', () => select(tab.dataset['tab'] ?? ''));
    tab.addEventListener('keydown', (e) => {
      const i = tabs.indexOf(tab);
      const to =
        e.key === 'ArrowRight' || e.key === 'ArrowDown'
          ? tabs[(i + 1) % tabs.length]
          : e.key === 'ArrowLeft' || e.key === 'ArrowUp'
            ? tabs[(i - 1 + tabs.length) % tabs.length]
            : e.key === 'Home'
              ? tabs[0]
              : e.key === 'End'
                ? tabs[tabs.length - 1]
                : undefined;
      if (!to) return;
      e.preventDefault();
      select(to.dataset['tab'] ?? '', true);
    });
  }
  const first = tabs.find((t) => t.getAttribute('aria-selected') === 'true') ?? tabs[0];
  if (first) select(first.dataset['tab'] ?? '');
  return { select: (name) => select(name) };
}
