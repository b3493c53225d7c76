import { describe, expect, it } from 'vitest';
import { engagedTouch } from '../../../src/rules/black-powder/support-contacts.ts';
import { bpContext, inches, moveOf, weaponOf } from '../../../src/rules/black-powder/context.ts';
import { chargeVerdict, reachCheck } from '../../../src/rules/black-powder/charge.ts';
import { visibleCheck } from '../../../src/rules/black-powder/shot-checks.ts';
import { assessShot, eyeSigma, shootVerdict } from '../../../src/rules/black-powder/shooting.ts';
import { seen } from '../../../src/rules/black-powder/sight.ts';
import { DEFAULT_POLICY } from '../../../src/rules/engine/threshold.ts';
import { allOf } from '../../../src/rules/engine/verdict.ts';
import { pointToPolygonSet, polygonSetSeparation } from '../../../src/geometry/distance.ts';
import { findUnit } from '../../../src/table/table-state.ts';
import type { TableUnit } from '../../../src/table/table-unit.ts';
import { box, ctxOf, shooterS, table } from './fixtures.ts';
import { randomTable } from './random-table.ts';

/**
 * Shots and charges settled without sight must be the ones the rules settle without it. The
 * truth is computed here apart from the code under test: the nearest any part of the shooter
 * (every base, the leader point, a gun's barrel tip) comes to any base of the target, against
 * the weapon's reach and the policy's floor; and, for charges, the sight check added back and
 * every check combined as before the early out.
 */

const enemy = { side: 'blue', headingDeg: 180 as const };

/** Nearest approach of anything a range may be measured from to the target's bases, inches. */
function nearestApproachIn(s: TableUnit, t: TableUnit): number {
  const fromBases = polygonSetSeparation(
    s.bases.map((b) => b.polygon),
    t.bases.map((b) => b.polygon),
  ).distance;
  const points = [s.leader, ...(s.barrel ? [s.barrel.tip] : [])];
  const fromPoints = points.map((p) => pointToPolygonSet(p, t.bodyPolygons).distance);
  return inches(Math.min(fromBases, ...fromPoints));
}

/** The range the rule measures to the whole target (a gun's barrel tip, else by rangeFrom), inches. */
function ruleRangeIn(s: TableUnit, t: TableUnit, rangeFrom: string, gun: boolean): number {
  const to = t.bodyPolygons;
  if (gun && s.barrel) return inches(pointToPolygonSet(s.barrel.tip, to).distance);
  if (rangeFrom === 'leaderPoint') return inches(pointToPolygonSet(s.leader, to).distance);
  const from = rangeFrom === 'leaderBase' ? [s.leaderBase.polygon] : s.body.map((b) => b.polygon);
  return inches(polygonSetSeparation(from, to).distance);
}

describe('Black Powder shots settled before sight', () => {
  it('on random tables under every range origin: only conclusive noes, and every far enough target', () => {
    const seenKinds: Record<string, number> = {};
    for (let seed = 1; seed <= 6; seed++) {
      const state = randomTable(seed, 14);
      for (const rangeFrom of ['leaderBase', 'leaderPoint', 'footprint'] as const) {
        const ctx = bpContext(state, { rangeFrom }, DEFAULT_POLICY);
        for (const s of state.units)
          for (const t of state.units) {
            if (s === t) continue;
            const a = assessShot(ctx, s, t);
            const v = shootVerdict(ctx, s, t);
            const w = weaponOf(s);
            // In combat: flagged, or touching an enemy beyond doubt (contacts are tested in
            // support.test.ts; here only whether the early out agrees with them).
            const mayNot =
              s.side === t.side ||
              engagedTouch(ctx, s).tri === 'yes' ||
              engagedTouch(ctx, t).tri === 'yes' ||
              !w ||
              s.formationInUse === 'marchColumn' ||
              (s.type === 'artillery' && s.formationInUse === 'limbered');
            const key = a.settledEarly ?? 'judged in full';
            seenKinds[key] = (seenKinds[key] ?? 0) + 1;
            if (a.settledEarly) {
              expect(v.answer, `${s.id}→${t.id}`).toBe('no');
              expect(v.checks.some((c) => c.question === 'visible')).toBe(false);
            }
            if (a.settledEarly === 'notAllowed') expect(mayNot, `${s.id}→${t.id}`).toBe(true);
            if (mayNot) expect(a.settledEarly, `${s.id}→${t.id}`).toBe('notAllowed');
            if (mayNot || !w) continue;
            const nearest = nearestApproachIn(s, t);
            if (a.settledEarly === 'outOfRange') {
              // Beyond reach by more than the band's floor, whatever part of the target is seen.
              const gun = s.type === 'artillery' && !!s.barrel && w.kind !== 'smallArms';
              expect(ruleRangeIn(s, t, rangeFrom, gun), `${s.id}→${t.id} ${rangeFrom}`).toBeGreaterThan(
                w.max + 0.25,
              );
              expect(v.value).toBeGreaterThan(w.max);
              expect(v.limit).toBe(w.max);
              expect(v.reasons.join(' ')).toMatch(/within range, seen or not/);
            }
            // Three inches past the reach is past any pose band here: settled on range alone.
            if (nearest > w.max + 3)
              expect(a.settledEarly, `${s.id}→${t.id} ${rangeFrom}`).toBe('outOfRange');
          }
      }
    }
    expect(seenKinds.notAllowed).toBeGreaterThan(100);
    expect(seenKinds.outOfRange).toBeGreaterThan(50);
    expect(seenKinds['judged in full']).toBeGreaterThan(50);
  });

  it('a target within the band beyond the limit is judged in full (too close to call), one beyond it is not', () => {
    const policy = { floor: 0.25, sigmas: 2 };
    const near = table([shooterS(), box('T', -5, 5, 18.1, 19.6, enemy)]);
    const a = assessShot(ctxOf(near, {}, policy), findUnit(near, 'S'), findUnit(near, 'T'));
    expect(a.settledEarly).toBeUndefined();
    expect(shootVerdict(ctxOf(near, {}, policy), findUnit(near, 'S'), findUnit(near, 'T')).answer).toBe(
      'borderline',
    );
    const far = table([shooterS(), box('T', -5, 5, 19, 20.5, enemy)]);
    const v = shootVerdict(ctxOf(far, {}, policy), findUnit(far, 'S'), findUnit(far, 'T'));
    expect(v.answer).toBe('no');
    expect(v.value).toBeCloseTo(19, 6);
    expect(v.checks.map((c) => c.question)).toEqual(['mayShoot', 'validTarget', 'range']);
  });

  it('a friend is not a target, whatever the distance or sight', () => {
    const st = table([shooterS(), box('F', -5, 5, 5, 6.5, { side: 'red' })]);
    const v = shootVerdict(ctxOf(st), findUnit(st, 'S'), findUnit(st, 'F'));
    expect(v.answer).toBe('no');
    expect(v.reasons).toEqual(['F is on the same side']);
    expect(v.checks.map((c) => c.question)).toEqual(['mayShoot', 'validTarget']);
  });
});

describe('Black Powder charges settled before sight', () => {
  it('on random tables: the answer is what every check, sight included, gives', () => {
    let withoutSight = 0;
    let withSight = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const state = randomTable(seed, 14);
      const ctx = bpContext(state, {}, DEFAULT_POLICY);
      for (const c of state.units)
        for (const t of state.units) {
          if (c === t) continue;
          const v = chargeVerdict(ctx, c, t);
          const own = v.checks.filter((x) => x.question !== 'chargeFace');
          if (own.some((x) => x.question === 'visible')) {
            withSight++;
            continue;
          }
          withoutSight++;
          const view = seen(ctx, c.leader, eyeSigma(c), t, { exclude: new Set([c.id, t.id]) });
          const sight = visibleCheck(ctx, view, 'leader', t);
          const all = allOf([own[0] as (typeof own)[number], sight, ...own.slice(1)]);
          expect(v.answer, `${c.id}→${t.id}`).toBe('no');
          expect(all, `${c.id}→${t.id}`).toEqual({ answer: v.answer, lean: v.lean });
        }
    }
    expect(withoutSight).toBeGreaterThan(100);
    expect(withSight).toBeGreaterThan(20);
  });

  it('beyond a full move whatever the ground: only firm noes the full reach gives, and every far enough target', () => {
    let early = 0;
    let weighed = 0;
    for (let seed = 1; seed <= 6; seed++) {
      const state = randomTable(seed, 14);
      for (const rangeFrom of ['leaderBase', 'leaderPoint', 'footprint'] as const) {
        const ctx = bpContext(state, { rangeFrom }, DEFAULT_POLICY);
        for (const c of state.units)
          for (const t of state.units) {
            if (c === t) continue;
            const v = chargeVerdict(ctx, c, t);
            const reach = v.checks.find((x) => x.question === 'reach');
            if (!reach) continue;
            const settled = reach.reasons.some((r) => r.includes('whatever the ground'));
            const nearest = nearestApproachIn(c, t);
            if (settled) {
              early++;
              // Truth apart from the early out: the nearest approach of any part of the two
              // units, and the full reach check with every reading weighed.
              expect(nearest, `${c.id}→${t.id}`).toBeGreaterThan(moveOf(c));
              expect(reach.answer, `${c.id}→${t.id}`).toBe('no');
              expect(reachCheck(ctx, c, t).answer, `${c.id}→${t.id}`).toBe('no');
              expect(v.answer).toBe('no');
            } else {
              weighed++;
              expect(nearest, `${c.id}→${t.id} is 3" beyond a move but weighed in full`).toBeLessThan(
                moveOf(c) + 3,
              );
            }
          }
      }
    }
    expect(early).toBeGreaterThan(300);
    expect(weighed).toBeGreaterThan(30);
  });
});
