import { describe, expect, it } from 'vitest';
import { counted, formatElapsed } from '../../../web/src/replay/model.ts';

describe('replay list words', () => {
  it('counts in the singular for one and the plural otherwise', () => {
    expect(counted(1, 'ruling')).toBe('1 ruling');
    expect(counted(0, 'ruling')).toBe('0 rulings');
    expect(counted(61, 'move')).toBe('61 moves');
  });
  it('writes a battle length as h:mm:ss', () => {
    expect(formatElapsed(53_000)).toBe('0:00:53');
    expect(formatElapsed(3 * 3_600_000)).toBe('3:00:00');
  });
});
