import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { frameTable, syntheticCameraProfile } from '../../src/synth/camera.ts';
import { renderScene, type SynthFrame } from '../../src/synth/render.ts';
import type { PoseOverrides } from '../../src/synth/scene.ts';
import { distanceBetween, measuredUnits } from '../../src/table/measured-units.ts';
import { parseScenarioText, type Scenario } from '../../src/table/scenario.ts';
import { VisionPipeline, type PipelineResult } from '../../src/vision/pipeline.ts';
import { unitGap } from '../support/truth-distance.ts';

const MM_PER_IN = 25.4;
const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));

/** Moves each unit rigidly (shift + turn about its middle), seeded, so scenes differ but stay apart. */
function shuffledPoses(s: Scenario, seed: number): PoseOverrides {
  let state = seed * 2654435761;
  const rand = () => {
    state = (state * 1664525 + 1013904223) % 4294967296;
    return state / 4294967296 - 0.5;
  };
  const poses: Record<number, { x: number; y: number; headingDeg: number }> = {};
  for (const unit of s.units) {
    const placed = unit.bases.map((b) => b.pose!);
    const cx = placed.reduce((t, p) => t + p.x, 0) / placed.length;
    const cy = placed.reduce((t, p) => t + p.y, 0) / placed.length;
    const turn = rand() * 24;
    const dx = rand() * 50;
    const dy = rand() * 50;
    const c = Math.cos((turn * Math.PI) / 180);
    const sn = Math.sin((turn * Math.PI) / 180);
    unit.bases.forEach((b, i) => {
      const p = placed[i]!;
      poses[b.marker.id] = {
        x: cx + dx + (p.x - cx) * c - (p.y - cy) * sn,
        y: cy + dy + (p.x - cx) * sn + (p.y - cy) * c,
        headingDeg: p.headingDeg + turn,
      };
    });
  }
  return poses;
}

interface Case {
  frame: SynthFrame;
  result: PipelineResult;
}

describe('pipeline on the synthetic table at 1080p', () => {
  const cases: Case[] = [];

  beforeAll(async () => {
    const camera = frameTable(scenario.table, { resolution: '1080p' });
    const pipeline = await VisionPipeline.create(syntheticCameraProfile(camera), scenario);
    for (const seed of [1, 2, 3]) {
      const frame = await renderScene(scenario, camera, {
        seed,
        poses: seed === 1 ? {} : shuffledPoses(scenario, seed),
      });
      const result = pipeline.process({
        image: { ...frame.image, channels: 3 },
        capturedAt: 0,
        sequence: seed,
      });
      cases.push({ frame, result });
    }
    pipeline.dispose();
  });

  it('finds the table and every base', () => {
    for (const { frame, result } of cases) {
      expect(result.located.table).not.toBeNull();
      expect(result.located.unknownIds).toEqual([]);
      expect(result.bases.map((b) => b.markerId).sort()).toEqual(
        frame.truth.bases.map((b) => b.markerId).sort(),
      );
    }
  });

  it('measures every unit-to-unit distance within 0.05 in of the truth', () => {
    const errors: number[] = [];
    for (const { frame, result } of cases) {
      const units = measuredUnits(scenario, result.bases);
      for (let i = 0; i < scenario.units.length; i++) {
        for (let j = i + 1; j < scenario.units.length; j++) {
          const a = scenario.units[i]!;
          const b = scenario.units[j]!;
          const footprints = (id: string) =>
            frame.truth.bases.filter((t) => t.unitId === id).map((t) => t.footprintMm);
          const truthIn = unitGap(footprints(a.id), footprints(b.id)) / MM_PER_IN;
          const measured = distanceBetween(units, a.id, b.id)!;
          errors.push(Math.abs(measured.distanceIn - truthIn));
          expect(Math.abs(measured.distanceIn - truthIn), `${a.name} ↔ ${b.name}`).toBeLessThanOrEqual(0.05);
        }
      }
    }
    errors.sort((x, y) => x - y);
    console.log(
      `unit distances: ${errors.length} pairs, median error ${errors[errors.length >> 1]!.toFixed(4)} in, max ${errors.at(-1)!.toFixed(4)} in`,
    );
  });

  it('measures every base heading within 1° and position within 1 mm', () => {
    for (const { frame, result } of cases) {
      for (const truth of frame.truth.bases) {
        const m = result.bases.find((b) => b.markerId === truth.markerId)!;
        const headingError = Math.abs(((m.headingDeg - truth.headingDeg + 540) % 360) - 180);
        expect(headingError, `heading of marker ${truth.markerId}`).toBeLessThanOrEqual(1);
        expect(Math.hypot(m.x - truth.centreMm.x, m.y - truth.centreMm.y)).toBeLessThanOrEqual(1);
      }
    }
  });

  it('reports uncertainties that cover the actual errors', () => {
    let inside = 0;
    let total = 0;
    for (const { frame, result } of cases) {
      for (const truth of frame.truth.bases) {
        const m = result.bases.find((b) => b.markerId === truth.markerId)!;
        total++;
        // 3 sigma in 2D: the error should rarely exceed it if sigma is honest.
        if (Math.hypot(m.x - truth.centreMm.x, m.y - truth.centreMm.y) <= 3 * Math.SQRT2 * m.sigmaMm)
          inside++;
      }
    }
    expect(inside / total).toBeGreaterThanOrEqual(0.95);
  });
});
