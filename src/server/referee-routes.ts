import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { listRulesets } from '../rules/index.ts';
import { OptionError } from '../rules/engine/options.ts';
import { QUESTION_KINDS, QuestionError } from '../rules/engine/question.ts';
import { UnknownRulesetError } from '../rules/engine/registry.ts';
import type { Ruleset } from '../rules/engine/ruleset.ts';
import type { Scenario } from '../table/scenario.ts';
import { UnknownNameError, type BasePose } from '../table/table-state.ts';
import { badRequest } from './http-errors.ts';
import type { LiveFrame } from './live-loop.ts';
import { livePoses } from './live-table-state.ts';
import type { AskResponse } from './referee-answer.ts';
import type { RouteContext } from './route-context.ts';
import type { RulesAnswerer } from './rules-answerer.ts';
import { RepeatedQuestion } from './repeated-question.ts';

export type { AskResponse, UnitGeometry } from './referee-answer.ts';

/**
 * The referee: GET /api/rulesets lists every ruleset with its options; POST /api/ask answers one
 * question about two units under a ruleset, against the table as the camera sees it now (the
 * latest tracked poses). The answer is the ruleset's Verdict plus the table geometry a page needs
 * to draw it (the two units' outlines, facing and front quarter, sight-blocking terrain) — rules
 * math stays on the server (referee-answer.ts, worked out in the rules worker) and in src/rules;
 * the browser only draws. GET /api/referee/last asks the last question again of the current frame
 * (the streamer overlay follows it); DELETE clears it.
 */

export const askSchema = z.strictObject({
  /** Ruleset id; default: the scenario's. */
  ruleset: z.string().min(1).max(60).optional(),
  options: z
    .record(z.string().min(1).max(60), z.union([z.string().max(200), z.number().finite(), z.boolean()]))
    .refine((o) => Object.keys(o).length <= 40, 'too many options')
    .optional(),
  question: z.enum(QUESTION_KINDS),
  /** Subject (shooter, charger, the one who sees, the commander): unit id or name. */
  a: z.string().min(1).max(100),
  /** Object (target), when the question has one. */
  b: z.string().min(1).max(100).optional(),
  /** Charges: declared, so rulesets that forbid measuring first give the distance. */
  declared: z.boolean().optional(),
  /** No borderline band: exact comparisons. */
  exact: z.boolean().optional(),
});
export type AskRequest = z.infer<typeof askSchema>;

export interface RulesetInfo {
  readonly id: string;
  readonly name: string;
  readonly unit: string;
  readonly answers: readonly string[];
  readonly options: ReadonlyArray<{
    readonly name: string;
    readonly default: string | number | boolean;
    readonly choices?: readonly (string | number | boolean)[];
    readonly summary: string;
    readonly meanings?: Readonly<Record<string, string>>;
    readonly ambiguity?: string;
  }>;
}

export function rulesetInfo(r: Ruleset): RulesetInfo {
  return {
    id: r.id,
    name: r.name,
    unit: r.unit,
    answers: r.answers,
    options: Object.entries(r.optionSpecs).map(([name, s]) => ({
      name,
      default: s.default,
      summary: s.summary,
      ...(s.choices ? { choices: s.choices } : {}),
      ...(s.meanings ? { meanings: s.meanings } : {}),
      ...(s.ambiguity ? { ambiguity: s.ambiguity } : {}),
    })),
  };
}

function caution(frame: LiveFrame, unitIds: readonly string[]): string | null {
  const table = frame.snapshot.result.located.table;
  if (!table) return 'table pose unknown — make sure the reference markers are in view';
  if (table.status !== 'stable') return 'camera moved — re-checking';
  const unseen = frame.snapshot.units
    .filter((u) => unitIds.includes(u.unit.id) && u.bases.some((b) => !b.seen))
    .map((u) => u.unit.name);
  return unseen.length > 0
    ? `not all bases of ${unseen.join(', ')} were seen in this frame (last known positions used)`
    : null;
}

/**
 * The referee's answer to one question about the table in a frame: the ruleset's verdict and the
 * geometry to draw it (worked out by the rules worker, rules-worker-client.ts), and why it may
 * not hold for the table as it is now.
 */
export async function askReferee(
  rules: Pick<RulesAnswerer, 'question'>,
  scenario: Scenario,
  frame: LiveFrame,
  body: AskRequest,
  turnStartPoses?: ReadonlyMap<number, BasePose>,
  poses: ReadonlyMap<number, BasePose> = livePoses(frame),
): Promise<AskResponse> {
  const answer = await rules.question({
    scenario,
    poses,
    ...(turnStartPoses ? { turnStartPoses } : {}),
    request: body,
  });
  return {
    verdict: answer.verdict,
    caution: caution(frame, answer.unitIds),
    frame: frame.snapshot.result.sequence,
    subject: answer.subject,
    object: answer.object,
    blockers: answer.blockers,
  };
}

/** `rules` answers the questions (the server passes its rules worker). */
export function refereeRoutes(ctx: RouteContext, rules: RulesAnswerer): Router {
  const router = Router();
  router.get('/api/rulesets', (_req: Request, res: Response) => {
    res.json({ scenarioRuleset: ctx.scenario().ruleset, rulesets: listRulesets().map(rulesetInfo) });
  });
  // The question last answered, asked again of the current frame: what the streamer overlay shows.
  // Asked through `repeated`, so a still table's answer is not worked out again every second.
  let lastAsked: AskRequest | null = null;
  const repeated = new RepeatedQuestion(rules);
  router.get('/api/referee/last', async (_req: Request, res: Response) => {
    const frame = ctx.latest();
    if (!lastAsked || !frame) return void res.json({ answer: null });
    try {
      res.json({
        answer: await askReferee(repeated, ctx.scenario(), frame, lastAsked, ctx.turnStartPoses?.()),
      });
    } catch {
      res.json({ answer: null });
    }
  });
  router.delete('/api/referee/last', (_req: Request, res: Response) => {
    lastAsked = null;
    repeated.forget();
    res.json({ ok: true });
  });
  router.post('/api/ask', async (req: Request, res: Response) => {
    const parsed = askSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad question', parsed.error);
    const frame = ctx.latest();
    if (!frame) return void res.status(503).json({ error: 'no frame processed yet — wait for the camera' });
    try {
      const poses = livePoses(frame);
      const answer = await askReferee(
        repeated,
        ctx.scenario(),
        frame,
        parsed.data,
        ctx.turnStartPoses?.(),
        poses,
      );
      lastAsked = parsed.data;
      // The battle record keeps the poses the ruling was worked out from (battle-routes.ts): the
      // live loop may have moved on while the rules worker answered.
      res.locals['rulingPoses'] = [...poses].map(([markerId, p]) => ({ markerId, ...p }));
      res.json(answer);
    } catch (err) {
      if (err instanceof UnknownNameError) return void res.status(404).json({ error: err.message });
      if (err instanceof UnknownRulesetError || err instanceof OptionError || err instanceof QuestionError)
        return void res.status(400).json({ error: err.message });
      if (
        err instanceof Error &&
        err.name !== 'TypeError' &&
        err.name !== 'RangeError' &&
        err.name !== 'ReferenceError'
      )
        return void res.status(422).json({ error: err.message });
      throw err;
    }
  });
  return router;
}
