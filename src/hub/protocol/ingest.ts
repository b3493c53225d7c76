import { z } from 'zod';

/**
 * What a table sends the hub to replicate its record (`POST /hub/api/ingest`), and what the hub
 * answers. The rows mirror the table's SQLite record (src/record/schema.ts) column for column;
 * `seq` is the row's id in the table's own store. The hub keys every event by table (from the
 * token), battle uid and (kind, seq), so sending a batch again changes nothing: delivery is
 * at-least-once, storage exactly once.
 */

const finite = z.number().finite();
const int = z.number().int().safe();
const seq = z
  .number()
  .int()
  .positive()
  .max(2 ** 31 - 1);
const nullableFinite = finite.nullable();
const text = (max: number) => z.string().max(max);

export const battleMetaSchema = z.strictObject({
  uid: text(100).min(1),
  localId: seq,
  name: text(500),
  scenario: text(500),
  ruleset: text(100),
  rosterJson: text(1_000_000),
  cameraJson: text(100_000).nullable(),
  startedAt: int,
  endedAt: int.nullable(),
  /** sha256 of the fields above, as the table computed it: the hub stores it so the table can tell whether to resend. */
  digest: z.string().regex(/^[0-9a-f]{64}$/),
});
export type BattleMeta = z.infer<typeof battleMetaSchema>;

export const moveRowSchema = z.strictObject({
  seq,
  t: int,
  markerId: int,
  unitId: text(200),
  x: finite,
  y: finite,
  headingDeg: finite,
  sigmaMm: finite,
  sigmaHeadingDeg: finite,
  fromX: nullableFinite,
  fromY: nullableFinite,
  fromHeadingDeg: nullableFinite,
  movingSince: int,
});
export const keyframeRowSchema = z.strictObject({ seq, t: int, posesJson: text(2_000_000) });
export const markRowSchema = z.strictObject({
  seq,
  t: int,
  kind: z.enum(['turn', 'phase']),
  turn: int.nullable(),
  phase: text(200).nullable(),
  side: text(200).nullable(),
  source: z.enum(['player', 'inferred']),
  label: text(500),
});
export const rulingRowSchema = z.strictObject({
  seq,
  t: int,
  ruleset: text(100),
  question: text(200),
  asked: text(2000),
  answer: text(20),
  inputsJson: text(1_000_000),
  verdictJson: text(1_000_000),
});
export const annotationRowSchema = z.strictObject({
  seq,
  t: int,
  text: text(5000),
  x: nullableFinite,
  y: nullableFinite,
  author: text(200).nullable(),
});
export const snapshotRowSchema = z.strictObject({
  seq,
  t: int,
  width: int,
  height: int,
  poseJson: text(100_000).nullable(),
  /** The JPEG, base64. */
  jpeg: z
    .string()
    .max(8_000_000)
    .regex(/^[A-Za-z0-9+/]*={0,2}$/),
});

export const EVENT_KINDS = ['moves', 'keyframes', 'marks', 'rulings', 'annotations', 'snapshots'] as const;
export type EventKind = (typeof EVENT_KINDS)[number];

export const ingestBatchSchema = z.strictObject({
  battle: battleMetaSchema,
  moves: z.array(moveRowSchema).max(5000).default([]),
  keyframes: z.array(keyframeRowSchema).max(1000).default([]),
  marks: z.array(markRowSchema).max(1000).default([]),
  rulings: z.array(rulingRowSchema).max(1000).default([]),
  annotations: z.array(annotationRowSchema).max(1000).default([]),
  snapshots: z.array(snapshotRowSchema).max(200).default([]),
});
export type IngestBatch = z.input<typeof ingestBatchSchema>;
export type ParsedIngestBatch = z.output<typeof ingestBatchSchema>;
export type MoveRow = z.infer<typeof moveRowSchema>;
export type KeyframeRow = z.infer<typeof keyframeRowSchema>;
export type MarkRow = z.infer<typeof markRowSchema>;
export type RulingRow = z.infer<typeof rulingRowSchema>;
export type AnnotationRow = z.infer<typeof annotationRowSchema>;
export type SnapshotRow = z.infer<typeof snapshotRowSchema>;

export type KindCounts = Record<EventKind, number>;

export interface IngestResult {
  /** The battle's number on the hub. */
  readonly battleId: number;
  /** Rows stored by this request, per kind. */
  readonly inserted: KindCounts;
  /** Rows the hub had already (a resend), per kind. */
  readonly duplicates: KindCounts;
}

/** `GET /hub/api/ingest/state`: what the hub holds of this table's battles. */
export interface IngestState {
  readonly table: string;
  readonly battles: ReadonlyArray<{
    readonly uid: string;
    readonly digest: string;
    /** The highest seq the hub holds, per kind (0: none). */
    readonly highWater: KindCounts;
  }>;
}

export function zeroCounts(): KindCounts {
  return { moves: 0, keyframes: 0, marks: 0, rulings: 0, annotations: 0, snapshots: 0 };
}
