import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { h } from '../ui/dom.ts';

/**
 * The units as a list of buttons, grouped by side: the keyboard and screen-reader way to pick A
 * and B (the picture and the tactical view are the pointer's way). Each button says whether it is
 * picked and as which ("A, acts" / "B, target"), with aria-pressed.
 */

export interface UnitList {
  setScenario(file: ScenarioFile | null): void;
  setSelection(selection: readonly string[]): void;
  /** Units the camera does not see now are marked, not hidden. */
  setSeen(seen: ReadonlySet<string> | null): void;
}

export function mountUnitList(root: HTMLElement, onPick: (unitId: string) => void): UnitList {
  let file: ScenarioFile | null = null;
  let selection: readonly string[] = [];
  let seen: ReadonlySet<string> | null = null;
  root.classList.add('unit-list');

  function draw(): void {
    if (!file) return void root.replaceChildren();
    const sides = file.sides.map((s) => ({ ...s, units: file!.units.filter((u) => u.side === s.id) }));
    root.replaceChildren(
      ...sides
        .filter((s) => s.units.length > 0)
        .map((s) =>
          h(
            'div',
            { class: 'side-group', role: 'group', 'aria-label': s.name },
            h(
              'h3',
              { class: 'side-name' },
              h('span', { class: 'swatch', style: `background:${s.colour}` }),
              s.name,
            ),
            h(
              'ul',
              {},
              ...s.units.map((u) => {
                const at = selection.indexOf(u.id);
                const role = at === 0 ? 'A' : at === 1 ? 'B' : '';
                const missing = seen !== null && !seen.has(u.id);
                return h(
                  'li',
                  {},
                  h(
                    'button',
                    {
                      type: 'button',
                      class: 'unit-pick',
                      'data-unit': u.id,
                      'aria-pressed': String(at >= 0),
                      onclick: () => onPick(u.id),
                    },
                    h('span', { class: 'unit-name' }, u.name),
                    u.type === 'commander' ? h('span', { class: 'muted' }, ' (commander)') : '',
                    missing ? h('span', { class: 'muted' }, ' · not seen') : '',
                    role ? h('span', { class: 'pick-role', 'aria-hidden': 'true' }, role) : '',
                    role
                      ? h(
                          'span',
                          { class: 'visually-hidden' },
                          role === 'A' ? ', picked as A (acts)' : ', picked as B (target)',
                        )
                      : '',
                  ),
                );
              }),
            ),
          ),
        ),
    );
  }

  return {
    setScenario(next) {
      file = next;
      draw();
    },
    setSelection(next) {
      if (next.join() === selection.join()) return;
      // Keep the keyboard where it was across the redraw.
      const focused = (document.activeElement as HTMLElement | null)?.dataset['unit'];
      selection = [...next];
      draw();
      if (focused) root.querySelector<HTMLElement>(`[data-unit="${CSS.escape(focused)}"]`)?.focus();
    },
    setSeen(next) {
      const same =
        next !== null && seen !== null && next.size === seen.size && [...next].every((id) => seen!.has(id));
      if (same) return;
      const focused = (document.activeElement as HTMLElement | null)?.dataset['unit'];
      seen = next;
      draw();
      if (focused) root.querySelector<HTMLElement>(`[data-unit="${CSS.escape(focused)}"]`)?.focus();
    },
  };
}
