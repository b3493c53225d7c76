import type { ClientMessage } from '../../../src/server/protocol.ts';

/**
 * What the user has picked: up to two units. Picking a second unit asks the server for the
 * distance; picking a third starts over from it; picking a selected unit again drops it; picking
 * empty table clears everything. Pure: each step returns the new selection and the message (if
 * any) to send to the server.
 */

export type Selection = readonly string[];

export interface SelectionStep {
  readonly selection: Selection;
  readonly send: ClientMessage | null;
}

export const emptySelection: Selection = [];

export function pick(selection: Selection, unitId: string | null): SelectionStep {
  const measuring = selection.length === 2;
  const clear: ClientMessage | null = measuring ? { type: 'clearMeasure' } : null;
  if (unitId === null) return { selection: emptySelection, send: clear };
  if (selection.includes(unitId)) return { selection: selection.filter((id) => id !== unitId), send: clear };
  const [first] = selection;
  if (selection.length === 1 && first !== undefined) {
    return { selection: [first, unitId], send: { type: 'measure', a: first, b: unitId } };
  }
  return { selection: [unitId], send: clear };
}

/** The message that restores the server's side of a selection (e.g. after a reconnect). */
export function resendFor(selection: Selection): ClientMessage | null {
  const [a, b] = selection;
  return a !== undefined && b !== undefined ? { type: 'measure', a, b } : null;
}
