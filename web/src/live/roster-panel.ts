import type { ScenarioFile } from '../../../src/table/scenario.ts';
import { api } from '../core/api.ts';
import { h, message } from '../ui/dom.ts';
import { fileMm } from '../core/table-overlays.ts';

/**
 * The roster tab: which marker is on which base. "Press a base to the table": the markers the
 * camera sees that no base owns are listed live (GET /api/markers); pick one, pick the unit and
 * base, set the base size, marker offset and height, and bind (POST /api/roster/base). The
 * change is applied to the watched scenario at once.
 */

interface Markers {
  readonly frame: number | null;
  readonly unknownIds: readonly number[];
}

export interface RosterPanel {
  setScenario(file: ScenarioFile | null): void;
  /** Called while the tab is visible: polls the markers the camera sees. */
  setVisible(visible: boolean): void;
}

export function mountRosterPanel(root: HTMLElement, onChanged: (file: ScenarioFile) => void): RosterPanel {
  let file: ScenarioFile | null = null;
  let timer: number | null = null;
  const unknown = h('div', { class: 'row', id: 'unknown-markers' });
  const markerInput = h('input', {
    type: 'number',
    id: 'bind-marker',
    min: 0,
    step: 1,
    placeholder: 'marker id',
  });
  const unitSelect = h('select', { id: 'bind-unit' });
  const baseSelect = h('select', { id: 'bind-base' });
  const width = h('input', { type: 'number', id: 'bind-width', step: 'any', min: 1 });
  const depth = h('input', { type: 'number', id: 'bind-depth', step: 'any', min: 1 });
  const height = h('input', { type: 'number', id: 'bind-height', step: 'any', min: 0 });
  const offX = h('input', { type: 'number', id: 'bind-offset-x', step: 'any', value: 0 });
  const offY = h('input', { type: 'number', id: 'bind-offset-y', step: 'any', value: 0 });
  const steal = h('input', { type: 'checkbox', id: 'bind-steal' });
  const status = h('p', { class: 'message', id: 'roster-message' });
  const list = h('ul', { class: 'list', id: 'roster-list' });

  function fillBases(): void {
    const unit = file?.units.find((u) => u.id === unitSelect.value);
    const mm = fileMm(file);
    baseSelect.replaceChildren(
      ...(unit?.bases ?? []).map((b, i) =>
        h('option', { value: i }, `base ${i + 1} — marker ${b.marker.id}`),
      ),
      h('option', { value: unit?.bases.length ?? 0 }, '+ new base'),
    );
    const b = unit?.bases[0];
    if (b) {
      width.value = String(+(b.width * mm).toFixed(2));
      depth.value = String(+(b.depth * mm).toFixed(2));
      height.value = String(b.marker.height !== undefined ? +(b.marker.height * mm).toFixed(2) : 3);
      offX.value = String(+((b.marker.offset?.x ?? 0) * mm).toFixed(2));
      offY.value = String(+((b.marker.offset?.y ?? 0) * mm).toFixed(2));
    }
  }
  unitSelect.addEventListener('change', fillBases);
  baseSelect.addEventListener('change', () => {
    const unit = file?.units.find((u) => u.id === unitSelect.value);
    const b = unit?.bases[Number(baseSelect.value)];
    const mm = fileMm(file);
    if (b) {
      width.value = String(+(b.width * mm).toFixed(2));
      depth.value = String(+(b.depth * mm).toFixed(2));
    }
  });

  async function bind(): Promise<void> {
    const markerId = markerInput.value === '' ? undefined : Number(markerInput.value);
    try {
      const res = await api<{ scenario: ScenarioFile }>('POST', '/api/roster/base', {
        unit: unitSelect.value,
        base: Number(baseSelect.value),
        ...(markerId !== undefined ? { markerId } : {}),
        ...(width.value ? { widthMm: Number(width.value) } : {}),
        ...(depth.value ? { depthMm: Number(depth.value) } : {}),
        ...(height.value ? { markerHeightMm: Number(height.value) } : {}),
        markerOffsetMm: { x: Number(offX.value) || 0, y: Number(offY.value) || 0 },
        ...(steal.checked ? { steal: true } : {}),
      });
      message(
        status,
        `Bound${markerId !== undefined ? ` marker ${markerId}` : ''} to ${unitSelect.selectedOptions[0]?.textContent ?? ''}.`,
        'ok',
      );
      onChanged(res.scenario);
    } catch (err) {
      message(status, (err as Error).message, 'error');
    }
  }

  root.append(
    h(
      'p',
      { class: 'muted' },
      'Press a new base to the table: its marker appears here when the camera sees it.',
    ),
    h('div', { class: 'field' }, 'Unrecognised markers (seen but not bound)', unknown),
    h('label', { class: 'field' }, 'Marker id', markerInput),
    h('label', { class: 'field' }, 'Unit', unitSelect),
    h('label', { class: 'field' }, 'Base', baseSelect),
    h(
      'div',
      { class: 'row' },
      h('label', { class: 'field' }, 'Width mm', width),
      h('label', { class: 'field' }, 'Depth mm', depth),
    ),
    h(
      'div',
      { class: 'row' },
      h('label', { class: 'field' }, 'Marker x mm', offX),
      h('label', { class: 'field' }, 'Marker y mm', offY),
      h('label', { class: 'field' }, 'Height mm', height),
    ),
    h('label', { class: 'check' }, steal, 'Take the marker from another base'),
    h(
      'button',
      { type: 'button', class: 'primary', id: 'bind-button', onclick: () => void bind() },
      'Bind marker',
    ),
    status,
    h('div', { class: 'field' }, 'Units and their markers', list),
  );

  /**
   * The chips are kept in place across polls, keyed by marker: rebuilding them every second
   * detached the chip a player was tapping, and the tap landed on nothing. (A marker missed in a
   * frame stays listed: the server remembers unbound markers for a few seconds, recent-markers.ts.)
   */
  const chips = new Map<number, HTMLButtonElement>();
  const noneNote = h('span', { class: 'muted' });
  function showUnknown(m: Markers): void {
    const listed = new Set(m.unknownIds);
    for (const [id, chip] of chips)
      if (!listed.has(id)) {
        chip.remove();
        chips.delete(id);
      }
    for (const id of m.unknownIds) if (!chips.has(id)) chips.set(id, unknownChip(id));
    if (chips.size === 0) {
      noneNote.textContent =
        m.frame === null ? 'waiting for the camera…' : 'none — every marker seen is bound';
      if (noneNote.parentElement !== unknown) unknown.append(noneNote);
    } else noneNote.remove();
    // Appending a chip already in place would detach it for an instant: only new ones go in.
    for (const chip of chips.values()) if (chip.parentElement !== unknown) unknown.append(chip);
  }
  function unknownChip(id: number): HTMLButtonElement {
    return h(
      'button',
      {
        type: 'button',
        class: 'chip',
        'data-marker': id,
        title: `Marker ${id} is on the table but on no base: bind it below`,
        onclick: () => {
          markerInput.value = String(id);
          // A marker nobody owns is usually a new base: offer "+ new base".
          if (baseSelect.options.length > 0)
            baseSelect.value = baseSelect.options[baseSelect.options.length - 1]!.value;
        },
      },
      `marker ${id} · unrecognised`,
    );
  }

  async function poll(): Promise<void> {
    try {
      const m = await api<Markers>('GET', '/api/markers');
      showUnknown(m);
    } catch {
      /* the next poll will tell */
    }
  }

  return {
    setScenario(next) {
      file = next;
      const keep = unitSelect.value;
      unitSelect.replaceChildren(...(file?.units ?? []).map((u) => h('option', { value: u.id }, u.name)));
      if (keep && file?.units.some((u) => u.id === keep)) unitSelect.value = keep;
      fillBases();
      list.replaceChildren(
        ...(file?.units ?? []).map((u) =>
          h(
            'li',
            {},
            h('span', {}, u.name),
            h('span', { class: 'muted' }, u.bases.map((b) => b.marker.id).join(', ')),
          ),
        ),
      );
    },
    setVisible(visible) {
      if (visible && timer === null) {
        void poll();
        timer = window.setInterval(() => void poll(), 1000);
      } else if (!visible && timer !== null) {
        window.clearInterval(timer);
        timer = null;
      }
    },
  };
}
