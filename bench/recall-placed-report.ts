/**
 * The recall benchmark's report on placed scenes (bench/recall-placed.ts): bases put down after
 * the table is known, found in the frame they appear in and in the 10th (1.8 s later), beside the
 * static scene of the same resolution, size, tilt and condition (another seed) on its first frame.
 */
import type { PlacedRun } from './recall-placed.ts';
import type { SceneRun } from './recall-run.ts';
import { quantile, recallCounts } from './recall-score.ts';

const MM_PER_IN = 25.4;
const pct = (n: number, d: number): string => (d === 0 ? '–' : `${((100 * n) / d).toFixed(1)}`);
const fixed = (v: number, digits: number): string => (Number.isFinite(v) ? v.toFixed(digits) : '–');
const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0);

/** False detections of a placed scene, before and after its bases were put down. */
export const placedFalse = (p: PlacedRun): number => p.falseBeforeBases + sum(p.falsePerFrame);

export function placedSection(placed: readonly PlacedRun[], scenes: readonly SceneRun[]): string[] {
  if (placed.length === 0) return [];
  const lines = [
    `## Bases put down after the table is known (the table alone for 3 frames, then every base at once; ${placed[0]!.frames} frames from then, 200 ms apart)`,
    '',
    '| res | tag mm | tilt ° | condition | visible | in that frame % | 10th frame (1.8 s later) % | static scene, first frame % | false before / after | p95 in | p95 heading ° |',
    '|---|---|---|---|---|---|---|---|---|---|---|',
  ];
  const same = (p: PlacedRun) =>
    scenes.find(
      (s) =>
        s.resolution === p.resolution &&
        s.sizeMm === p.sizeMm &&
        s.tiltDeg === p.tiltDeg &&
        s.condition === p.condition,
    );
  for (const p of placed) {
    const c = recallCounts(p);
    const s = same(p);
    const sc = s ? recallCounts(s) : null;
    lines.push(
      `| ${p.resolution} | ${p.sizeMm} | ${p.tiltDeg} | ${p.condition} | ${c.visible} | ${pct(c.single, c.visible)} | ${pct(c.last, c.visible)} | ${sc ? pct(sc.single, sc.visible) : '–'} | ${p.falseBeforeBases} / ${sum(p.falsePerFrame)} | ${fixed(quantile(p.errorsMm, 0.95) / MM_PER_IN, 4)} | ${fixed(quantile(p.headingErrorsDeg, 0.95), 2)} |`,
    );
  }
  lines.push('');
  const groups = [...new Set(placed.map((p) => `${p.resolution} ${p.sizeMm} mm`))];
  for (const g of groups) {
    const of = placed.filter((p) => `${p.resolution} ${p.sizeMm} mm` === g);
    const counts = of.map(recallCounts);
    const visible = sum(counts.map((c) => c.visible));
    const statics = of.flatMap((p) => {
      const s = same(p);
      return s ? [recallCounts(s)] : [];
    });
    lines.push(
      `- ${g}, every condition: in that frame ${pct(sum(counts.map((c) => c.single)), visible)} %, 10th frame ${pct(sum(counts.map((c) => c.last)), visible)} % (${visible} bases); static scenes' first frames ${pct(sum(statics.map((c) => c.single)), sum(statics.map((c) => c.visible)))} %`,
    );
  }
  return [...lines, ''];
}
