import { Router, type Request, type Response } from 'express';
import { parseScenario, ScenarioError, type Scenario } from '../table/scenario.ts';
import { UnknownNameError } from '../table/table-state.ts';
import type { SourceSpec } from '../vision/sources/create-source.ts';
import { measurementView } from './live-state.ts';
import { roleOf } from './security.ts';
import type { ServerStatus } from './server-options.ts';
import type { WatchedTable } from './watched-table.ts';

/**
 * The live table's own REST routes: is the server up, how is it doing, who am I, which camera,
 * how far from A to B now, and load another scenario. (Referee, scenario files, calibration,
 * print and battles have their own route files.)
 */
export function tableRoutes(
  table: WatchedTable,
  options: { readonly startupSource: SourceSpec; readonly status: () => ServerStatus },
): Router {
  const router = Router();
  router.get('/api/health', (_req, res) => {
    res.json({
      ok: true,
      scenario: table.scenario.name,
      source: table.source.name,
      frame: table.loop.latest?.snapshot.result.sequence ?? null,
    });
  });
  router.get('/api/status', (_req, res) => void res.json(options.status()));
  router.get('/api/whoami', (_req, res) => void res.json({ role: roleOf(res) }));
  // Switch the camera back to the one the server was started with, or to the synthetic table.
  // (Only these two: a client may not point the server at arbitrary files or addresses.)
  router.post('/api/source', async (req: Request, res: Response) => {
    const body = req.body as { source?: unknown } | undefined;
    const choice = body?.source;
    if (choice !== 'startup' && choice !== 'synthetic') {
      return void res.status(400).json({ error: 'source must be "startup" or "synthetic"' });
    }
    const spec: SourceSpec =
      choice === 'startup' ? options.startupSource : { kind: 'synthetic', moving: true };
    await table.switchSource(spec);
    res.json({ ok: true, source: table.source.name });
  });
  // How far from A to B now. GET only reads; POST (players) also keeps the answer with the battle
  // as a ruling (battle-routes.ts observes it): reading never writes.
  const distance = (a: unknown, b: unknown, res: Response): void => {
    if (typeof a !== 'string' || typeof b !== 'string' || !a || !b)
      return void res.status(400).json({ error: 'give two units: /api/distance?a=<unit>&b=<unit>' });
    const latest = table.loop.latest;
    if (!latest) return void res.status(503).json({ error: 'no frame processed yet' });
    try {
      res.json(measurementView(latest.snapshot, a, b));
    } catch (err) {
      if (err instanceof UnknownNameError) return void res.status(404).json({ error: err.message });
      throw err;
    }
  };
  router.get('/api/distance', (req: Request, res: Response) => distance(req.query.a, req.query.b, res));
  router.post('/api/distance', (req: Request, res: Response) => {
    const body = (req.body ?? {}) as { a?: unknown; b?: unknown };
    distance(body.a, body.b, res);
  });
  // Loading a scenario replaces the table being watched; a bad one is refused and nothing changes.
  router.post('/api/scenario', async (req: Request, res: Response) => {
    let next: Scenario;
    try {
      next = parseScenario(req.body, 'uploaded scenario');
    } catch (err) {
      if (err instanceof ScenarioError)
        return void res.status(400).json({ error: err.message, issues: err.issues });
      throw err;
    }
    await table.replaceScenario(next);
    res.json({ ok: true, scenario: table.scenario.name });
  });
  return router;
}
