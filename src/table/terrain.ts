import { boxOf, type Box } from '../geometry/box.ts';
import type { Polygon } from '../geometry/polygon.ts';
import type { Vec2 } from '../geometry/vec.ts';
import type { TerrainKind, TerrainSpec } from './scenario.ts';

/**
 * Rules-neutral properties of a terrain kind. Rulesets read these and decide what they mean
 * (how much a wood slows whom is a ruleset matter; that a wood hides what is behind it is not).
 */
export interface TerrainProperties {
  /** Sight lines cannot pass through it (woods, buildings); hills block by height instead. */
  readonly blocksSight: boolean;
  readonly cover: 'none' | 'light' | 'heavy';
  /** Only troops in skirmish order may enter (woods by default). */
  readonly skirmishOnly: boolean;
  readonly cavalryProof: boolean;
  /** Nobody may enter (open water, cliffs). */
  readonly impassable: boolean;
}

const DEFAULTS: Record<TerrainKind, TerrainProperties> = {
  wood: { blocksSight: true, cover: 'light', skirmishOnly: true, cavalryProof: true, impassable: false },
  rough: { blocksSight: false, cover: 'none', skirmishOnly: false, cavalryProof: false, impassable: false },
  veryRough: {
    blocksSight: false,
    cover: 'none',
    skirmishOnly: false,
    cavalryProof: false,
    impassable: false,
  },
  extremelyRough: {
    blocksSight: false,
    cover: 'none',
    skirmishOnly: false,
    cavalryProof: false,
    impassable: false,
  },
  obstacle: {
    blocksSight: false,
    cover: 'light',
    skirmishOnly: false,
    cavalryProof: false,
    impassable: false,
  },
  building: { blocksSight: true, cover: 'heavy', skirmishOnly: false, cavalryProof: true, impassable: false },
  hill: { blocksSight: false, cover: 'none', skirmishOnly: false, cavalryProof: false, impassable: false },
  water: { blocksSight: false, cover: 'none', skirmishOnly: false, cavalryProof: true, impassable: true },
  road: { blocksSight: false, cover: 'none', skirmishOnly: false, cavalryProof: false, impassable: false },
};

export interface TerrainPiece extends TerrainProperties {
  readonly id: string;
  /** Name for a player: the given name, else "<kind> <id>". */
  readonly label: string;
  readonly kind: TerrainKind;
  /** Area pieces: outline. Linear pieces: a thin outline around the line (width, default 10 mm). */
  readonly polygon?: Polygon;
  /** Linear pieces: the course. */
  readonly line?: readonly Vec2[];
  readonly heightMm: number;
  readonly widthMm: number;
  readonly box: Box;
}

const KIND_WORDS: Record<TerrainKind, string> = {
  wood: 'wood',
  rough: 'rough ground',
  veryRough: 'very rough ground',
  extremelyRough: 'extremely rough ground',
  obstacle: 'obstacle',
  building: 'building',
  hill: 'hill',
  water: 'water',
  road: 'road',
};

/** Outline of a polyline widened to `width` (a rectangle per segment, joined). */
function thicken(line: readonly Vec2[], width: number): Polygon {
  const half = width / 2;
  const left: Vec2[] = [];
  const right: Vec2[] = [];
  for (let i = 0; i < line.length; i++) {
    const prev = line[Math.max(0, i - 1)] as Vec2;
    const next = line[Math.min(line.length - 1, i + 1)] as Vec2;
    const dx = next.x - prev.x;
    const dy = next.y - prev.y;
    const len = Math.hypot(dx, dy) || 1;
    const n = { x: -dy / len, y: dx / len };
    const p = line[i] as Vec2;
    left.push({ x: p.x + n.x * half, y: p.y + n.y * half });
    right.push({ x: p.x - n.x * half, y: p.y - n.y * half });
  }
  return [...right, ...left.reverse()];
}

export function terrainPiece(spec: TerrainSpec): TerrainPiece {
  const d = DEFAULTS[spec.kind];
  const widthMm = spec.widthMm ?? (spec.kind === 'road' ? 50 : 10);
  const line = spec.line?.map((p) => ({ x: p.x, y: p.y }));
  const polygon = spec.polygon
    ? spec.polygon.map((p) => ({ x: p.x, y: p.y }))
    : line
      ? thicken(line, widthMm)
      : undefined;
  return {
    id: spec.id,
    label: spec.name ? `${spec.name}` : `${KIND_WORDS[spec.kind]} ${spec.id}`,
    kind: spec.kind,
    ...(polygon ? { polygon } : {}),
    ...(line ? { line } : {}),
    heightMm: spec.heightMm ?? 0,
    widthMm,
    box: boxOf(polygon ?? line ?? []),
    blocksSight: spec.blocksSight ?? d.blocksSight,
    cover: spec.cover ?? d.cover,
    skirmishOnly: spec.skirmishOnly ?? d.skirmishOnly,
    cavalryProof: spec.cavalryProof ?? d.cavalryProof,
    impassable: spec.impassable ?? d.impassable,
  };
}

export const terrainKindWords = (kind: TerrainKind): string => KIND_WORDS[kind];
