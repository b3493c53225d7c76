import { contactInterval, faceLength, FACE_NAMES, type FaceName } from '../../geometry/face-contact.ts';
import type { TableUnit } from '../../table/table-unit.ts';
import type { Verdict } from '../engine/verdict.ts';
import { chargeFaceVerdict, coveredLength } from './charge.ts';
import { BP, bpVerdict, inches, inStr, mmOf, thresholdVerdict, type BpContext, poss } from './context.ts';
import { quarterBox } from './quarters.ts';
import { hypot } from '../../geometry/hypot.ts';

/** Another unit touching one face of a unit, found from the measured footprints. */
export interface Contact {
  readonly unit: TableUnit;
  readonly face: FaceName;
  /** Stretches of the face it touches, mm from the face's start (left end seen from outside). */
  readonly intervals: ReadonlyArray<readonly [number, number]>;
  /** Total length of the face it touches, mm (overlaps counted once). */
  readonly length: number;
}

/**
 * Every unit touching each face of `unit` (its quarter box: the gun model for deployed guns),
 * within the contactToleranceIn option. A unit touching two faces (round a corner) is listed once
 * per face. `minStretchMm`: the least length along a face that counts as touching it (see
 * contactInterval; the uncertainty model asks a band either side).
 */
export function contactsOf(
  ctx: BpContext,
  unit: TableUnit,
  among: readonly TableUnit[] = ctx.state.units,
  minStretchMm?: number,
): Contact[] {
  const box = quarterBox(ctx, unit);
  const tol = mmOf(ctx.options.contactToleranceIn);
  const pad = tol + 1;
  const out: Contact[] = [];
  for (const other of among) {
    if (other.id === unit.id) continue;
    const b = other.bounds;
    const u = unit.bounds;
    if (b.minX > u.maxX + pad || u.minX > b.maxX + pad || b.minY > u.maxY + pad || u.minY > b.maxY + pad)
      continue;
    for (const face of FACE_NAMES) {
      const intervals = other.bases.flatMap((base) => {
        const iv = contactInterval(box, face, base.polygon, tol, minStretchMm);
        return iv ? [iv] : [];
      });
      if (intervals.length > 0)
        out.push({ unit: other, face, intervals, length: coveredLength(faceLength(box, face), intervals) });
    }
  }
  return out;
}

/** Faces of `unit` touched by an enemy (what it is engaged on, for retiring and support). */
export function engagedFaces(ctx: BpContext, unit: TableUnit): FaceName[] {
  const faces = new Set(
    contactsOf(
      ctx,
      unit,
      ctx.state.units.filter((u) => u.side !== unit.side),
    ).map((c) => c.face),
  );
  return FACE_NAMES.filter((f) => faces.has(f));
}

/** The longest stretch of [0, length] not covered by the intervals. */
function longestFreeRun(length: number, covered: ReadonlyArray<readonly [number, number]>): number {
  const sorted = [...covered]
    .map(([a, b]) => [Math.max(0, Math.min(a, b)), Math.min(length, Math.max(a, b))] as const)
    .sort((p, q) => p[0] - q[0]);
  let best = 0;
  let at = 0;
  for (const [a, b] of sorted) {
    if (a > at) best = Math.max(best, a - at);
    at = Math.max(at, b);
  }
  return Math.max(best, length - at);
}

/**
 * A second charger on a face already engaged: at least half the face must still be open, and at
 * least half the charger's frontage must be able to touch it. The face is the one the charge
 * strikes (chargeFaceVerdict); the units already on it and the open stretches are found on the
 * table. A charger already in contact is judged on the length it touches; one not yet there on
 * the longest open stretch (capped at its frontage).
 */
export function secondChargerVerdict(ctx: BpContext, charger: TableUnit, target: TableUnit): Verdict {
  const faceV = chargeFaceVerdict(ctx, charger, target);
  const face = faceV.facts.face as FaceName;
  const box = quarterBox(ctx, target);
  const len = faceLength(box, face);
  const all = contactsOf(ctx, target).filter((c) => c.face === face && c.unit.side !== target.side);
  const others = all.filter((c) => c.unit.id !== charger.id);
  const mine = all.find((c) => c.unit.id === charger.id);
  const asked = `may ${charger.name} charge ${poss(target.name)} ${face} as a second charger?`;
  const sigma = inches(hypot(charger.sigmaMm, target.sigmaMm));
  if (others.length === 0)
    return bpVerdict({
      question: 'secondCharger',
      asked,
      answer: 'yes',
      reasons: [
        `no other enemy touches ${poss(target.name)} ${face}: the second-charger rule does not apply`,
      ],
      facts: { face, otherChargers: '' },
      checks: [faceV],
    });
  const taken = others.flatMap((c) => c.intervals);
  const free = len - coveredLength(len, taken);
  // In place: the part of its contact not shared with the others; else the longest open stretch.
  const contact = mine
    ? coveredLength(len, [...mine.intervals, ...taken]) - coveredLength(len, taken)
    : Math.min(charger.frontage, longestFreeRun(len, taken));
  const checks = [
    thresholdVerdict(
      ctx,
      {
        question: 'faceOpen',
        asked: `is at least half of ${poss(target.name)} ${face} still open?`,
        reasons: [
          `${inStr(free)} of the ${inStr(len)} ${face} is open (${others.map((c) => `${c.unit.name} covers ${inStr(c.length)}`).join(', ')})`,
        ],
      },
      BP.length(inches(free), sigma),
      'atLeast',
      inches(len / 2),
    ),
    thresholdVerdict(
      ctx,
      {
        question: 'chargerContact',
        asked: `can at least half of ${poss(charger.name)} frontage make contact?`,
        reasons: [
          `${inStr(contact)} of ${poss(charger.name)} ${inStr(charger.frontage)} frontage ${mine ? 'touches' : 'can touch'} the open part of the face`,
        ],
      },
      BP.length(inches(contact), sigma),
      'atLeast',
      inches(charger.frontage / 2),
    ),
  ];
  const no = checks.some((c) => c.answer === 'no');
  const borderline = checks.some((c) => c.answer === 'borderline');
  return bpVerdict({
    question: 'secondCharger',
    asked,
    answer: no ? 'no' : borderline ? 'borderline' : 'yes',
    lean: checks.some((c) => c.lean === 'no') ? 'no' : 'yes',
    reasons: checks.flatMap((c) => c.reasons),
    options: { contactToleranceIn: ctx.options.contactToleranceIn },
    facts: {
      face,
      free: inches(free),
      contact: inches(contact),
      otherChargers: others.map((c) => c.unit.name).join(', '),
    },
    checks: [faceV, ...checks],
  });
}

/**
 * An enemy unit touched by a charge alongside its target is engaged only if at least half of its
 * touched face is covered by the charger; otherwise it is moved back about 1" (and may still
 * support). The face is whichever of its faces the charger covers most.
 */
export function adjacentEngagedVerdict(ctx: BpContext, charger: TableUnit, adjacent: TableUnit): Verdict {
  const asked = `is ${adjacent.name} engaged by ${poss(charger.name)} charge?`;
  const box = quarterBox(ctx, adjacent);
  const touching = contactsOf(ctx, adjacent, [charger]);
  if (touching.length === 0)
    return bpVerdict({
      question: 'adjacentEngaged',
      asked,
      answer: 'no',
      reasons: [`${charger.name} does not touch ${adjacent.name}`],
      options: { contactToleranceIn: ctx.options.contactToleranceIn },
    });
  const c = touching.reduce((a, b) =>
    b.length / faceLength(box, b.face) > a.length / faceLength(box, a.face) ? b : a,
  );
  const len = faceLength(box, c.face);
  const r = BP.judge(
    ctx,
    BP.length(inches(c.length), inches(hypot(charger.sigmaMm, adjacent.sigmaMm))),
    'atLeast',
    inches(len / 2),
  );
  return thresholdVerdict(
    ctx,
    {
      question: 'adjacentEngaged',
      asked,
      reasons: [
        `${charger.name} covers ${inStr(c.length)} of ${poss(adjacent.name)} ${inStr(len)} ${c.face}`,
        r.lean === 'yes'
          ? `${adjacent.name} is engaged`
          : `${adjacent.name} is not engaged: move it back about 1" (it may still support)`,
      ],
      options: { contactToleranceIn: ctx.options.contactToleranceIn },
      facts: { face: c.face },
    },
    BP.length(inches(c.length), inches(hypot(charger.sigmaMm, adjacent.sigmaMm))),
    'atLeast',
    inches(len / 2),
  );
}
