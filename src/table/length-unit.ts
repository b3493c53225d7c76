/** Lengths inside Vedette are millimetres; files and rules may speak inches or centimetres. */
export type LengthUnit = 'mm' | 'cm' | 'in';

export const MM_PER_INCH = 25.4;
const MM_PER: Record<LengthUnit, number> = { mm: 1, cm: 10, in: MM_PER_INCH };

export const toMm = (value: number, unit: LengthUnit): number => value * MM_PER[unit];
export const fromMm = (mm: number, unit: LengthUnit): number => mm / MM_PER[unit];
