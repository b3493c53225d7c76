import { describe, expect, it } from 'vitest';
import { firstFrameOf } from './recall-scene-frame.ts';

const firstFrame = (resolution: '720p' | '1080p', sizeMm: number, tiltDeg: number, seed: number) =>
  firstFrameOf({ resolution, sizeMm, tiltDeg, condition: 'uneven light', seed });

/**
 * In deep shadow a small tag's one-cell black border sinks into the dark base and cloth, and no
 * dark quad is found round it; its white sticker still stands out, and the dim regions are
 * searched for light squares too (pipeline.ts dimLook), read as what surrounds a tag.
 */
describe('tags in deep shadow', () => {
  // Tag 54 under a cast shadow and the lamp's fall-off: grey 1–29 across it; found in no frame before.
  it('finds a 20 mm tag at 1080p whose paper is at grey 29', async () => {
    const { score } = await firstFrame('1080p', 20, 15, 1701);
    expect(score.found.has(54)).toBe(true);
    expect(score.wrong).toEqual([]);
  });

  // 720p 25 mm at 15°: of ten such scenes 28 of 540 bases were missed in the first frame, 1 now.
  it('finds every 25 mm tag of a 720p scene under uneven light', async () => {
    const { score, visible } = await firstFrame('720p', 25, 15, 1724);
    expect(visible.filter((id) => !score.found.has(id))).toEqual([]);
    expect(score.wrong).toEqual([]);
  });
});

/**
 * A first frame, before the table's pose is known, is searched whole again at the dim pass's
 * lowest threshold (pipeline.ts firstLook): 8 px tags keep too little contrast for the
 * whole-frame threshold. This used to happen only when the dark floor and the table's vignetted
 * rim made the frame one dim region; where the floor fell in two strips, about a third of the
 * tags were missed.
 */
describe('a first look', () => {
  // Seed 2: the floor falls in two strips; 38 of 58 markers were found before the first look.
  it('finds the 15 mm tags of a 720p table at tilt 0 whichever way the floor falls', async () => {
    const { score, visible } = await firstFrameOf({
      resolution: '720p',
      sizeMm: 15,
      tiltDeg: 0,
      condition: 'noise',
      seed: 2,
    });
    const missed = visible.filter((id) => !score.found.has(id));
    expect(missed.length).toBeLessThanOrEqual(2);
    expect(score.wrong).toEqual([]);
  });
});
