import type { Scenario } from '../../../src/table/scenario.ts';
import { buildTableState, type BasePose, type TableState } from '../../../src/table/table-state.ts';

/** One-sigma pose errors of every base, by marker id. */
export type Sigmas = ReadonlyMap<number, { readonly mm: number; readonly deg: number }>;

/** The poses written in the scenario, each with its sigma: what the camera reported. */
export function reportedPoses(scenario: Scenario, sigmas: Sigmas): Map<number, BasePose> {
  const poses = new Map<number, BasePose>();
  for (const u of scenario.units)
    for (const b of u.bases) {
      if (!b.pose) continue;
      const s = sigmas.get(b.marker.id) ?? { mm: 0, deg: 0 };
      poses.set(b.marker.id, { ...b.pose, sigmaMm: s.mm, sigmaHeadingDeg: s.deg });
    }
  return poses;
}

/**
 * The same table with every base moved by at most its reported sigma: the centre anywhere in
 * the disc of radius sigma, the heading anywhere within ± sigma. The reported sigmas are kept, so
 * the perturbed table is one the camera could equally have reported.
 */
export function perturbedPoses(
  reported: ReadonlyMap<number, BasePose>,
  r: () => number,
): Map<number, BasePose> {
  const out = new Map<number, BasePose>();
  for (const [id, p] of reported) {
    const a = r() * 2 * Math.PI;
    const rad = p.sigmaMm * Math.sqrt(r());
    out.set(id, {
      ...p,
      x: p.x + Math.cos(a) * rad,
      y: p.y + Math.sin(a) * rad,
      headingDeg: p.headingDeg + (2 * r() - 1) * p.sigmaHeadingDeg,
    });
  }
  return out;
}

export const tableOf = (scenario: Scenario, poses: ReadonlyMap<number, BasePose>): TableState =>
  buildTableState(scenario, poses, { fallBackToFilePoses: false });
