import { describeConnection, formatDetection, formatFps, type FpsMeter } from '../core/status.ts';
import type { LiveState } from './state.ts';

/** The header's status line and the notice over the picture, in words. */
export interface StatusDom {
  readonly status: HTMLElement;
  readonly connection: HTMLElement;
  readonly fps: HTMLElement;
  readonly detection: HTMLElement;
  readonly pose: HTMLElement;
  readonly notice: HTMLElement;
}

export function updateStatusLine(dom: StatusDom, s: LiveState, fps: FpsMeter): void {
  const now = performance.now();
  dom.status.dataset['connection'] = s.connection.phase;
  dom.connection.textContent = describeConnection(s.connection, now);
  const live = s.connection.phase === 'open';
  dom.fps.textContent = live ? formatFps(fps.rate(now)) : '';
  dom.detection.textContent = live && s.lastState ? formatDetection(s.lastState.detectionMs) : '';
  const poseUnknown = live && s.lastState !== null && s.lastState.pose === null;
  const settling = live && s.lastState?.pose != null && s.lastState.poseStatus === 'settling';
  dom.pose.hidden = !poseUnknown && !settling;
  dom.pose.textContent = poseUnknown
    ? '⚠ table pose unknown'
    : settling
      ? '⚠ camera moved — re-checking'
      : '';
  dom.pose.dataset['pose'] = s.lastState?.poseStatus ?? 'unknown';
  updateNotice(dom, s);
}

export function updateNotice(dom: Pick<StatusDom, 'notice'>, s: LiveState): void {
  let text = '';
  if (s.connection.phase !== 'open' && !s.shown) text = 'Connecting to the table…';
  else if (!s.shown) text = 'Waiting for the camera…';
  else if (!s.shown.picture) text = 'No camera picture — showing the last reported positions';
  else if (s.shown.state.pose === null)
    text = 'Table pose unknown — make sure the reference markers are in view';
  dom.notice.textContent = text;
  dom.notice.hidden = text === '';
}
