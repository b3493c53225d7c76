import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { api } from '../core/api.ts';
import { h, message } from '../ui/dom.ts';

/** The scenario tab: load a scenario file from the scenarios folder, or save the table as one. */
export function mountScenarioPanel(
  root: HTMLElement,
  onChanged: (file: ScenarioFile) => void,
): { refresh(): void } {
  const list = h('select', { id: 'scenario-list' });
  const saveName = h('input', {
    type: 'text',
    id: 'scenario-save-name',
    placeholder: 'my-battle',
    maxlength: 64,
  });
  const status = h('p', { class: 'message', id: 'scenario-message' });

  async function refresh(): Promise<void> {
    try {
      const res = await api<{ scenarios: string[] }>('GET', '/api/scenarios');
      list.replaceChildren(...res.scenarios.map((n) => h('option', { value: n }, n)));
    } catch (err) {
      message(status, (err as Error).message, 'error');
    }
  }

  root.append(
    h('label', { class: 'field' }, 'Scenario files', list),
    h(
      'button',
      {
        type: 'button',
        id: 'scenario-load',
        onclick: async () => {
          try {
            message(status, `Loading ${list.value}…`);
            const res = await api<{ scenario: ScenarioFile }>(
              'POST',
              `/api/scenarios/${encodeURIComponent(list.value)}/load`,
            );
            message(status, `Watching ${res.scenario.name}.`, 'ok');
            onChanged(res.scenario);
          } catch (err) {
            message(status, (err as Error).message, 'error');
          }
        },
      },
      'Load',
    ),
    h('label', { class: 'field' }, 'Save the table as', saveName),
    h(
      'button',
      {
        type: 'button',
        class: 'primary',
        id: 'scenario-save',
        onclick: async () => {
          try {
            const res = await api<{ saved: string }>(
              'POST',
              `/api/scenarios/${encodeURIComponent(saveName.value.trim())}/save`,
            );
            message(status, `Saved ${res.saved}.`, 'ok');
            void refresh();
          } catch (err) {
            message(status, (err as Error).message, 'error');
          }
        },
      },
      'Save',
    ),
    status,
  );
  void refresh();
  return { refresh: () => void refresh() };
}
