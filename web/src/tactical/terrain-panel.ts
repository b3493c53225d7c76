import type { Vec2 } from '../../../src/geometry/vec.ts';
import {
  LINEAR_TERRAIN,
  TERRAIN_KINDS,
  type ScenarioFile,
  type TerrainKind,
} from '../../../src/table/scenario.ts';
import { api } from '../core/api.ts';
import { h, message } from '../ui/dom.ts';

/**
 * The terrain tab: draw a piece on the tactical view (tap the corners of a wood, or the course
 * of a hedge or road), give it a kind, a name and (hills, buildings) a height, and add it to the
 * scenario (POST /api/terrain). Pieces are listed with a delete button.
 */

export interface TerrainDraft {
  readonly active: boolean;
  readonly points: readonly Vec2[];
  readonly closed: boolean;
}

export interface TerrainPanel {
  setScenario(file: ScenarioFile | null): void;
  readonly draft: TerrainDraft;
  /** A tap on the tactical view while drawing: adds a corner. */
  addPoint(p: Vec2): void;
  /** The piece being drawn or sent ("Tranent Wood", "a wood"), or null: answers meanwhile do not count it. */
  readonly editing: string | null;
}

export function mountTerrainPanel(
  root: HTMLElement,
  onChanged: (file: ScenarioFile) => void,
  onDraft: () => void,
): TerrainPanel {
  let points: Vec2[] = [];
  let active = false;
  let sending = false;
  let file: ScenarioFile | null = null;
  const kind = h('select', { id: 'terrain-kind' }, ...TERRAIN_KINDS.map((k) => h('option', { value: k }, k)));
  const name = h('input', {
    type: 'text',
    id: 'terrain-name',
    placeholder: 'e.g. Tranent Wood',
    maxlength: 100,
  });
  const height = h('input', {
    type: 'number',
    id: 'terrain-height',
    min: 0,
    step: 'any',
    placeholder: 'hills, buildings',
  });
  const start = h('button', { type: 'button', id: 'terrain-draw' }, 'Draw on the tactical view');
  const undo = h('button', { type: 'button', id: 'terrain-undo', disabled: true }, 'Undo corner');
  const finish = h(
    'button',
    { type: 'button', class: 'primary', id: 'terrain-finish', disabled: true },
    'Add piece',
  );
  const cancel = h('button', { type: 'button', id: 'terrain-cancel', disabled: true }, 'Cancel');
  const status = h('p', { class: 'message', id: 'terrain-message', role: 'status' });
  const progress = h('progress', {
    id: 'terrain-progress',
    hidden: true,
    'aria-label': 'Adding the terrain piece',
  });
  const pieceName = () => name.value.trim() || `a ${kind.value}`;
  const list = h('ul', { class: 'list', id: 'terrain-list' });
  const linear = () => LINEAR_TERRAIN.includes(kind.value as TerrainKind);

  function refresh(): void {
    const need = linear() ? 2 : 3;
    undo.disabled = !active || points.length === 0 || sending;
    finish.disabled = !active || points.length < need || sending;
    cancel.disabled = !active || sending;
    start.disabled = active || sending;
    progress.hidden = !sending;
    if (active && !sending)
      message(
        status,
        `${points.length} point${points.length === 1 ? '' : 's'} — tap the tactical view to add ${linear() ? 'the course' : 'corners'} (${need} at least).`,
      );
    onDraft();
  }

  start.addEventListener('click', () => {
    active = true;
    points = [];
    refresh();
  });
  undo.addEventListener('click', () => {
    points.pop();
    refresh();
  });
  cancel.addEventListener('click', () => {
    active = false;
    points = [];
    message(status, '');
    refresh();
  });
  kind.addEventListener('change', refresh);
  finish.addEventListener('click', async () => {
    const k = kind.value as TerrainKind;
    const pts = points.map((p) => ({ x: Math.round(p.x * 10) / 10, y: Math.round(p.y * 10) / 10 }));
    const what = pieceName();
    const t0 = performance.now();
    sending = true;
    message(status, `Adding ${what}…`);
    refresh();
    try {
      const res = await api<{ scenario: ScenarioFile }>('POST', '/api/terrain', {
        kind: k,
        ...(name.value.trim() ? { name: name.value.trim() } : {}),
        ...(linear() ? { line: pts } : { polygon: pts }),
        ...(height.value && (k === 'hill' || k === 'building') ? { heightMm: Number(height.value) } : {}),
      });
      active = false;
      points = [];
      sending = false;
      message(status, `Added ${what} (${((performance.now() - t0) / 1000).toFixed(1)} s).`, 'ok');
      onChanged(res.scenario);
    } catch (err) {
      sending = false;
      message(status, (err as Error).message, 'error');
    }
    refresh();
  });

  root.append(
    h(
      'div',
      { class: 'row' },
      h('label', { class: 'field' }, 'Kind', kind),
      h('label', { class: 'field' }, 'Height mm', height),
    ),
    h('label', { class: 'field' }, 'Name', name),
    h('div', { class: 'row' }, start, undo),
    h('div', { class: 'row' }, finish, cancel),
    progress,
    status,
    h('div', { class: 'field' }, 'Terrain on the table', list),
  );

  async function remove(id: string): Promise<void> {
    try {
      const res = await api<{ scenario: ScenarioFile }>('DELETE', `/api/terrain/${encodeURIComponent(id)}`);
      onChanged(res.scenario);
    } catch (err) {
      message(status, (err as Error).message, 'error');
    }
  }

  return {
    setScenario(next) {
      file = next;
      list.replaceChildren(
        ...(file?.terrain ?? []).map((t) =>
          h(
            'li',
            {},
            h('span', {}, `${t.name ?? t.id} (${t.kind})`),
            h(
              'button',
              {
                type: 'button',
                'data-delete': t.id,
                'aria-label': `Delete ${t.name ?? t.id}`,
                onclick: () => void remove(t.id),
              },
              'Delete',
            ),
          ),
        ),
      );
    },
    get draft() {
      return { active, points, closed: !linear() };
    },
    get editing() {
      return active || sending ? pieceName() : null;
    },
    addPoint(p) {
      if (!active) return;
      points.push(p);
      refresh();
    },
  };
}
