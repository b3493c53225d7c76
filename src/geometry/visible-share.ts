import { regionArea } from './boolean.ts';
import { boxOfAll } from './box.ts';
import type { Polygon } from './polygon.ts';
import type { Vec2 } from './vec.ts';
import {
  cutToBox,
  hiddenRegions,
  seenOutside,
  shareSeen,
  sightWindow,
  type SightScreen,
} from './visible-region.ts';

/**
 * `visibleRegion(eye, target, screens).share`, computed the same way to the last bit but without
 * what only the region's other fields need: each hider's own share (a boolean per hider), the
 * seen pieces and their nearest point. Probes that move the eye read the share alone, from an eye
 * that is new every time (sight-eye.ts).
 */
export function visibleShare(eye: Vec2, target: readonly Polygon[], screens: readonly SightScreen[]): number {
  const tb = boxOfAll(target);
  const { hidden, blind } = hiddenRegions(eye, screens, sightWindow(eye, tb, 1), tb);
  if (blind) return 0;
  const targetArea = regionArea(target);
  const all: Polygon[] = [];
  for (const h of hidden) for (const p of cutToBox(h.polygons, tb, h.facts)) all.push(p);
  if (all.length === 0 || targetArea === 0) return targetArea === 0 ? 0 : 1;
  return shareSeen(seenOutside(target, all, false).area, targetArea);
}
