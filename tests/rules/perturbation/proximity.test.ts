import { describe, expect, it } from 'vitest';
import { rng } from '../../../bench/rules-scenario.ts';
import { bpContext } from '../../../src/rules/black-powder/context.ts';
import { proximityMoveVerdict } from '../../../src/rules/black-powder/proximity.ts';
import { EXACT_POLICY, type ThresholdPolicy } from '../../../src/rules/engine/threshold.ts';
import type { BaseSpec, UnitSpec } from '../../../src/table/scenario.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import { twoSidedScenario } from '../fixtures.ts';
import { perturbedPoses, reportedPoses, tableOf } from './perturb.ts';
import { flips } from './verdict-tree.ts';

/**
 * The perturbation property for Black Powder's proximity rule, which is not a question asked in
 * words (the move is given as the bases' destinations): a unit near an enemy moves to a
 * destination close to the edge of its front or rear quarter; the destination is fixed on the
 * table and every base of the table is moved within its reported sigma. A firm answer must not flip.
 */
const IN = 25.4;
const TABLES = 150;
const PERTURBATIONS = 6;

function line(
  id: string,
  side: string,
  cx: number,
  cy: number,
  headingDeg: number,
  w: number,
  r: () => number,
  sig: Map<number, { mm: number; deg: number }>,
  marker: { n: number },
): UnitSpec {
  const files = Math.max(1, Math.round(w / 2));
  const bw = w / files;
  const t = (headingDeg * Math.PI) / 180;
  const right = { x: Math.cos(t), y: Math.sin(t) };
  const bases: BaseSpec[] = Array.from({ length: files }, (_, i) => {
    const off = (-w / 2 + bw * (i + 0.5)) * IN;
    const id = marker.n++;
    sig.set(id, { mm: 0.5 + 2.5 * r(), deg: 0.2 + 1.3 * r() });
    return {
      widthMm: bw * IN,
      depthMm: 1.5 * IN,
      marker: { id, sizeMm: 20, heightMm: 3, offsetMm: { x: 0, y: 0 }, rotationDeg: 0 },
      pose: { x: cx + right.x * off, y: cy + right.y * off, headingDeg },
    };
  });
  return { id, name: id, side, type: 'infantry', formation: 'line', bases };
}

describe('perturbation property: Black Powder proximity sidestep', () => {
  it(
    `${TABLES} moves near a quarter edge × ${PERTURBATIONS} perturbations: no firm flip`,
    { timeout: 120_000 },
    () => {
      let cases = 0;
      let caught = 0;
      let borderline = 0;
      const firm: string[] = [];
      for (let seed = 1; seed <= TABLES; seed++) {
        const r = rng(seed * 4099);
        const sig = new Map<number, { mm: number; deg: number }>();
        const marker = { n: 1 };
        const heading = r() * 360;
        const h = (heading * Math.PI) / 180;
        const front = { x: -Math.sin(h), y: Math.cos(h) };
        const cx = 60 * IN;
        const cy = 36 * IN;
        const w = 4 + 8 * r();
        const unit = line('S', 'red', cx, cy, heading, w, r, sig, marker);
        const gap = (4 + 6 * r()) * IN;
        const foe = line(
          'E',
          'blue',
          cx + front.x * gap,
          cy + front.y * gap,
          heading + 180,
          6,
          r,
          sig,
          marker,
        );
        const scenario = twoSidedScenario('prox', 'black-powder', { widthMm: 120 * IN, depthMm: 72 * IN }, [
          unit,
          foe,
        ]);
        const reported = reportedPoses(scenario, sig);
        const state = tableOf(scenario, reported);
        // The leader's destination a few mm either side of a dividing ray of the front or rear
        // quarter (45° from a corner), 2–8" along it.
        const rightV = { x: front.y, y: -front.x };
        const side = r() < 0.5 ? -1 : 1;
        const ahead = r() < 0.6 ? 1 : -1;
        const corner = {
          x: cx + rightV.x * side * (w / 2) * IN + front.x * ahead * 0.75 * IN, // base poses are centres
          y: cy + rightV.y * side * (w / 2) * IN + front.y * ahead * 0.75 * IN,
        };
        const ray = {
          x: (front.x * ahead + rightV.x * side) / Math.SQRT2,
          y: (front.y * ahead + rightV.y * side) / Math.SQRT2,
        };
        const normal = { x: ray.y * side * ahead, y: -ray.x * side * ahead };
        const along = (2 + 6 * r()) * IN;
        const off = (r() - 0.5) * 60; // mm either side of the ray
        const dest = {
          x: corner.x + ray.x * along + normal.x * off,
          y: corner.y + ray.y * along + normal.y * off,
        };
        const s = findUnit(state, 'S');
        const d = { x: dest.x - s.leader.x, y: dest.y - s.leader.y };
        const moved = s.bases.map((b) => ({
          ...b.footprint,
          center: { x: b.footprint.center.x + d.x, y: b.footprint.center.y + d.y },
        }));
        const policy: ThresholdPolicy = seed % 2 ? { floor: 0, sigmas: 2 } : { floor: 0.25, sigmas: 2 };
        const checkOpt = seed % 3 === 0 ? 'wholeFootprint' : 'leaderOnly';
        const before = proximityMoveVerdict(bpContext(state, { proximityCheck: checkOpt }, policy), s, moved);
        if (before.answer === 'borderline') borderline++;
        const pr = rng(seed * 31 + 7);
        for (let k = 0; k < PERTURBATIONS; k++) {
          const p = tableOf(scenario, perturbedPoses(reported, pr));
          const after = proximityMoveVerdict(
            bpContext(p, { proximityCheck: checkOpt }, EXACT_POLICY),
            findUnit(p, 'S'),
            moved,
          );
          cases++;
          for (const f of flips(before, after)) {
            if (f.before.answer === 'borderline') caught++;
            else
              firm.push(
                `seed ${seed}: ${f.key} ${f.before.answer} → ${f.after.lean}; ${f.before.reasons.join(' / ')}`,
              );
          }
        }
      }
      console.log(
        `black-powder proximity: ${TABLES} moves, ${cases} perturbed cases, ${borderline} borderline, ${caught} flips caught (all borderline), ${firm.length} firm flips`,
      );
      expect(firm.slice(0, 10)).toEqual([]);
      expect(caught).toBeGreaterThan(0);
    },
  );
});
