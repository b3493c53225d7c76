import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Router, type Request, type Response } from 'express';
import { z } from 'zod';
import {
  LINEAR_TERRAIN,
  markerIdProblem,
  parseScenario,
  ScenarioError,
  TERRAIN_KINDS,
  type Scenario,
  type ScenarioFile,
} from '../table/scenario.ts';
import { syntheticTableExtras } from '../synth/table-extras.ts';
import { badRequest } from './http-errors.ts';
import type { RouteContext } from './route-context.ts';

/**
 * Scenario editing over REST. Every change is made to a copy of the scenario being watched,
 * validated by the scenario schema (the same errors as a bad file), and applied live through the
 * server's scenario-replacement path; nothing changes when it is refused.
 *
 *   GET  /api/scenario                    the scenario being watched, as a file (millimetres)
 *   GET  /api/scenarios                   scenario files in the scenarios folder
 *   GET  /api/scenarios/:name             one file
 *   PUT  /api/scenarios/:name             save the body (a scenario file) under that name
 *   POST /api/scenarios/:name/save        save the scenario being watched under that name
 *   POST /api/scenarios/:name/load        watch that file
 *   GET  /api/markers                     markers the camera sees: bound, and seen but not bound
 *   POST /api/roster/base                 bind a marker to a unit's base; set base size, marker offset, height
 *   POST /api/terrain                     add or replace a terrain piece
 *   DELETE /api/terrain/:id               remove one
 *   GET  /api/synthetic/bases             loose bases on the synthetic table (not in the scenario)
 *   POST /api/synthetic/bases             synthetic camera only: press a new marked base onto the table
 *   DELETE /api/synthetic/bases/:markerId take it away again
 *
 * File names are plain names inside the scenarios folder only (no paths, no `..`).
 */

export interface ScenarioRouteOptions {
  readonly dir: string;
  /** The file the server was started with (reported, never overwritten unless saved by name). */
  readonly loadedFrom?: string;
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
export const MAX_SCENARIO_BYTES = 512 * 1024;

/** A scenario back as a file: millimetres, every optional field kept, nothing added. */
export function scenarioToFile(s: Scenario): ScenarioFile {
  const keep = <T extends object>(o: T): Partial<T> =>
    Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
  return {
    name: s.name,
    ...(s.description === undefined ? {} : { description: s.description }),
    ruleset: s.ruleset,
    lengthUnit: 'mm',
    markerDictionary: s.markerDictionary,
    table: { width: s.table.widthMm, depth: s.table.depthMm },
    referenceMarkers: s.referenceMarkers.map((m) => ({
      id: m.id,
      x: m.x,
      y: m.y,
      size: m.sizeMm,
      height: m.heightMm,
    })),
    sides: s.sides.map((x) => ({ ...x })),
    units: s.units.map((u) => {
      const { bases, leaderAtTurnStart, ...rest } = u;
      return {
        ...keep(rest),
        ...(leaderAtTurnStart ? { leaderAtTurnStart: { ...leaderAtTurnStart } } : {}),
        id: u.id,
        name: u.name,
        side: u.side,
        type: u.type,
        bases: bases.map((b) => ({
          width: b.widthMm,
          depth: b.depthMm,
          marker: {
            id: b.marker.id,
            size: b.marker.sizeMm,
            height: b.marker.heightMm,
            offset: { ...b.marker.offsetMm },
            rotationDeg: b.marker.rotationDeg,
          },
          ...(b.pose ? { pose: { ...b.pose } } : {}),
          ...(b.role ? { role: b.role } : {}),
        })),
      };
    }),
    ...(s.terrain
      ? {
          terrain: s.terrain.map((t) => ({
            id: t.id,
            kind: t.kind,
            ...keep({
              name: t.name,
              polygon: t.polygon?.map((p) => ({ x: p.x, y: p.y })),
              line: t.line?.map((p) => ({ x: p.x, y: p.y })),
              height: t.heightMm,
              width: t.widthMm,
              blocksSight: t.blocksSight,
              cover: t.cover,
              skirmishOnly: t.skirmishOnly,
              cavalryProof: t.cavalryProof,
              impassable: t.impassable,
            }),
          })),
        }
      : {}),
    ...(s.board
      ? {
          board: {
            map: s.board.map,
            origin: { ...s.board.originMm },
            rotationDeg: s.board.rotationDeg,
            mapInch: s.board.mmPerMapInch,
          },
        }
      : {}),
  };
}

const point = z.strictObject({ x: z.number().finite(), y: z.number().finite() });

export const baseEditSchema = z.strictObject({
  /** Unit id or exact name. */
  unit: z.string().min(1).max(100),
  /** Index of the base in the unit (0-based); the unit's base count adds a new base. */
  base: z.number().int().min(0).max(99),
  markerId: z.number().int().min(0).max(100_000).optional(),
  widthMm: z.number().positive().max(1000).optional(),
  depthMm: z.number().positive().max(1000).optional(),
  markerSizeMm: z.number().positive().max(500).optional(),
  /** Height of the marker surface above the table. */
  markerHeightMm: z.number().min(0).max(200).optional(),
  /** Marker centre in the base's frame (+y front, +x right). */
  markerOffsetMm: point.optional(),
  /** Take the marker away from whichever base has it now. */
  steal: z.boolean().optional(),
});

export const terrainEditSchema = z.strictObject({
  /** Omit to get a fresh id. */
  id: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,40}$/, 'terrain id: letters, digits, - and _ only')
    .optional(),
  name: z.string().min(1).max(100).optional(),
  kind: z.enum(TERRAIN_KINDS),
  polygon: z.array(point).min(3).max(200).optional(),
  line: z.array(point).min(2).max(200).optional(),
  heightMm: z.number().min(0).max(500).optional(),
  widthMm: z.number().positive().max(500).optional(),
});

/** A base pressed onto the synthetic table (millimetres): what a player does before binding its marker. */
export const looseBaseSchema = z.strictObject({
  markerId: z.number().int().min(0).max(100_000),
  x: z.number().finite(),
  y: z.number().finite(),
  headingDeg: z.number().finite().min(-360).max(360).default(0),
  widthMm: z.number().positive().max(300).default(40),
  depthMm: z.number().positive().max(300).default(40),
  markerSizeMm: z.number().positive().max(200).default(25),
  markerHeightMm: z.number().min(0).max(100).default(3),
  colour: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'colour: #rrggbb')
    .optional(),
});

function fileName(dir: string, name: string | undefined): string | null {
  if (!name) return null;
  const bare = name.endsWith('.json') ? name.slice(0, -5) : name;
  if (!NAME.test(bare)) return null;
  const root = resolve(dir);
  const path = resolve(root, `${bare}.json`);
  return path.startsWith(root + '/') || path.startsWith(root + '\\') ? path : null;
}

const BAD_NAME = 'scenario names are 1–64 letters, digits, - or _ (no folders)';

export function scenarioRoutes(ctx: RouteContext, options: ScenarioRouteOptions): Router {
  const router = Router();
  const dir = options.dir;

  /** Validates an edited file and makes it the watched scenario; answers 400 with the issues if refused. */
  async function apply(res: Response, file: ScenarioFile): Promise<void> {
    let next: Scenario;
    try {
      next = parseScenario(file, 'edited scenario');
    } catch (err) {
      if (err instanceof ScenarioError)
        return void res.status(400).json({ error: err.message, issues: err.issues });
      throw err;
    }
    await ctx.replaceScenario(next);
    res.json({ ok: true, scenario: scenarioToFile(next) });
  }

  router.get('/api/scenario', (_req, res) => {
    res.json({ scenario: scenarioToFile(ctx.scenario()), loadedFrom: options.loadedFrom ?? null });
  });

  router.get('/api/scenarios', async (_req, res) => {
    const names = existsSync(dir)
      ? (await readdir(dir)).filter((f) => f.endsWith('.json')).map((f) => f.slice(0, -5))
      : [];
    res.json({ scenarios: names.filter((n) => NAME.test(n)).sort() });
  });

  router.get('/api/scenarios/:name', async (req: Request, res: Response) => {
    const path = fileName(dir, String(req.params['name']));
    if (!path) return void res.status(400).json({ error: BAD_NAME });
    if (!existsSync(path))
      return void res.status(404).json({ error: `no scenario "${String(req.params['name'])}"` });
    const text = await readFile(path, 'utf8');
    try {
      res.json({ scenario: JSON.parse(text) as unknown });
    } catch {
      res.status(422).json({ error: `${String(req.params['name'])} is not valid JSON` });
    }
  });

  async function save(res: Response, name: string, value: unknown): Promise<void> {
    const path = fileName(dir, name);
    if (!path) return void res.status(400).json({ error: BAD_NAME });
    try {
      parseScenario(value, `scenario "${name}"`);
    } catch (err) {
      if (err instanceof ScenarioError)
        return void res.status(400).json({ error: err.message, issues: err.issues });
      throw err;
    }
    const text = JSON.stringify(value, null, 2) + '\n';
    if (Buffer.byteLength(text) > MAX_SCENARIO_BYTES)
      return void res.status(413).json({ error: 'scenario too large' });
    await mkdir(dir, { recursive: true });
    // Write then rename, so a crash never leaves half a file.
    await writeFile(`${path}.tmp`, text);
    await rename(`${path}.tmp`, path);
    res.json({ ok: true, saved: join(dir, `${name.replace(/\.json$/, '')}.json`) });
  }

  router.put('/api/scenarios/:name', async (req: Request, res: Response) =>
    save(res, String(req.params['name']), req.body),
  );
  router.post('/api/scenarios/:name/save', async (req: Request, res: Response) =>
    save(res, String(req.params['name']), scenarioToFile(ctx.scenario())),
  );

  router.post('/api/scenarios/:name/load', async (req: Request, res: Response) => {
    const path = fileName(dir, String(req.params['name']));
    if (!path) return void res.status(400).json({ error: BAD_NAME });
    if (!existsSync(path))
      return void res.status(404).json({ error: `no scenario "${String(req.params['name'])}"` });
    let value: unknown;
    try {
      value = JSON.parse(await readFile(path, 'utf8'));
    } catch {
      return void res.status(422).json({ error: `${String(req.params['name'])} is not valid JSON` });
    }
    await apply(res, value as ScenarioFile);
  });

  router.get('/api/markers', (_req, res) => {
    const frame = ctx.latest();
    const s = ctx.scenario();
    const owners = new Map<number, { unit: string; base: number }>();
    s.units.forEach((u) => u.bases.forEach((b, i) => owners.set(b.marker.id, { unit: u.id, base: i })));
    if (!frame) return void res.json({ frame: null, unknownIds: [], seen: [] });
    res.json({
      frame: frame.snapshot.result.sequence,
      // Seen lately, and still bound to nothing (a marker just bound may still be in the memory).
      unknownIds: ctx.recentUnknownIds().filter((id) => !owners.has(id)),
      seen: frame.snapshot.result.bases
        .filter((b) => b.seen)
        .map((b) => ({ markerId: b.markerId, ...owners.get(b.markerId) })),
    });
  });

  router.post('/api/roster/base', async (req: Request, res: Response) => {
    const parsed = baseEditSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad base edit', parsed.error);
    const edit = parsed.data;
    const file = scenarioToFile(ctx.scenario());
    const unit = file.units.find((u) => u.id === edit.unit) ?? file.units.find((u) => u.name === edit.unit);
    if (!unit) return void res.status(404).json({ error: `no unit called "${edit.unit}"` });
    const bases = [...unit.bases];
    if (edit.base > bases.length)
      return void res.status(400).json({
        error: `${unit.name} has ${bases.length} bases: give 0–${bases.length - 1}, or ${bases.length} for a new one`,
      });
    const existing = bases[edit.base];
    if (!existing && edit.markerId === undefined)
      return void res.status(400).json({ error: 'a new base needs a markerId' });
    if (edit.markerId !== undefined) {
      const id = edit.markerId;
      if (file.referenceMarkers.some((m) => m.id === id))
        return void res.status(409).json({ error: `marker ${id} is a reference marker` });
      const owner = file.units.find((u) =>
        u.bases.some((b, i) => b.marker.id === id && !(u === unit && i === edit.base)),
      );
      if (owner && !edit.steal)
        return void res
          .status(409)
          .json({ error: `marker ${id} is already on a base of ${owner.name}`, owner: owner.id });
      if (owner) {
        // Stealing: the old base goes (a unit keeps at least one base, so refuse to empty it).
        const kept = owner.bases.filter((b) => b.marker.id !== id);
        if (kept.length === 0)
          return void res
            .status(409)
            .json({ error: `marker ${id} is ${owner.name}'s only base; bind another marker to it first` });
        owner.bases = kept;
      }
    }
    const template = existing ??
      bases[bases.length - 1] ?? { width: 40, depth: 20, marker: { id: 0, size: 20 } };
    const marker = { ...template.marker };
    if (edit.markerId !== undefined) marker.id = edit.markerId;
    if (edit.markerSizeMm !== undefined) marker.size = edit.markerSizeMm;
    if (edit.markerHeightMm !== undefined) marker.height = edit.markerHeightMm;
    if (edit.markerOffsetMm !== undefined) marker.offset = edit.markerOffsetMm;
    const next = {
      ...(existing ?? { width: template.width, depth: template.depth }),
      ...(edit.widthMm !== undefined ? { width: edit.widthMm } : {}),
      ...(edit.depthMm !== undefined ? { depth: edit.depthMm } : {}),
      marker,
    };
    bases[edit.base] = next;
    unit.bases = bases;
    await apply(res, file);
  });

  // Loose bases on the synthetic table (dev and test use: real tables get real bases).
  router.get('/api/synthetic/bases', (_req, res) => {
    res.json({ synthetic: ctx.camera().source === 'synthetic', bases: syntheticTableExtras.looseBases });
  });
  router.post('/api/synthetic/bases', async (req: Request, res: Response) => {
    const parsed = looseBaseSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad base', parsed.error);
    if (ctx.camera().source !== 'synthetic')
      return void res.status(409).json({
        error: 'only the synthetic camera has a table to put bases on: press a real base onto your table',
      });
    const b = parsed.data;
    const s = ctx.scenario();
    if (b.x < 0 || b.y < 0 || b.x > s.table.widthMm || b.y > s.table.depthMm)
      return void res
        .status(400)
        .json({ error: `(${b.x}, ${b.y}) mm is off the ${s.table.widthMm} × ${s.table.depthMm} mm table` });
    if (s.referenceMarkers.some((m) => m.id === b.markerId))
      return void res.status(409).json({ error: `marker ${b.markerId} is a reference marker` });
    const owner = s.units.find((u) => u.bases.some((x) => x.marker.id === b.markerId && x.pose));
    if (owner)
      return void res
        .status(409)
        .json({ error: `marker ${b.markerId} is already on the table, on a base of ${owner.name}` });
    const outside = markerIdProblem(s.markerDictionary, b.markerId);
    if (outside) return void res.status(400).json({ error: outside });
    syntheticTableExtras.putBase({ ...b, ...(b.colour ? { colour: b.colour } : {}) });
    res.json({ ok: true, bases: syntheticTableExtras.looseBases });
  });
  router.delete('/api/synthetic/bases/:markerId', (req: Request, res: Response) => {
    const id = Number(req.params['markerId']);
    if (!Number.isInteger(id) || !syntheticTableExtras.removeBase(id))
      return void res
        .status(404)
        .json({ error: `no loose base with marker ${String(req.params['markerId'])}` });
    res.json({ ok: true, bases: syntheticTableExtras.looseBases });
  });

  router.post('/api/terrain', async (req: Request, res: Response) => {
    const parsed = terrainEditSchema.safeParse(req.body);
    if (!parsed.success) return void badRequest(res, 'bad terrain', parsed.error);
    const t = parsed.data;
    const linear = LINEAR_TERRAIN.includes(t.kind);
    if (linear && !t.line)
      return void res.status(400).json({ error: `a ${t.kind} is drawn as a line: give "line"` });
    if (!linear && !t.polygon)
      return void res.status(400).json({ error: `a ${t.kind} is an area: give "polygon"` });
    const file = scenarioToFile(ctx.scenario());
    const terrain = [...(file.terrain ?? [])];
    let id = t.id;
    if (!id) {
      let n = 1;
      while (terrain.some((p) => p.id === `${t.kind}-${n}`)) n++;
      id = `${t.kind}-${n}`;
    }
    const piece = {
      id,
      kind: t.kind,
      ...(t.name ? { name: t.name } : {}),
      ...(linear ? { line: t.line } : { polygon: t.polygon }),
      ...(t.heightMm !== undefined ? { height: t.heightMm } : {}),
      ...(t.widthMm !== undefined ? { width: t.widthMm } : {}),
    };
    const at = terrain.findIndex((p) => p.id === id);
    if (at >= 0) terrain[at] = piece;
    else terrain.push(piece);
    await apply(res, { ...file, terrain });
  });

  router.delete('/api/terrain/:id', async (req: Request, res: Response) => {
    const file = scenarioToFile(ctx.scenario());
    const id = String(req.params['id']);
    const terrain = file.terrain ?? [];
    if (!terrain.some((p) => p.id === id)) return void res.status(404).json({ error: `no terrain "${id}"` });
    await apply(res, { ...file, terrain: terrain.filter((p) => p.id !== id) });
  });

  return router;
}
