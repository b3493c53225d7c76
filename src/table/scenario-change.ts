import type { Scenario, TerrainSpec } from './scenario.ts';

/**
 * What changed between two versions of the scenario being watched. A change that only touches
 * what the camera does not look at (terrain, names, description, ruleset) keeps the camera, the
 * vision worker and the battle being recorded; anything the vision pipeline reads (the table,
 * reference markers, the marker family, which marker is on which base and where the file puts
 * the bases) needs them rebuilt.
 */

/** The part of a scenario the vision pipeline and the cameras depend on. */
function visionKey(s: Scenario): string {
  return JSON.stringify({
    table: s.table,
    referenceMarkers: s.referenceMarkers,
    dictionary: s.markerDictionary,
    board: s.board ?? null,
    units: s.units.map((u) => ({
      id: u.id,
      bases: u.bases.map((b) => ({ w: b.widthMm, d: b.depthMm, marker: b.marker, pose: b.pose ?? null })),
    })),
  });
}

export function sameForVision(a: Scenario, b: Scenario): boolean {
  return visionKey(a) === visionKey(b);
}

function centroid(t: TerrainSpec): { x: number; y: number } | null {
  const pts = t.polygon ?? t.line ?? [];
  if (pts.length === 0) return null;
  return {
    x: pts.reduce((s, p) => s + p.x, 0) / pts.length,
    y: pts.reduce((s, p) => s + p.y, 0) / pts.length,
  };
}

const label = (t: TerrainSpec) => (t.name ? `${t.name} (${t.kind})` : `a ${t.kind}`);

/** Terrain added, changed or removed, in words, with where on the table (mm). */
export function terrainChanges(
  before: Scenario,
  after: Scenario,
): Array<{ text: string; at: { x: number; y: number } | null }> {
  const was = new Map((before.terrain ?? []).map((t) => [t.id, t]));
  const now = new Map((after.terrain ?? []).map((t) => [t.id, t]));
  const out: Array<{ text: string; at: { x: number; y: number } | null }> = [];
  for (const [id, t] of now) {
    const old = was.get(id);
    if (!old) out.push({ text: `Terrain added: ${label(t)}`, at: centroid(t) });
    else if (JSON.stringify(old) !== JSON.stringify(t))
      out.push({ text: `Terrain changed: ${label(t)}`, at: centroid(t) });
  }
  for (const [id, t] of was)
    if (!now.has(id)) out.push({ text: `Terrain removed: ${label(t)}`, at: centroid(t) });
  return out;
}
