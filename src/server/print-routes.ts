import { join } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import { loadBoardSpec } from '../camera/calibration-files.ts';
import { DEFAULT_BOARD_NAME } from '../camera/default-board.ts';
import { baseLabel, parseBase } from '../print/base-sizes.ts';
import { PAPER_NAMES, parsePaper } from '../print/paper.ts';
import { boardSheetPdf, markerSheetPdf, referenceSheetPdf } from '../print/sheets.ts';
import type { Scenario } from '../table/scenario.ts';
import type { RouteContext } from './route-context.ts';

/**
 * Printables for the table being watched, as the page's "Print markers" links fetch them: the
 * same PDFs as `vedette print`, at exact scale, from the scenario's own numbers.
 *
 *   GET /api/print                    what can be printed for this scenario (sizes, ids, commands)
 *   GET /api/print/markers.pdf?size=40x20&paper=a4   the scenario's base markers of one base size
 *   GET /api/print/reference.pdf?paper=a4            its reference markers, at their size
 *   GET /api/print/board.pdf?paper=a4                the calibration board (the wizard's default)
 */

const query = z.object({
  paper: z.enum(PAPER_NAMES as [string, ...string[]]).default('a4'),
  size: z
    .string()
    .regex(/^\d{1,3}(\.\d+)?x\d{1,3}(\.\d+)?$/, 'size: WIDTHxDEPTH in mm, e.g. 40x20')
    .optional(),
});

/** The scenario's bases grouped by size (mm, rounded to 0.1): one marker sheet per size. */
export function baseGroups(s: Scenario): Array<{ size: string; ids: number[]; markerMm: number }> {
  const groups = new Map<string, { ids: number[]; markerMm: number }>();
  for (const u of s.units)
    for (const b of u.bases) {
      const size = `${+b.widthMm.toFixed(1)}x${+b.depthMm.toFixed(1)}`;
      const g = groups.get(size) ?? { ids: [], markerMm: b.marker.sizeMm };
      g.ids.push(b.marker.id);
      g.markerMm = Math.min(g.markerMm, b.marker.sizeMm);
      groups.set(size, g);
    }
  return [...groups].map(([size, g]) => ({ size, ids: g.ids.sort((a, b) => a - b), markerMm: g.markerMm }));
}

function send(res: Response, name: string, pdf: Buffer): void {
  res.setHeader('content-type', 'application/pdf');
  res.setHeader('content-disposition', `attachment; filename="${name}"`);
  res.send(pdf);
}

export function printRoutes(ctx: RouteContext, options: { calibrationDir: string }): Router {
  const router = Router();
  router.get('/api/print', (_req, res) => {
    const s = ctx.scenario();
    res.json({
      scenario: s.name,
      dictionary: s.markerDictionary,
      papers: PAPER_NAMES,
      bases: baseGroups(s),
      reference: { ids: s.referenceMarkers.map((m) => m.id), sizeMm: s.referenceMarkers[0]?.sizeMm ?? 80 },
      board: DEFAULT_BOARD_NAME,
    });
  });
  router.get('/api/print/:sheet', async (req: Request, res: Response) => {
    const q = query.safeParse(req.query);
    if (!q.success) return void res.status(400).json({ error: q.error.issues[0]?.message ?? 'bad query' });
    const paper = parsePaper(q.data.paper);
    const s = ctx.scenario();
    const dictionary = s.markerDictionary;
    try {
      switch (String(req.params['sheet'])) {
        case 'markers.pdf': {
          const groups = baseGroups(s);
          const g = groups.find((x) => x.size === q.data.size) ?? (q.data.size ? undefined : groups[0]);
          if (!g)
            return void res.status(404).json({ error: `no base of ${q.data.size ?? 'any'} mm in ${s.name}` });
          const base = parseBase(g.size);
          const r = await markerSheetPdf({ dictionary, ids: g.ids, base, paper, markerMm: g.markerMm });
          return send(res, `vedette-markers-${baseLabel(base).replace(/\s+/g, '')}.pdf`, r.pdf);
        }
        case 'reference.pdf': {
          const ids = s.referenceMarkers.map((m) => m.id);
          const r = await referenceSheetPdf({
            dictionary,
            ids,
            sizeMm: s.referenceMarkers[0]?.sizeMm ?? 80,
            paper,
          });
          return send(res, 'vedette-reference-markers.pdf', r.pdf);
        }
        case 'board.pdf': {
          const board = await loadBoardSpec(
            join(options.calibrationDir, 'boards', `${DEFAULT_BOARD_NAME}.json`),
          );
          const r = await boardSheetPdf({ board, paper });
          return send(res, 'vedette-charuco-board.pdf', r.pdf);
        }
        default:
          return void res.status(404).json({ error: 'printables: markers.pdf, reference.pdf or board.pdf' });
      }
    } catch (err) {
      res.status(422).json({ error: err instanceof Error ? err.message : String(err) });
    }
  });
  return router;
}
