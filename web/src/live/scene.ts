import { answerMatches, distanceWithheld, verdictDistance } from '../core/answer.ts';
import { buildOverlay, type OverlayModel } from '../core/overlay-model.ts';
import { projectShapes, type ProjectedShape } from '../core/shape-projection.ts';
import { buildTableOverlays, type TableShape } from '../core/table-overlays.ts';
import { tableReachShapes, threatShapes } from '../core/threats.ts';
import { currentState, type LiveState } from './state.ts';

/**
 * What the two views draw, derived from the live state and kept until something changes: the
 * overlay model of the frame on screen (image pixels) and the referee's shapes (table mm, and
 * projected into the picture). One distance line at a time: while the referee's answer draws its
 * own distance, or withholds it, the plain edge-to-edge line is not drawn over it.
 */
export class Scene {
  private model: OverlayModel | null = null;
  private table: TableShape[] = [];
  private live: ProjectedShape[] = [];
  private dirty = true;

  constructor(private readonly state: LiveState) {}

  invalidate(): void {
    this.dirty = true;
  }

  private update(): void {
    if (!this.dirty) return;
    this.dirty = false;
    const s = this.state;
    const answer = s.answerStale ? null : s.answer;
    this.model = s.shown ? buildOverlay(s.shown.state, s.selection, { unit: s.unit }) : null;
    if (
      this.model?.measurement &&
      (distanceWithheld(s.answer, s.selection) || verdictDistance(answer, s.selection))
    )
      this.model = { ...this.model, measurement: null };
    const state = currentState(s);
    this.table = state
      ? buildTableOverlays({
          state,
          scenario: s.scenario,
          selection: s.selection,
          answer: s.answer,
          answerStale: s.answerStale,
          toggles: s.toggles,
          zone: s.zone,
          rulesetNames: s.rulesetNames,
          threats: s.threats.on
            ? [
                ...tableReachShapes(s.threats.table, state),
                ...threatShapes(s.threats.view, state, s.threats.mode),
              ]
            : [],
        })
      : [];
    this.live = state?.pose ? projectShapes(state.camera, state.pose, this.table) : [];
  }

  get overlay(): OverlayModel | null {
    this.update();
    return this.model;
  }

  get tableShapes(): TableShape[] {
    this.update();
    return this.table;
  }

  get liveShapes(): ProjectedShape[] {
    this.update();
    return this.live;
  }

  /** The answer on screen is about the units picked now. */
  get answerShown(): boolean {
    return answerMatches(this.state.answer, this.state.selection) && !this.state.answerStale;
  }
}
