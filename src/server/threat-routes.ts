import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { getRuleset } from '../rules/index.ts';
import { PAIR_KINDS, pairKindsOf, type PairAnswer, type PairKind } from '../rules/engine/all-pairs.ts';
import { OptionError } from '../rules/engine/options.ts';
import { UnknownRulesetError } from '../rules/engine/registry.ts';
import type { Ruleset } from '../rules/engine/ruleset.ts';
import type { Scenario } from '../table/scenario.ts';
import type { ThresholdPolicy } from '../rules/engine/threshold.ts';
import { tableReachSliced, threatsOfUnitSliced } from '../rules/engine/unit-threats.ts';
import type { Verdict } from '../rules/engine/verdict.ts';
import { badRequest } from './http-errors.ts';
import { liveTableState } from './referee-routes.ts';
import type { RouteContext } from './route-context.ts';

/**
 * POST /api/threats: the threat view of one picked unit against the table as the camera sees it
 * now — every enemy it can shoot, charge or see, and every enemy that can shoot it, each pair
 * answered by the ruleset (unit-threats.ts). The verdicts are asked one pair at a time with the
 * event loop given back between pairs (setImmediate), so the live loop keeps sending frames while
 * a view is answered; a newer request supersedes one still being answered.
 */

export const threatSchema = z.strictObject({
  unit: z.string().min(1).max(100),
  ruleset: z.string().min(1).max(60).optional(),
  options: z
    .record(z.string().min(1).max(60), z.union([z.string().max(200), z.number().finite(), z.boolean()]))
    .refine((o) => Object.keys(o).length <= 40, 'too many options')
    .optional(),
  exact: z.boolean().optional(),
});
export type ThreatRequest = z.infer<typeof threatSchema>;

/** The whole table: which units can shoot / charge / see some enemy. */
export const tableThreatSchema = threatSchema.omit({ unit: true }).extend({ kind: z.enum(PAIR_KINDS) });

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
  /** Wall time of the answer, ms (asked verdicts and the pauses between them). */
  readonly ms: number;
  readonly asked: number;
}

const cellOf = (a: PairAnswer): ThreatCell =>
  'verdict' in a ? { verdict: { ...a.verdict, checks: [] } } : { refused: a.refused };

/** The ruleset asked for (the scenario's by default), or null after answering 400. */
function rulesetFor(res: Response, scenario: Scenario, id: string | undefined): Ruleset | null {
  try {
    const base = getRuleset(id ?? scenario.ruleset);
    return base.forScenario ? base.forScenario(scenario) : base;
  } catch (err) {
    if (err instanceof UnknownRulesetError) {
      res.status(400).json({ error: err.message });
      return null;
    }
    throw err;
  }
}

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function threatRoutes(ctx: RouteContext): Router {
  const router = Router();
  let latestRequest = 0;
  router.post('/api/threats', async (req: Request, res: Response) => {
    const parsed = threatSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad threat request', parsed.error);
    const body = parsed.data;
    const table = tableNow(ctx, res, body);
    if (!table) return;
    const { frame, ruleset, state, policy } = table;
    const unit = state.units.find((u) => u.id === body.unit);
    if (!unit) return void res.status(404).json({ error: `${body.unit} is not on the table` });
    const me = ++latestRequest;
    const started = performance.now();
    try {
      const view = await threatsOfUnitSliced(
        ruleset,
        state,
        unit.id,
        { options: body.options ?? {}, policy },
        nextTurn,
        () => me !== latestRequest,
      );
      if (!view) return void res.status(409).json({ error: 'superseded by a newer threat request' });
      const names = new Map(state.units.map((u) => [u.id, u.name]));
      const response: ThreatResponse = {
        unit: unit.id,
        ruleset: ruleset.id,
        frame: frame.snapshot.result.sequence,
        kinds: view.kinds,
        pairs: view.pairs.map((p) => ({
          enemy: p.enemy,
          name: names.get(p.enemy) ?? p.enemy,
          from: Object.fromEntries(Object.entries(p.from).map(([k, a]) => [k, cellOf(a)])),
          ...(p.shotBy ? { shotBy: cellOf(p.shotBy) } : {}),
        })),
        ms: Math.round(performance.now() - started),
        asked: view.asked,
      };
      res.json(response);
    } catch (err) {
      if (err instanceof OptionError) return void res.status(400).json({ error: err.message });
      throw err;
    }
  });

  let latestTable = 0;
  router.post('/api/threats/table', async (req: Request, res: Response) => {
    const parsed = tableThreatSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad threat request', parsed.error);
    const body = parsed.data;
    const table = tableNow(ctx, res, body);
    if (!table) return;
    const { frame, ruleset, state, policy } = table;
    const me = ++latestTable;
    const started = performance.now();
    try {
      const reach = await tableReachSliced(
        ruleset,
        state,
        body.kind,
        { options: body.options ?? {}, policy },
        nextTurn,
        () => me !== latestTable,
      );
      if (!reach) return void res.status(409).json({ error: 'superseded by a newer threat request' });
      const names = new Map(state.units.map((u) => [u.id, u.name]));
      const response: TableThreatResponse = {
        ruleset: ruleset.id,
        frame: frame.snapshot.result.sequence,
        kind: body.kind,
        answered: pairKindsOf(ruleset).includes(body.kind),
        units: reach.units.map((u) => ({
          unit: u.unit,
          name: names.get(u.unit) ?? u.unit,
          answer: u.answer,
          ...(u.enemy ? { enemy: u.enemy, enemyName: names.get(u.enemy) ?? u.enemy } : {}),
          ...(u.best ? { cell: cellOf(u.best) } : {}),
        })),
        ms: Math.round(performance.now() - started),
        asked: reach.asked,
      };
      res.json(response);
    } catch (err) {
      if (err instanceof OptionError) return void res.status(400).json({ error: err.message });
      throw err;
    }
  });
  return router;
}

/**
 * The table as the referee sees it now (the latest frame, the recorded turn start, as /api/ask
 * builds it), the ruleset asked for and its threshold policy; or null once an error was sent.
 */
function tableNow(
  ctx: RouteContext,
  res: Response,
  body: { readonly ruleset?: string | undefined; readonly exact?: boolean | undefined },
) {
  const frame = ctx.latest();
  if (!frame) {
    res.status(503).json({ error: 'no frame processed yet — wait for the camera' });
    return null;
  }
  const scenario = ctx.scenario();
  const ruleset = rulesetFor(res, scenario, body.ruleset);
  if (!ruleset) return null;
  const state = liveTableState(scenario, frame, ctx.turnStartPoses?.());
  const policy: ThresholdPolicy = body.exact ? { floor: 0, sigmas: 0 } : ruleset.defaultPolicy;
  return { frame, ruleset, state, policy };
}
