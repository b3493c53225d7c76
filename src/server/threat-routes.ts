import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { getRuleset } from '../rules/index.ts';
import type { PairAnswer, PairKind } from '../rules/engine/all-pairs.ts';
import { OptionError } from '../rules/engine/options.ts';
import { UnknownRulesetError } from '../rules/engine/registry.ts';
import type { ThresholdPolicy } from '../rules/engine/threshold.ts';
import { threatsOfUnitSliced } from '../rules/engine/unit-threats.ts';
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

const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

export function threatRoutes(ctx: RouteContext): Router {
  const router = Router();
  let latestRequest = 0;
  router.post('/api/threats', async (req: Request, res: Response) => {
    const parsed = threatSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad threat request', parsed.error);
    const frame = ctx.latest();
    if (!frame) return void res.status(503).json({ error: 'no frame processed yet — wait for the camera' });
    const scenario = ctx.scenario();
    const body = parsed.data;
    let ruleset;
    try {
      const base = getRuleset(body.ruleset ?? scenario.ruleset);
      ruleset = base.forScenario ? base.forScenario(scenario) : base;
    } catch (err) {
      if (err instanceof UnknownRulesetError) return void res.status(400).json({ error: err.message });
      throw err;
    }
    const state = liveTableState(scenario, frame);
    const unit = state.units.find((u) => u.id === body.unit);
    if (!unit) return void res.status(404).json({ error: `${body.unit} is not on the table` });
    const policy: ThresholdPolicy = body.exact ? { floor: 0, sigmas: 0 } : ruleset.defaultPolicy;
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
  return router;
}
