import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { clipToConvex } from '../geometry/convex-clip.ts';
import { pointToPolygon } from '../geometry/distance.ts';
import { facedBoxPolygon } from '../geometry/faced-box.ts';
import type { Polygon } from '../geometry/polygon.ts';
import { quarterPolygon, type QuarterReading } from '../geometry/quarters.ts';
import type { Vec2 } from '../geometry/vec.ts';
import { getRuleset, listRulesets } from '../rules/index.ts';
import { OptionError } from '../rules/engine/options.ts';
import { QUESTION_KINDS, QuestionError, type Question } from '../rules/engine/question.ts';
import { UnknownRulesetError } from '../rules/engine/registry.ts';
import type { Ruleset } from '../rules/engine/ruleset.ts';
import type { ThresholdPolicy } from '../rules/engine/threshold.ts';
import type { Verdict } from '../rules/engine/verdict.ts';
import type { Scenario } from '../table/scenario.ts';
import { findByName, UnknownNameError, type BasePose, type TableState } from '../table/table-state.ts';
import { badRequest } from './http-errors.ts';
import type { LiveFrame } from './live-loop.ts';
import { liveTableState } from './live-table-state.ts';
import type { RouteContext } from './route-context.ts';

/**
 * The referee: GET /api/rulesets lists every ruleset with its options; POST /api/ask answers one
 * question about two units under a ruleset, against the table as the camera sees it now (the
 * latest tracked poses). The answer is the ruleset's Verdict plus the table geometry a page needs
 * to draw it (the two units' outlines, facing and front quarter, sight-blocking terrain) — rules
 * math stays here and in src/rules; the browser only draws. GET /api/referee/last asks the last
 * question again of the current frame (the streamer overlay follows it); DELETE clears it.
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

export interface UnitGeometry {
  readonly id: string;
  readonly name: string;
  readonly side: string;
  readonly kind: 'unit' | 'commander';
  /** Every base outline, table mm. */
  readonly polygons: readonly Polygon[];
  /** The unit's formed body as one faced box (commanders: their base). */
  readonly outline: Polygon;
  /** Centre of the front edge (where most rulesets measure from), and the facing direction. */
  readonly leader: Vec2;
  readonly facing: Vec2;
  /** The front quarter under the reading in force, clipped to the table. */
  readonly frontQuarter: Polygon | null;
  /** The base the measurement starts from (holds or is nearest `verdict.between[0]`). */
  readonly measuredFrom: Polygon | null;
}

export interface AskResponse {
  readonly verdict: Verdict;
  /** Why the answer may not hold for the table as it is now (null when it does). */
  readonly caution: string | null;
  readonly frame: number;
  readonly subject: UnitGeometry | null;
  readonly object: UnitGeometry | null;
  /** Terrain that blocks sight, for drawing shadows and naming blockers. */
  readonly blockers: ReadonlyArray<{
    readonly id: string;
    readonly label: string;
    readonly polygon: Polygon;
  }>;
}

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

function geometryOf(
  state: TableState,
  ref: string,
  verdict: Verdict,
  measuring: boolean,
): UnitGeometry | null {
  const tableRect: Polygon = [
    { x: 0, y: 0 },
    { x: state.table.widthMm, y: 0 },
    { x: state.table.widthMm, y: state.table.depthMm },
    { x: 0, y: state.table.depthMm },
  ];
  const from = measuring ? verdict.between?.[0] : undefined;
  const nearest = (polys: readonly Polygon[]): Polygon | null => {
    if (!from) return null;
    let best: Polygon | null = null;
    let bestD = Infinity;
    for (const p of polys) {
      const d = pointToPolygon(from, p).distance;
      if (d < bestD) [best, bestD] = [p, d];
    }
    return best;
  };
  const unit = state.units.find((u) => u.id === ref) ?? null;
  if (unit) {
    const reading = verdict.options['quarterReading'];
    const q: QuarterReading = reading === 'diagonal' ? 'diagonal' : 'bisector';
    const front = clipToConvex(quarterPolygon(unit.box, 'front', q), tableRect);
    return {
      id: unit.id,
      name: unit.name,
      side: unit.side,
      kind: 'unit',
      polygons: unit.allPolygons,
      outline: facedBoxPolygon(unit.box),
      leader: unit.leader,
      facing: unit.facing,
      frontQuarter: front.length >= 3 ? front : null,
      measuredFrom: nearest(unit.allPolygons),
    };
  }
  const commander = state.commanders.find((c) => c.id === ref);
  if (!commander) return null;
  const r = 15;
  const c = commander.head;
  const square: Polygon = [
    { x: c.x - r, y: c.y - r },
    { x: c.x + r, y: c.y - r },
    { x: c.x + r, y: c.y + r },
    { x: c.x - r, y: c.y + r },
  ];
  return {
    id: commander.id,
    name: commander.name,
    side: commander.side,
    kind: 'commander',
    polygons: [square],
    outline: square,
    leader: c,
    facing: { x: 0, y: 1 },
    frontQuarter: null,
    measuredFrom: null,
  };
}

/** Resolves a name against units and commanders (ids first), or throws UnknownNameError. */
function resolveId(state: TableState, ref: string): string {
  return findByName<{ id: string; name: string }>([...state.units, ...state.commanders], ref).id;
}

export function askReferee(
  scenario: Scenario,
  frame: LiveFrame,
  body: AskRequest,
  turnStartPoses?: ReadonlyMap<number, BasePose>,
): AskResponse {
  const base = getRuleset(body.ruleset ?? scenario.ruleset);
  const ruleset = base.forScenario ? base.forScenario(scenario) : base;
  const state = liveTableState(scenario, frame, turnStartPoses);
  const missing = state.missing.map((m) => m.id);
  for (const ref of [body.a, body.b]) {
    if (ref === undefined) continue;
    const inScenario = scenario.units.find((u) => u.id === ref || u.name.toLowerCase() === ref.toLowerCase());
    if (inScenario && missing.includes(inScenario.id))
      throw new UnknownNameError(`${inScenario.name} is not on the table (no base located yet)`);
  }
  const a = resolveId(state, body.a);
  const b = body.b === undefined ? undefined : resolveId(state, body.b);
  const question: Question = {
    kind: body.question,
    subject: a,
    ...(b === undefined ? {} : { object: b }),
    text: `${body.question} ${body.a}${body.b ? ` ${body.b}` : ''}`,
    ...(body.declared ? { declared: true } : {}),
  };
  const policy: ThresholdPolicy = body.exact ? { floor: 0, sigmas: 0 } : ruleset.defaultPolicy;
  const verdict = ruleset.ask(state, question, body.options ?? {}, policy);
  const measuring = verdict.between !== undefined;
  return {
    verdict,
    caution: caution(frame, [a, ...(b ? [b] : [])]),
    frame: frame.snapshot.result.sequence,
    subject: geometryOf(state, a, verdict, measuring),
    object: b === undefined ? null : geometryOf(state, b, verdict, false),
    blockers: state.terrain
      .filter((t) => t.blocksSight && t.polygon)
      .map((t) => ({ id: t.id, label: t.label, polygon: t.polygon ?? [] })),
  };
}

export function refereeRoutes(ctx: RouteContext): Router {
  const router = Router();
  router.get('/api/rulesets', (_req: Request, res: Response) => {
    res.json({ scenarioRuleset: ctx.scenario().ruleset, rulesets: listRulesets().map(rulesetInfo) });
  });
  // The question last answered, asked again of the current frame: what the streamer overlay shows.
  let lastAsked: AskRequest | null = null;
  router.get('/api/referee/last', (_req: Request, res: Response) => {
    const frame = ctx.latest();
    if (!lastAsked || !frame) return void res.json({ answer: null });
    try {
      res.json({ answer: askReferee(ctx.scenario(), frame, lastAsked, ctx.turnStartPoses?.()) });
    } catch {
      res.json({ answer: null });
    }
  });
  router.delete('/api/referee/last', (_req: Request, res: Response) => {
    lastAsked = null;
    res.json({ ok: true });
  });
  router.post('/api/ask', (req: Request, res: Response) => {
    const parsed = askSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad question', parsed.error);
    const frame = ctx.latest();
    if (!frame) return void res.status(503).json({ error: 'no frame processed yet — wait for the camera' });
    try {
      const answer = askReferee(ctx.scenario(), frame, parsed.data, ctx.turnStartPoses?.());
      lastAsked = parsed.data;
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
