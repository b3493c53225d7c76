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
  /** Each unit's button and the parts that change; built once per scenario. */
  const buttons = new Map<
    string,
    { missing: HTMLElement; role: HTMLElement; spoken: HTMLElement; button: HTMLElement }
  >();
  root.classList.add('unit-list');

  /**
   * Buttons are built once per scenario and only their marks change: the list is told what the
   * camera sees with every frame, and a rebuilt button under a finger or the keyboard is lost.
   */
  function build(): void {
    buttons.clear();
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
                const missing = h('span', { class: 'muted' });
                const role = h('span', { class: 'pick-role', 'aria-hidden': 'true' });
                const spoken = h('span', { class: 'visually-hidden' });
                const button = h(
                  'button',
                  { type: 'button', class: 'unit-pick', 'data-unit': u.id, onclick: () => onPick(u.id) },
                  h('span', { class: 'unit-name' }, u.name),
                  u.type === 'commander' ? h('span', { class: 'muted' }, ' (commander)') : '',
                  missing,
                  role,
                  spoken,
                );
                buttons.set(u.id, { missing, role, spoken, button });
                return h('li', {}, button);
              }),
            ),
          ),
        ),
    );
    mark();
  }

  /** Picked as A or B, and not seen: written only where it changed. */
  function mark(): void {
    for (const [id, parts] of buttons) {
      const at = selection.indexOf(id);
      const role = at === 0 ? 'A' : at === 1 ? 'B' : '';
      setText(parts.missing, seen !== null && !seen.has(id) ? ' · not seen' : '');
      setText(parts.role, role);
      setText(
        parts.spoken,
        role === 'A' ? ', picked as A (acts)' : role === 'B' ? ', picked as B (target)' : '',
      );
      const pressed = String(at >= 0);
      if (parts.button.getAttribute('aria-pressed') !== pressed)
        parts.button.setAttribute('aria-pressed', pressed);
    }
  }

  return {
    setScenario(next) {
      file = next;
      build();
    },
    setSelection(next) {
      if (next.join() === selection.join()) return;
      selection = [...next];
      mark();
    },
    setSeen(next) {
      seen = next;
      mark();
    },
  };
}

function setText(el: HTMLElement, text: string): void {
  if (el.textContent !== text) el.textContent = text;
}
