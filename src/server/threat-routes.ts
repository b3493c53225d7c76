import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { PAIR_KINDS, type PairKind } from '../rules/engine/all-pairs.ts';
import { OptionError, resolveOptions } from '../rules/engine/options.ts';
import { UnknownRulesetError } from '../rules/engine/registry.ts';
import { rulesetForScenario } from '../rules/index.ts';
import type { ThresholdPolicy } from '../rules/engine/threshold.ts';
import { badRequest } from './http-errors.ts';
import { livePoses } from './live-table-state.ts';
import type { RouteContext } from './route-context.ts';
import type { ThreatJob } from './threat-answers.ts';
import type { RulesAnswerer } from './rules-answerer.ts';

export type { TableThreatResponse, ThreatCell, ThreatPairView, ThreatResponse } from './threat-answers.ts';

/**
 * POST /api/threats: the threat view of one picked unit against the table as the camera sees it
 * now — every enemy it can shoot, charge or see, and every enemy that can shoot it, each pair
 * answered by the ruleset (unit-threats.ts). POST /api/threats/table: for every unit, whether it
 * can shoot / charge / see some enemy.
 *
 * The routes check the request and read the table; the verdicts are worked out by the rules
 * worker (rules-worker-client.ts), so the live loop keeps sending frames however long a view
 * takes. A newer request to a route from the same client (the page's `client` name; requests
 * without one are one client) supersedes one still being answered (409): two players' pages never
 * cancel each other's views. One unit's view and the whole table are answered side by side.
 */

export const threatSchema = z.strictObject({
  unit: z.string().min(1).max(100),
  ruleset: z.string().min(1).max(60).optional(),
  options: z
    .record(z.string().min(1).max(60), z.union([z.string().max(200), z.number().finite(), z.boolean()]))
    .refine((o) => Object.keys(o).length <= 40, 'too many options')
    .optional(),
  exact: z.boolean().optional(),
  /** The asking page's name for itself: a newer request supersedes older ones of the same client only. */
  client: z.string().min(1).max(64).optional(),
});
export type ThreatRequest = z.infer<typeof threatSchema>;

/** The whole table: which units can shoot / charge / see some enemy. */
export const tableThreatSchema = threatSchema.omit({ unit: true }).extend({ kind: z.enum(PAIR_KINDS) });

/** `rules` answers the jobs (the server passes its rules worker). */
export function threatRoutes(ctx: RouteContext, rules: RulesAnswerer): Router {
  const router = Router();

  /** Posts the job and sends what came back; `ms` is the whole wait, the hand-over included. */
  const answer = async (
    res: Response,
    view: 'unit' | 'table',
    client: string | undefined,
    job: ThreatJob,
  ) => {
    const started = performance.now();
    const outcome = await rules.threats(job, `${view} ${client ?? ''}`);
    if ('superseded' in outcome)
      return void res.status(409).json({ error: 'superseded by a newer threat request' });
    if ('notOnTable' in outcome) return void res.status(404).json({ error: outcome.notOnTable });
    res.json({ ...outcome.view, ms: Math.round(performance.now() - started) });
  };

  router.post('/api/threats', async (req: Request, res: Response) => {
    const parsed = threatSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad threat request', parsed.error);
    const job = jobNow(ctx, res, parsed.data, { unit: parsed.data.unit });
    if (job) await answer(res, 'unit', parsed.data.client, job);
  });

  router.post('/api/threats/table', async (req: Request, res: Response) => {
    const parsed = tableThreatSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad threat request', parsed.error);
    const job = jobNow(ctx, res, parsed.data, { kind: parsed.data.kind });
    if (job) await answer(res, 'table', parsed.data.client, job);
  });

  return router;
}

/**
 * The job for the table as the referee sees it now (the latest frame's poses, the recorded turn
 * start, as /api/ask reads it), under the ruleset asked for and its threshold policy; or null once
 * an error was sent (no frame yet, unknown ruleset, bad option).
 */
function jobNow(
  ctx: RouteContext,
  res: Response,
  body: {
    readonly ruleset?: string | undefined;
    readonly exact?: boolean | undefined;
    readonly options?: Readonly<Record<string, string | number | boolean>> | undefined;
  },
  ask: { readonly unit: string } | { readonly kind: PairKind },
): ThreatJob | null {
  const frame = ctx.latest();
  if (!frame) {
    res.status(503).json({ error: 'no frame processed yet — wait for the camera' });
    return null;
  }
  const scenario = ctx.scenario();
  const id = body.ruleset ?? scenario.ruleset;
  let policy: ThresholdPolicy;
  try {
    const ruleset = rulesetForScenario(id, scenario);
    policy = body.exact ? { floor: 0, sigmas: 0 } : ruleset.defaultPolicy;
    // Refused here, once: in the worker every pair would be refused for it.
    resolveOptions(ruleset.optionSpecs, body.options ?? {});
  } catch (err) {
    if (err instanceof UnknownRulesetError || err instanceof OptionError) {
      res.status(400).json({ error: err.message });
      return null;
    }
    throw err;
  }
  const turnStartPoses = ctx.turnStartPoses?.();
  return {
    scenario,
    poses: livePoses(frame),
    ...(turnStartPoses ? { turnStartPoses } : {}),
    frame: frame.snapshot.result.sequence,
    ruleset: id,
    options: body.options ?? {},
    policy,
    ask,
  };
}
