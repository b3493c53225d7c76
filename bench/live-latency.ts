/**
 * Moved-unit-to-overlay latency for the live benchmark (bench/live.ts), from two logs kept apart:
 * the frames the camera sent (when, and where the renderer's truth puts the moving unit's bases)
 * and the overlay messages a WebSocket client received (when, and where the server says those
 * bases are). Pure: no clocks, no sockets.
 *
 * A message *shows* frame k when every base of the moving unit it reports lies within the
 * tolerance of frame k's truth. A move is a frame whose truth differs from the frame before; its
 * latency runs from the moment it was sent to the first message showing that frame or a later one
 * (frames the server dropped are caught up by a later picture, as a player sees it).
 */

export interface TablePoint {
  readonly x: number;
  readonly y: number;
}

/** Base positions of the moving unit, table mm, keyed by marker id. */
export type UnitPose = ReadonlyMap<number, TablePoint>;

export interface SentFrame {
  /** Increasing frame number. */
  readonly index: number;
  /** When the camera sent (or captured) it, epoch ms. */
  readonly sentAt: number;
  /** Where the renderer put the moving unit's bases. */
  readonly truth: UnitPose;
}

export interface OverlayMessage {
  /** When the client received it, epoch ms. */
  readonly receivedAt: number;
  /** The moving unit's bases as the message reports them (a base not reported is absent). */
  readonly reported: UnitPose;
  /**
   * The frame the message is known to describe (a source that stamps its frames, such as the
   * synthetic table); without it the message is matched to the latest frame it agrees with.
   */
  readonly frameIndex?: number;
  /**
   * When the server took in the frame it describes, epoch ms (its capture stamp): that frame was
   * sent no later. Without it, no later than the message arrived.
   */
  readonly capturedAt?: number;
}

export interface MatchOptions {
  /** Largest distance between a reported base and its truth that still shows the frame, mm. */
  readonly toleranceMm: number;
  /**
   * Only frames sent this recently before the message's capture stamp are candidates. Keep it
   * under the time the path takes to come back to a pose: a frame that took longer than that to
   * reach the server could be taken for a later lap's.
   */
  readonly windowMs: number;
}

/** Whether the reported pose shows the truth: every true base reported, each within the tolerance. */
export function poseShows(reported: UnitPose, truth: UnitPose, toleranceMm: number): boolean {
  if (truth.size === 0) return false;
  for (const [id, t] of truth) {
    const r = reported.get(id);
    if (!r || Math.hypot(r.x - t.x, r.y - t.y) > toleranceMm) return false;
  }
  return true;
}

/** Largest displacement of any base between two poses, mm (Infinity when the base sets differ). */
export function poseShift(a: UnitPose, b: UnitPose): number {
  if (a.size !== b.size) return Number.POSITIVE_INFINITY;
  let most = 0;
  for (const [id, p] of a) {
    const q = b.get(id);
    if (!q) return Number.POSITIVE_INFINITY;
    most = Math.max(most, Math.hypot(p.x - q.x, p.y - q.y));
  }
  return most;
}

/**
 * For each message, the index of the frame it shows, or null: the frame it names if it shows that
 * one, else (no name) the latest frame it agrees with among those sent no later than its capture
 * stamp (or its arrival) and within the window before that. `frames` in sending order.
 */
export function matchMessages(
  frames: readonly SentFrame[],
  messages: readonly OverlayMessage[],
  options: MatchOptions,
): Array<number | null> {
  const byIndex = new Map(frames.map((f) => [f.index, f]));
  return messages.map((m) => {
    if (m.frameIndex !== undefined) {
      const f = byIndex.get(m.frameIndex);
      return f && poseShows(m.reported, f.truth, options.toleranceMm) ? f.index : null;
    }
    const notAfter = Math.min(m.receivedAt, m.capturedAt ?? m.receivedAt);
    for (let i = lastSentBy(frames, notAfter); i >= 0; i--) {
      const f = frames[i]!;
      if (notAfter - f.sentAt > options.windowMs) break;
      if (poseShows(m.reported, f.truth, options.toleranceMm)) return f.index;
    }
    return null;
  });
}

/** Position of the last frame sent at or before `t` (binary search), −1 if none. */
function lastSentBy(frames: readonly SentFrame[], t: number): number {
  let lo = 0;
  let hi = frames.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (frames[mid]!.sentAt <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

export interface MoveLatencies {
  /** One per move that some message showed: ms from the move's frame being sent to that message. */
  readonly latenciesMs: readonly number[];
  /** Moves no message showed (nor any later frame) before the log ends. */
  readonly unresolved: number;
  /** Frames counted as moves. */
  readonly moves: number;
}

/**
 * Latency of every move among `frames` whose sending time lies in [from, to): the first message
 * (in receiving order) showing that frame or a later one. `matched` is matchMessages' answer.
 * `minShiftMm` is how far a base must go for a frame to count as a move.
 */
export function moveLatencies(
  frames: readonly SentFrame[],
  messages: readonly OverlayMessage[],
  matched: readonly (number | null)[],
  window: { readonly from: number; readonly to: number },
  minShiftMm = 0.01,
): MoveLatencies {
  // Messages in receiving order, with the newest frame shown so far at each.
  const order = messages.map((m, i) => ({ at: m.receivedAt, shown: matched[i] ?? null }));
  order.sort((a, b) => a.at - b.at);
  const latencies: number[] = [];
  let unresolved = 0;
  let moves = 0;
  let cursor = 0;
  let newest = Number.NEGATIVE_INFINITY;
  for (let k = 1; k < frames.length; k++) {
    const f = frames[k]!;
    if (f.sentAt < window.from || f.sentAt >= window.to) continue;
    if (poseShift(f.truth, frames[k - 1]!.truth) < minShiftMm) continue;
    moves++;
    // Frames are in sending order, so the answering message never comes before the previous one's.
    while (cursor < order.length && newest < f.index) {
      const s = order[cursor]!.shown;
      if (s !== null) newest = Math.max(newest, s);
      if (newest >= f.index) break;
      cursor++;
    }
    if (cursor < order.length && newest >= f.index) latencies.push(order[cursor]!.at - f.sentAt);
    else unresolved++;
  }
  return { latenciesMs: latencies, unresolved, moves };
}

/** The q-quantile (0–1) by nearest rank; NaN for no values. */
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))]!;
}

/**
 * Where a shown frame's time went: camera to server (the server's capture stamp minus when the
 * camera wrote the frame: sockets, ffmpeg, JPEG decode) and server to client (arrival minus the
 * capture stamp: pipeline, overlay, WebSocket). One pair per message that shows a frame.
 */
export function latencySplit(
  frames: readonly SentFrame[],
  messages: readonly OverlayMessage[],
  matched: readonly (number | null)[],
): { readonly toServerMs: number[]; readonly toClientMs: number[] } {
  const sentAt = new Map(frames.map((f) => [f.index, f.sentAt]));
  const toServerMs: number[] = [];
  const toClientMs: number[] = [];
  messages.forEach((m, i) => {
    const k = matched[i];
    const sent = k === null || k === undefined ? undefined : sentAt.get(k);
    if (sent === undefined || m.capturedAt === undefined) return;
    toServerMs.push(m.capturedAt - sent);
    toClientMs.push(m.receivedAt - m.capturedAt);
  });
  return { toServerMs, toClientMs };
}
