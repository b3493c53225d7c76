import type { CameraProfile } from '../camera/profile.ts';
import type { TablePose } from '../camera/table-pose.ts';
import type { Verdict } from '../rules/engine/verdict.ts';

/**
 * What a recorded battle is made of. Pure types (no I/O): the store, the REST routes, the
 * exports and the replay page all speak these. Times are epoch milliseconds (the capture time of
 * the frame that produced the event); lengths are table millimetres; headings CCW degrees, 0 = +y.
 */

/** The units of a battle as the replay needs them (from the scenario, lengths in mm). */
export interface BattleRoster {
  readonly scenario: string;
  readonly ruleset: string;
  readonly table: { readonly widthMm: number; readonly depthMm: number };
  readonly sides: ReadonlyArray<{ readonly id: string; readonly name: string; readonly colour: string }>;
  readonly units: ReadonlyArray<{
    readonly id: string;
    readonly name: string;
    readonly side: string;
    readonly type: string;
    readonly bases: ReadonlyArray<{
      readonly markerId: number;
      readonly widthMm: number;
      readonly depthMm: number;
      /** Height of the base top (its marker) above the table, mm. */
      readonly topMm: number;
    }>;
  }>;
}

/** One base's pose. */
export interface RecordedPose {
  readonly markerId: number;
  readonly x: number;
  readonly y: number;
  readonly headingDeg: number;
  readonly sigmaMm: number;
  readonly sigmaHeadingDeg: number;
}

/** A base came to rest somewhere new. */
export interface MoveRecord extends RecordedPose {
  readonly id?: number;
  readonly t: number;
  readonly unitId: string;
  /** Where it had last settled (null for its first appearance). */
  readonly from: { readonly x: number; readonly y: number; readonly headingDeg: number } | null;
  /** When it was first seen to leave its previous pose. */
  readonly movingSince: number;
}

/** Every base's settled pose at time t. */
export interface KeyframeRecord {
  readonly t: number;
  readonly poses: readonly RecordedPose[];
}

export type MarkKind = 'turn' | 'phase';
export type MarkSource = 'player' | 'inferred';

export interface MarkRecord {
  readonly id?: number;
  readonly t: number;
  readonly kind: MarkKind;
  /** Turn number (turn marks; phase marks carry the turn they belong to when known). */
  readonly turn: number | null;
  readonly phase: string | null;
  readonly side: string | null;
  readonly source: MarkSource;
  readonly label: string;
}

export interface RulingInputs {
  /** The question as asked (text, or the two units of a measurement). */
  readonly question: string;
  readonly options?: Readonly<Record<string, string | number | boolean>>;
  /** The poses the answer was computed from. */
  readonly poses: readonly RecordedPose[];
}

export interface RulingRecord {
  readonly id?: number;
  readonly t: number;
  readonly inputs: RulingInputs;
  readonly verdict: Verdict;
}

export interface AnnotationRecord {
  readonly id?: number;
  readonly t: number;
  readonly text: string;
  /** Where on the table the note points (mm), if anywhere. */
  readonly at: { readonly x: number; readonly y: number } | null;
  readonly author: string | null;
}

/** A small picture of the table kept at a settle point. */
export interface SnapshotInfo {
  readonly id: number;
  readonly t: number;
  readonly width: number;
  readonly height: number;
  /** The table pose of that frame (null when unknown), for drawing overlays on the picture. */
  readonly pose: TablePose | null;
}

export interface BattleSummary {
  readonly id: number;
  readonly uid: string;
  readonly name: string;
  readonly scenario: string;
  readonly ruleset: string;
  readonly startedAt: number;
  readonly endedAt: number | null;
  /** Time of the last recorded event (a crash leaves endedAt null; this says how far it got). */
  readonly lastEventAt: number;
  readonly moves: number;
  readonly rulings: number;
  readonly turns: number;
  readonly importedFrom: string | null;
}

export interface BattleDetail extends BattleSummary {
  readonly roster: BattleRoster;
  readonly camera: CameraProfile | null;
}

/** Everything the replay page needs except pictures, in one answer. */
export interface ReplayData {
  readonly battle: BattleDetail;
  /** The state at the start (the first keyframe), then every move in time order. */
  readonly initial: KeyframeRecord;
  readonly moves: readonly MoveRecord[];
  readonly marks: readonly MarkRecord[];
  readonly rulings: readonly RulingRecord[];
  readonly annotations: readonly AnnotationRecord[];
  readonly snapshots: readonly SnapshotInfo[];
}

/** Seek answer: the settled pose of every base at t. */
export interface SeekResult {
  readonly t: number;
  readonly keyframeAt: number | null;
  readonly movesApplied: number;
  readonly poses: readonly RecordedPose[];
}
