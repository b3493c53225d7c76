import type { Vec2 } from '../../../src/geometry/vec.ts';
import type { StateMessage, UnitView } from '../../../src/server/protocol.ts';
import type { PairKind } from '../../../src/rules/engine/all-pairs.ts';
import type {
  TableThreatResponse,
  ThreatCell,
  ThreatPairView,
  ThreatResponse,
} from '../../../src/server/threat-routes.ts';
import { centroidOf, roundedOffset, topMost, unitPolygons } from './shape-geometry.ts';
import { movedSince, posesOf, type PosesAt } from './stale.ts';
import type { TableShape, Tone } from './table-overlays.ts';

/**
 * The threat view, headless: which pair answer a mode shows (the picked unit shooting, charging,
 * seeing each enemy, or each enemy shooting it), its tone and icon, the lines drawn from the
 * picked unit to every enemy, and when the page should ask the server again (the poses changed
 * since the view it has, and no request is under way).
 */

export type ThreatMode = 'shoot' | 'charge' | 'see' | 'shotBy';

export const THREAT_MODES: ReadonlyArray<{ readonly mode: ThreatMode; readonly label: string }> = [
  { mode: 'shoot', label: 'A can shoot' },
  { mode: 'charge', label: 'A can charge' },
  { mode: 'see', label: 'A can see' },
  { mode: 'shotBy', label: 'can shoot A' },
];

export function cellFor(pair: ThreatPairView, mode: ThreatMode): ThreatCell | undefined {
  return mode === 'shotBy' ? pair.shotBy : pair.from[mode];
}

/** A refusal (the ruleset will not ask it of this pair) is shown as a no, with its reason. */
export function toneOfCell(cell: ThreatCell | undefined): Tone {
  if (!cell) return 'neutral';
  if ('refused' in cell) return 'no';
  return cell.verdict.answer;
}

export const ICON: Readonly<Record<Tone, string>> = { yes: '✔', no: '✘', borderline: '≈', neutral: '–' };
export const WORD: Readonly<Record<Tone, string>> = {
  yes: 'yes',
  no: 'no',
  borderline: 'too close to call',
  neutral: 'not asked',
};

function unitCentre(unit: UnitView): Vec2 {
  return centroidOf(unitPolygons(unit).flat());
}

/** Lines from the picked unit to each enemy (from the enemy, shot by), coloured by the answer. */
export function threatShapes(
  view: ThreatResponse | null,
  state: StateMessage,
  mode: ThreatMode,
): TableShape[] {
  if (!view) return [];
  const me = state.units.find((u) => u.id === view.unit);
  if (!me || me.bases.length === 0) return [];
  const from = unitCentre(me);
  const shapes: TableShape[] = [];
  for (const pair of view.pairs) {
    const cell = cellFor(pair, mode);
    if (!cell) continue;
    const enemy = state.units.find((u) => u.id === pair.enemy);
    if (!enemy || enemy.bases.length === 0) continue;
    const to = unitCentre(enemy);
    const tone = toneOfCell(cell);
    const points = mode === 'shotBy' ? [to, from] : [from, to];
    // The icon sits three quarters of the way to the enemy, so rays to close enemies keep theirs apart.
    const labelAt = { x: from.x + 0.75 * (to.x - from.x), y: from.y + 0.75 * (to.y - from.y) };
    shapes.push({ kind: 'threat', closed: false, points, z: 0, tone, label: ICON[tone], labelAt });
  }
  return shapes;
}

/** The kind the whole-table view asks for a mode ("can shoot A" reversed is still shooting). */
export const kindOfMode = (mode: ThreatMode): PairKind => (mode === 'shotBy' ? 'shoot' : mode);

/** The whole table: a ring around every unit that can do it to some enemy (yes or too close to call). */
export function tableReachShapes(view: TableThreatResponse | null, state: StateMessage): TableShape[] {
  if (!view) return [];
  const shapes: TableShape[] = [];
  for (const u of view.units) {
    if (u.answer === 'no') continue;
    const unit = state.units.find((x) => x.id === u.unit);
    if (!unit || unit.bases.length === 0) continue;
    const ring = roundedOffset(unitPolygons(unit).flat(), 12);
    shapes.push({
      kind: 'threat',
      closed: true,
      points: ring,
      z: 0,
      tone: u.answer,
      label: ICON[u.answer],
      labelAt: topMost(ring),
    });
  }
  return shapes;
}

/** What to ask for: the picked unit and the referee's ruleset and options. */
export interface ThreatQuery {
  /** The picked unit; null for the whole table. */
  readonly unit: string | null;
  /** The whole table's kind. */
  readonly kind?: PairKind;
  readonly ruleset: string | undefined;
  readonly options: Readonly<Record<string, string | number | boolean>>;
}

const queryKey = (q: ThreatQuery): string =>
  JSON.stringify([q.unit, q.kind ?? null, q.ruleset ?? null, q.options]);

/**
 * Asks the server for the view whenever the query changes or a base has moved since the poses
 * last asked about (by the verdict card's rule, stale.ts: more than the camera's uncertainty,
 * three sigma and at least 3 mm, or a turn of more than a degree; so camera jitter alone asks
 * nothing), one request at a time: a change that arrives while a request is out is asked for
 * once it returns. While units keep moving, the next view waits as long again as the last one
 * took, so the rules are kept busy at most half the time (on a crowded table a view takes
 * 50–300 ms, and asked back to back while a unit is carried it would hold a whole core of a 2-core
 * laptop); a new question (another unit, kind, ruleset or options) is asked at once.
 */
export class ThreatPoller<V = ThreatResponse> {
  view: V | null = null;
  /** performance.now() when the view arrived. */
  receivedAt = 0;
  error: string | null = null;
  private inFlight = false;
  private asked: { key: string; poses: PosesAt } | null = null;
  private wanted: { key: string; query: ThreatQuery; state: StateMessage } | null = null;
  /** Before this time (now()) a move alone is not asked about; the timer asks once it has passed. */
  private restUntil = 0;
  private restTimer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly fetchView: (q: ThreatQuery) => Promise<V>,
    private readonly onView: () => void,
    private readonly now: () => number = () => performance.now(),
    /** A view still answers what is wanted (a view for a unit no longer picked is not shown). */
    private readonly belongs: (view: V, q: ThreatQuery) => boolean = (view, q) =>
      (view as { unit?: string }).unit === q.unit,
  ) {}

  /** The table or the query may have changed: ask again if it did. null stops asking. */
  note(state: StateMessage | null, query: ThreatQuery | null): void {
    if (!state || !query || (query.unit !== null && !state.units.some((u) => u.id === query.unit))) {
      this.wanted = null;
      this.asked = null;
      if (this.view) {
        this.view = null;
        this.onView();
      }
      return;
    }
    this.wanted = { key: queryKey(query), query, state };
    this.pump();
  }

  private pump(): void {
    const want = this.wanted;
    if (this.inFlight || !want) return;
    const units = want.state.units;
    const ids = units.map((u) => u.id);
    const sameQuestion = this.asked !== null && this.asked.key === want.key;
    if (sameQuestion && movedSince(this.asked!.poses, units, ids).length === 0) return;
    if (sameQuestion) {
      const rest = this.restUntil - this.now();
      if (rest > 0) {
        this.restTimer ??= setTimeout(() => {
          this.restTimer = null;
          this.pump();
        }, rest);
        return;
      }
    }
    this.inFlight = true;
    this.asked = { key: want.key, poses: posesOf(units, ids) };
    const started = this.now();
    this.fetchView(want.query)
      .then((view) => {
        if (this.wanted && this.belongs(view, this.wanted.query)) {
          this.view = view;
          this.receivedAt = this.now();
          this.error = null;
        }
      })
      .catch((err: unknown) => {
        this.error = err instanceof Error ? err.message : String(err);
      })
      .finally(() => {
        this.inFlight = false;
        const done = this.now();
        this.restUntil = done + (done - started);
        this.onView();
        this.pump();
      });
  }
}
