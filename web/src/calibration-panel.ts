import type { ViewReport } from '../../src/camera/calibration.ts';
import type { SolveReport } from '../../src/server/calibration-routes.ts';
import { api } from './api.ts';
import { h, message } from './dom.ts';

/**
 * The calibration wizard: choose the printed ChArUco board, hold it in front of the camera in
 * 10–20 different places and tilts, capture each view, then fit. Shows per-view corners and RMS,
 * coverage of the image and the overall RMS; a good fit is saved as a camera profile.
 */

interface Summary {
  readonly boards: readonly string[];
  readonly board: string | null;
  readonly views: ReadonlyArray<{ readonly name: string; readonly frame: number | null }>;
  readonly last: SolveReport | null;
}

export function mountCalibrationPanel(root: HTMLElement): { refresh(): void } {
  const board = h('select', { id: 'calib-board' });
  const capture = h('button', { type: 'button', id: 'calib-capture' }, 'Capture view');
  const solve = h('button', { type: 'button', class: 'primary', id: 'calib-solve' }, 'Calibrate');
  const reset = h('button', { type: 'button', id: 'calib-reset' }, 'Start over');
  const name = h('input', { type: 'text', id: 'calib-name', placeholder: 'my-webcam', maxlength: 64 });
  const save = h('button', { type: 'button', id: 'calib-save', disabled: true }, 'Save profile');
  const status = h('p', { class: 'message', id: 'calib-message' });
  const result = h('div', { id: 'calib-result' });
  const views = h('ul', { class: 'list', id: 'calib-views' });

  function show(s: Summary): void {
    if (s.boards.length && board.options.length === 0) board.replaceChildren(...s.boards.map((b) => h('option', { value: b }, b)));
    if (s.board) board.value = s.board;
    const reports = new Map<number, ViewReport>((s.last?.views ?? []).map((v) => [v.index, v]));
    views.replaceChildren(
      ...s.views.map((v, i) => {
        const r = reports.get(i);
        const text = r
          ? `${r.cornersFound} corners · ${r.status}${r.rmsPx !== null ? ` · RMS ${r.rmsPx.toFixed(2)} px` : ''}${r.problem ? ` — ${r.problem}` : ''}`
          : 'not analysed yet';
        return h('li', { 'data-view': i }, h('span', {}, v.name), h('span', { class: 'muted' }, text));
      }),
    );
    result.replaceChildren();
    const last = s.last;
    if (last) {
      result.dataset['ok'] = String(last.ok);
      result.append(
        last.ok
          ? h(
              'dl',
              { class: 'calib-figures' },
              h('dt', {}, 'RMS'),
              h('dd', { id: 'calib-rms' }, `${(last.rmsPx ?? 0).toFixed(3)} px`),
              h('dt', {}, 'Coverage'),
              h('dd', { id: 'calib-coverage' }, `${Math.round((last.coverage ?? 0) * 100)} % of the image`),
              h('dt', {}, 'Tilt spread'),
              h('dd', {}, `${(last.tiltSpreadDeg ?? 0).toFixed(0)}°`),
            )
          : h('p', { class: 'message', 'data-kind': 'error', id: 'calib-refusal' }, `Refused (${last.refusal?.reason}): ${last.refusal?.message}`),
        ...last.warnings.map((w) => h('p', { class: 'muted' }, w)),
      );
    }
    save.disabled = !last?.ok;
    capture.textContent = `Capture view (${s.views.length})`;
  }

  async function run(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<void> {
    try {
      show(await api<Summary>(method, path, body));
      message(status, '');
    } catch (err) {
      message(status, (err as Error).message, 'error');
    }
  }

  board.addEventListener('change', () => void run('POST', '/api/calibration/board', { board: board.value }));
  capture.addEventListener('click', () => void run('POST', '/api/calibration/capture'));
  reset.addEventListener('click', () => void run('DELETE', '/api/calibration/views'));
  solve.addEventListener('click', async () => {
    message(status, 'Calibrating…');
    await run('POST', '/api/calibration/solve');
  });
  save.addEventListener('click', async () => {
    try {
      const res = await api<{ saved: string }>('POST', '/api/calibration/save', { name: name.value.trim() });
      message(status, `Saved ${res.saved}.`, 'ok');
    } catch (err) {
      message(status, (err as Error).message, 'error');
    }
  });

  root.append(
    h('p', { class: 'muted' }, 'Hold the printed board in front of the camera in 10–20 places: near the corners, tilted different ways. Capture each.'),
    h('label', { class: 'field' }, 'Board', board),
    h('div', { class: 'row' }, capture, reset),
    solve,
    views,
    result,
    h('label', { class: 'field' }, 'Profile name', name),
    save,
    status,
  );
  const refresh = async () => {
    const s = await api<Summary>('GET', '/api/calibration');
    show(s);
    if (!s.board && s.boards[0]) await run('POST', '/api/calibration/board', { board: board.value || s.boards[0] });
  };
  return { refresh: () => void refresh().catch((err: Error) => message(status, err.message, 'error')) };
}
