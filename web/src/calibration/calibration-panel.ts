import type { ViewReport } from '../../../src/camera/calibration.ts';
import type { SolveReport } from '../../../src/server/calibration-routes.ts';
import { DEFAULT_BOARD_NAME } from '../../../src/camera/default-board.ts';
import { api } from '../core/api.ts';
import { h, message } from '../ui/dom.ts';

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

interface SyntheticBoard {
  readonly synthetic: boolean;
  readonly board: string | null;
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
  // The synthetic camera has no one to hold a board: it can be shown one that moves by itself.
  const testBoard = h(
    'button',
    { type: 'button', id: 'calib-synthetic-board', hidden: true },
    'Hold up a test board',
  );
  let showingTestBoard = false;
  const setTestBoard = (s: SyntheticBoard) => {
    testBoard.hidden = !s.synthetic;
    showingTestBoard = s.board !== null;
    testBoard.textContent = showingTestBoard
      ? 'Put the test board away'
      : 'Hold up a test board (synthetic camera)';
    testBoard.setAttribute('aria-pressed', String(showingTestBoard));
  };

  function show(s: Summary): void {
    if (s.boards.length && board.options.length === 0)
      board.replaceChildren(...s.boards.map((b) => h('option', { value: b }, b)));
    if (s.board) board.value = s.board;
    const reports = new Map<number, ViewReport>((s.last?.views ?? []).map((v) => [v.index, v]));
    views.replaceChildren(
      ...s.views.map((v, i) => {
        const r = reports.get(i);
        const text = r
          ? `${r.cornersFound} corners · ${r.status}${r.rmsPx !== null ? ` · RMS ${r.rmsPx.toFixed(2)} px` : ''}${r.problem ? ` — ${r.problem}` : ''}`
          : 'not analysed yet';
        return h(
          'li',
          { 'data-view': i, 'data-frame': v.frame ?? '', 'data-status': r?.status ?? 'captured' },
          h('span', {}, v.name),
          h('span', { class: 'muted' }, text),
        );
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
              ...(last.profile
                ? [
                    h('dt', {}, 'Focal length'),
                    h(
                      'dd',
                      { id: 'calib-focal' },
                      `fx ${last.profile.fx.toFixed(1)} · fy ${last.profile.fy.toFixed(1)} px`,
                    ),
                    h('dt', {}, 'Centre'),
                    h(
                      'dd',
                      { id: 'calib-centre' },
                      `${last.profile.cx.toFixed(1)}, ${last.profile.cy.toFixed(1)} px`,
                    ),
                  ]
                : []),
            )
          : h(
              'p',
              { class: 'message', 'data-kind': 'error', id: 'calib-refusal' },
              `Refused (${last.refusal?.reason}): ${last.refusal?.message}`,
            ),
        ...last.warnings.map((w) => h('p', { class: 'muted' }, w)),
      );
    }
    save.disabled = !last?.ok;
    capture.textContent = `Capture view (${s.views.length})`;
  }

  async function run(method: 'GET' | 'POST' | 'DELETE', path: string, body?: unknown): Promise<void> {
    try {
      const s = await api<Summary & { markersFound?: number }>(method, path, body);
      show(s);
      if (s.markersFound !== undefined)
        message(status, `Captured: ${s.markersFound} board markers in view.`, 'ok');
      else message(status, '');
    } catch (err) {
      message(status, (err as Error).message, 'error');
    }
  }

  testBoard.addEventListener('click', async () => {
    try {
      setTestBoard(
        await api<SyntheticBoard>('POST', '/api/calibration/synthetic-board', {
          board: showingTestBoard ? null : board.value || null,
        }).then((r) => ({ synthetic: true, board: r.board })),
      );
      message(
        status,
        showingTestBoard
          ? 'The test board moves to a new place every few frames: capture a view at each.'
          : '',
      );
    } catch (err) {
      message(status, (err as Error).message, 'error');
    }
  });

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
    h(
      'p',
      { class: 'muted' },
      'Print the board with `vedette print board` (it is the one chosen below), then hold it in front of the camera in 10–20 places: near the corners, tilted different ways. Capture each.',
    ),
    h('label', { class: 'field' }, 'Board', board),
    testBoard,
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
    setTestBoard(await api<SyntheticBoard>('GET', '/api/calibration/synthetic-board'));
    // The board `vedette print board` makes, unless the player already chose another.
    const preferred = s.boards.includes(DEFAULT_BOARD_NAME) ? DEFAULT_BOARD_NAME : s.boards[0];
    if (!s.board && preferred) {
      board.value = preferred;
      await run('POST', '/api/calibration/board', { board: preferred });
    }
  };
  return { refresh: () => void refresh().catch((err: Error) => message(status, err.message, 'error')) };
}
