import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parseCameraProfile } from '../../src/camera/profile.ts';
import { defaultSyntheticProfile } from '../../src/synth/calibration.ts';
import { decodeImage, encodeJpeg, encodePng } from '../../src/synth/encode.ts';

describe('synthetic calibration file', () => {
  it('calibration/synthetic-1080p.json is the default 1080p synthetic camera', () => {
    const onDisk = parseCameraProfile(JSON.parse(readFileSync('calibration/synthetic-1080p.json', 'utf8')));
    expect(onDisk).toEqual(parseCameraProfile(defaultSyntheticProfile('1080p')));
  });
});

describe('encode', () => {
  const image = { width: 5, height: 3, data: Uint8Array.from({ length: 45 }, (_, i) => (i * 37) % 256) };
  it('PNG round-trips exactly', async () => {
    const back = await decodeImage(await encodePng(image));
    expect(back.width).toBe(5);
    expect(back.height).toBe(3);
    expect([...back.data]).toEqual([...image.data]);
  });
  it('JPEG decodes to the same size', async () => {
    const back = await decodeImage(
      await encodeJpeg({ width: 16, height: 8, data: new Uint8Array(16 * 8 * 3).fill(128) }),
    );
    expect([back.width, back.height, back.data.length]).toEqual([16, 8, 16 * 8 * 3]);
    expect(Math.abs(back.data[0]! - 128)).toBeLessThan(3);
  });
});
