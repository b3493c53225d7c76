// Importing the rules' index registers every ruleset (this module also runs in the rules worker).
import { rulesetForScenario } from '../rules/index.ts';
import { pairKindsOf, type PairAnswer, type PairKind } from '../rules/engine/all-pairs.ts';
import type { ThresholdPolicy } from '../rules/engine/threshold.ts';
import { tableReachSliced, threatsOfUnitSliced } from '../rules/engine/unit-threats.ts';
import type { Verdict } from '../rules/engine/verdict.ts';
import type { Scenario } from '../table/scenario.ts';
import type { BasePose } from '../table/table-state.ts';
import { tableFromPoses } from './live-table-state.ts';

/**
 * The threat views as the pages receive them, and the work of answering one: plain data in, plain
 * data out, so it runs in the rules worker (rules-worker.ts) as well as in the process that
 * asks. The server route (threat-routes.ts) checks the request, reads the table the camera sees
 * now, and hands a `ThreatJob` over.
 */

/** One pair's answer as the page shows it: the verdict without its sub-checks, or the refusal. */
export type ThreatCell =
  | { readonly verdict: Omit<Verdict, 'checks'> & { readonly checks: readonly [] } }
  | { readonly refused: string };

export interface ThreatPairView {
  readonly enemy: string;
  readonly name: string;
  readonly from: Partial<Record<PairKind, ThreatCell>>;
  readonly shotBy?: ThreatCell;
}

export interface ThreatResponse {
  readonly unit: string;
  readonly ruleset: string;
  /** The frame whose poses were answered. */
  readonly frame: number;
  readonly kinds: readonly PairKind[];
  readonly pairs: readonly ThreatPairView[];
  /** Wall time of the answer, ms (the hand-over to the worker included). */
  readonly ms: number;
  readonly asked: number;
}

export interface TableThreatResponse {
  readonly ruleset: string;
  readonly frame: number;
  readonly kind: PairKind;
  /** False when the ruleset does not answer this kind (units is then empty). */
  readonly answered: boolean;
  readonly units: ReadonlyArray<{
    readonly unit: string;
    readonly name: string;
    readonly answer: 'yes' | 'borderline' | 'no';
    /** The enemy that gave the answer, and its answer. */
    readonly enemy?: string;
    readonly enemyName?: string;
    readonly cell?: ThreatCell;
  }>;
  readonly ms: number;
  readonly asked: number;
}

/** Everything one threat view is answered from (structured-cloneable: it is posted to a worker). */
export interface ThreatJob {
  readonly scenario: Scenario;
  /** Tracked base poses by marker id (live-table-state.ts `livePoses`). */
  readonly poses: ReadonlyMap<number, BasePose>;
  readonly turnStartPoses?: ReadonlyMap<number, BasePose>;
  /** The frame the poses come from (echoed in the answer). */
  readonly frame: number;
  /** Ruleset id (checked by the route: an unknown id never reaches here). */
  readonly ruleset: string;
  readonly options: Readonly<Record<string, string | number | boolean>>;
  readonly policy: ThresholdPolicy;
  /** One unit's view, or the whole table for one kind. */
  readonly ask: { readonly unit: string } | { readonly kind: PairKind };
}

/** A job's outcome: the view (its `ms` left 0 for the route to fill), or why there is none. */
export type ThreatOutcome =
  | { readonly view: ThreatResponse | TableThreatResponse }
  | { readonly superseded: true }
  | { readonly notOnTable: string };

const cellOf = (a: PairAnswer): ThreatCell =>
  'verdict' in a ? { verdict: { ...a.verdict, checks: [] } } : { refused: a.refused };

/** Nothing to wait for between pairs: a worker has no frames to keep flowing (cancel is read from shared memory). */
const noPause = (): Promise<void> => Promise.resolve();

/**
 * Answers a job pair by pair, checking `cancelled()` between pairs (a newer request superseded
 * it); `pause` is awaited between pairs (a caller on the server's own thread gives the event loop back).
 */
export async function answerThreatJob(
  job: ThreatJob,
  cancelled: () => boolean,
  pause: () => Promise<void> = noPause,
): Promise<ThreatOutcome> {
  const ruleset = rulesetForScenario(job.ruleset, job.scenario);
  const state = tableFromPoses(job.scenario, job.poses, job.turnStartPoses);
  const names = new Map(state.units.map((u) => [u.id, u.name]));
  const settings = { options: job.options, policy: job.policy };
  // A bad option is refused by the route before the job is posted (here each pair would be refused).
  const ask = job.ask;
  if ('unit' in ask) {
    const unit = state.units.find((u) => u.id === ask.unit);
    if (!unit) return { notOnTable: `${ask.unit} is not on the table` };
    const view = await threatsOfUnitSliced(ruleset, state, unit.id, settings, pause, cancelled);
    if (!view) return { superseded: true };
    const response: ThreatResponse = {
      unit: unit.id,
      ruleset: ruleset.id,
      frame: job.frame,
      kinds: view.kinds,
      pairs: view.pairs.map((p) => ({
        enemy: p.enemy,
        name: names.get(p.enemy) ?? p.enemy,
        from: Object.fromEntries(Object.entries(p.from).map(([k, a]) => [k, cellOf(a)])),
        ...(p.shotBy ? { shotBy: cellOf(p.shotBy) } : {}),
      })),
      ms: 0,
      asked: view.asked,
    };
    return { view: response };
  }
  const kind = ask.kind;
  const reach = await tableReachSliced(ruleset, state, kind, settings, pause, cancelled);
  if (!reach) return { superseded: true };
  const response: TableThreatResponse = {
    ruleset: ruleset.id,
    frame: job.frame,
    kind,
    answered: pairKindsOf(ruleset).includes(kind),
    units: reach.units.map((u) => ({
      unit: u.unit,
      name: names.get(u.unit) ?? u.unit,
      answer: u.answer,
      ...(u.enemy ? { enemy: u.enemy, enemyName: names.get(u.enemy) ?? u.enemy } : {}),
      ...(u.best ? { cell: cellOf(u.best) } : {}),
    })),
    ms: 0,
    asked: reach.asked,
  };
  return { view: response };
}
