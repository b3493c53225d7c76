/**
 * What else lies on a wargames table besides marked bases: bases without markers (dark outlines),
 * dice, rulers, printed cards and labels, and the players' hands reaching over the table. Plain
 * data (JSON-friendly, it crosses worker boundaries and goes into truth files); props.ts turns
 * it into shapes the ray caster draws, and clutter-layout.ts scatters it, seeded.
 *
 * Positions are table millimetres; headings degrees counter-clockwise, 0 = the item's front
 * facing table +y (as base poses). Colours are #rrggbb.
 */

interface Placed {
  /** Centre on the table (for a hand: the middle of the palm, seen from above). */
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
}

/** A base with no marker: a painted box, optionally a dark rim round a flocked top (an outline). */
export interface BareBaseItem extends Placed {
  readonly kind: 'base';
  readonly widthMm: number;
  readonly depthMm: number;
  readonly heightMm: number;
  readonly colour: string;
  /** A rim of `colour` this wide round a top of `topColour`; absent: one colour all over. */
  readonly rim?: { readonly widthMm: number; readonly topColour: string };
}

/** A die lying on the table, `top` pips up (opposite faces sum to seven). */
export interface DieItem extends Placed {
  readonly kind: 'die';
  readonly sizeMm: number;
  readonly colour: string;
  readonly pipColour: string;
  readonly top: 1 | 2 | 3 | 4 | 5 | 6;
}

/** A ruler or measuring stick: ticks along its front edge and a number at every inch or centimetre. */
export interface RulerItem extends Placed {
  readonly kind: 'ruler';
  /** Along the ruler (its local x). */
  readonly lengthMm: number;
  readonly widthMm: number;
  readonly heightMm: number;
  readonly colour: string;
  readonly inkColour: string;
  readonly units: 'in' | 'cm';
}

/** A printed card lying flat: a unit label, a rules card (text, optional border and printed table). */
export interface CardItem extends Placed {
  readonly kind: 'card';
  readonly widthMm: number;
  readonly depthMm: number;
  readonly colour: string;
  readonly inkColour: string;
  readonly lines: readonly string[];
  /** Letter height, mm. */
  readonly textMm: number;
  /** A printed frame round the card's edge. */
  readonly border?: boolean;
  /** A printed table (rows × columns of ruled boxes) below the text. */
  readonly grid?: { readonly rows: number; readonly columns: number };
}

/** A hand held over the table, fingers toward `headingDeg`, the arm running back to the player. */
export interface HandItem extends Placed {
  readonly kind: 'hand';
  /** Height of the palm's middle above the table, mm. */
  readonly heightMm: number;
  /** Fingertips hang this far below the palm's middle, mm (0 = flat hand). */
  readonly curlMm: number;
  /** Size relative to an adult hand (palm ≈ 95 mm long). */
  readonly scale: number;
  /** The forearm rises toward the player at this angle, degrees. */
  readonly armRiseDeg: number;
  /** Length of the arm from the wrist, mm (default 320 × scale); long enough to leave the table. */
  readonly armLengthMm?: number;
  readonly skin: string;
  readonly sleeve: string;
}

export type ClutterItem = BareBaseItem | DieItem | RulerItem | CardItem | HandItem;
export type ClutterKind = ClutterItem['kind'];
export const CLUTTER_KINDS: readonly ClutterKind[] = ['base', 'die', 'ruler', 'card', 'hand'];

export type Rgb = readonly [number, number, number];

/** #rrggbb (or #rgb) → RGB; anything else is an error naming `what`. */
export function colourOf(text: string, what: string): Rgb {
  const hex = /^#([0-9a-f]{6}|[0-9a-f]{3})$/i.exec(text.trim());
  if (!hex?.[1]) throw new Error(`${what}: colour must be #rrggbb, got "${text}"`);
  const h = hex[1].length === 3 ? [...hex[1]].map((c) => c + c).join('') : hex[1];
  return [parseInt(h.slice(0, 2), 16), parseInt(h.slice(2, 4), 16), parseInt(h.slice(4, 6), 16)];
}

/** Throws a clear error for an item that cannot be drawn (non-finite or non-positive sizes). */
export function checkClutterItem(item: ClutterItem, index: number): void {
  const what = `clutter item ${index} (${item.kind})`;
  const finite = (name: string, v: number) => {
    if (!Number.isFinite(v)) throw new Error(`${what}: ${name} must be a finite number, got ${v}`);
  };
  const positive = (name: string, v: number) => {
    finite(name, v);
    if (v <= 0) throw new Error(`${what}: ${name} must be > 0, got ${v}`);
  };
  finite('x', item.x);
  finite('y', item.y);
  finite('headingDeg', item.headingDeg);
  switch (item.kind) {
    case 'base':
      positive('widthMm', item.widthMm);
      positive('depthMm', item.depthMm);
      positive('heightMm', item.heightMm);
      if (item.rim) positive('rim.widthMm', item.rim.widthMm);
      break;
    case 'die':
      positive('sizeMm', item.sizeMm);
      if (![1, 2, 3, 4, 5, 6].includes(item.top))
        throw new Error(`${what}: top must be 1–6, got ${item.top}`);
      break;
    case 'ruler':
      positive('lengthMm', item.lengthMm);
      positive('widthMm', item.widthMm);
      positive('heightMm', item.heightMm);
      break;
    case 'card':
      positive('widthMm', item.widthMm);
      positive('depthMm', item.depthMm);
      positive('textMm', item.textMm);
      if (item.grid && !(item.grid.rows >= 1 && item.grid.columns >= 1))
        throw new Error(`${what}: grid needs at least one row and column`);
      break;
    case 'hand':
      positive('heightMm', item.heightMm);
      positive('scale', item.scale);
      finite('curlMm', item.curlMm);
      finite('armRiseDeg', item.armRiseDeg);
      if (item.armLengthMm !== undefined) positive('armLengthMm', item.armLengthMm);
      break;
  }
}
