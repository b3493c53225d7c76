import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { montroseDemoScenario } from '../../maps/montrose-demo.scenario.ts';
import { montroseSampleMap } from '../../maps/montrose-sample.layout.ts';

/**
 * The data in maps/ is made by the TypeScript generators beside it (they replaced the Python
 * scripts that first wrote the files): each generator reproduces its committed file, every number
 * within the last decimal the file keeps.
 */

function sameData(a: unknown, b: unknown, path = '$'): void {
  if (typeof a === 'number' && typeof b === 'number') {
    expect(Math.abs(a - b), path).toBeLessThanOrEqual(0.0011);
    return;
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    expect(a.length, path).toBe(b.length);
    a.forEach((x, i) => sameData(x, b[i], `${path}[${i}]`));
    return;
  }
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    expect(Object.keys(a).sort(), path).toEqual(Object.keys(b).sort());
    for (const k of Object.keys(a))
      sameData((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], `${path}.${k}`);
    return;
  }
  expect(a, path).toEqual(b);
}

describe('maps/ generators', () => {
  it('montrose-sample.layout.ts writes maps/montrose-sample.json', () => {
    sameData(montroseSampleMap(), JSON.parse(readFileSync('maps/montrose-sample.json', 'utf8')));
  });
  it('montrose-demo.scenario.ts writes maps/montrose-demo.scenario.json', () => {
    sameData(montroseDemoScenario(), JSON.parse(readFileSync('maps/montrose-demo.scenario.json', 'utf8')));
  });
});
