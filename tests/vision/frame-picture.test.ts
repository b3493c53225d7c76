import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { FramePicture, PictureGoneError } from '../../src/vision/frame-picture.ts';
import type { RasterImage } from '../../src/vision/image.ts';

/** A 320 × 180 RGB picture: a horizontal ramp in red, a vertical one in green, a square in blue. */
function rampImage(): RasterImage {
  const width = 320;
  const height = 180;
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = Math.round((x / (width - 1)) * 255);
      data[i + 1] = Math.round((y / (height - 1)) * 255);
      data[i + 2] = x > 100 && x < 200 && y > 50 && y < 130 ? 255 : 0;
    }
  return { width, height, channels: 3, data };
}

/** Mean absolute difference per sample of two JPEGs decoded at the same size. */
async function meanDifference(a: Buffer, b: Buffer): Promise<number> {
  const [da, db] = await Promise.all([sharp(a).raw().toBuffer(), sharp(b).raw().toBuffer()]);
  expect(da.length).toBe(db.length);
  let sum = 0;
  for (let i = 0; i < da.length; i++) sum += Math.abs(da[i]! - db[i]!);
  return sum / da.length;
}

describe('a frame picture', () => {
  it('scales from its pixels the picture a full-size JPEG scaled would give', async () => {
    const image = rampImage();
    const picture = FramePicture.ofFrame(image, null, 90, () => {});
    const small = await picture.scaledJpeg(160, 90);
    expect(small).toMatchObject({ width: 160, height: 90 });
    const meta = await sharp(small.data).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 160, height: 90 });
    // The same picture by the old road: the full-size JPEG, decoded and scaled.
    const full = await picture.jpeg();
    expect(await sharp(full).metadata()).toMatchObject({ format: 'jpeg', width: 320, height: 180 });
    const viaJpeg = await sharp(full).resize({ width: 160 }).jpeg({ quality: 90 }).toBuffer();
    const diff = await meanDifference(small.data, viaJpeg);
    console.log(`scaled from pixels against scaled from the JPEG: mean difference ${diff.toFixed(2)} of 255`);
    expect(diff).toBeLessThan(3);
    // Never enlarged.
    expect(await picture.scaledJpeg(1000, 90)).toMatchObject({ width: 320, height: 180 });
  });

  it('gives its pixels back once, when retired and no encode still reads them', async () => {
    const image = rampImage();
    const given: RasterImage[] = [];
    const picture = FramePicture.ofFrame(image, null, 80, (p) => given.push(p));
    const scaling = picture.scaledJpeg(100, 80);
    picture.retire();
    // Still being read: not given back yet.
    expect(given).toHaveLength(0);
    await scaling;
    expect(given).toEqual([image]);
    picture.retire();
    expect(given).toHaveLength(1);
    // Nothing was made at full size before it was retired: there is no picture any more.
    await expect(picture.jpeg()).rejects.toBeInstanceOf(PictureGoneError);
    await expect(picture.scaledJpeg(100, 80)).rejects.toBeInstanceOf(PictureGoneError);

    const idle: RasterImage[] = [];
    FramePicture.ofFrame(image, null, 80, (p) => idle.push(p)).retire();
    expect(idle).toEqual([image]);
  });

  it('keeps a full-size JPEG asked for before it was retired, made once', async () => {
    const given: RasterImage[] = [];
    const picture = FramePicture.ofFrame(rampImage(), null, 80, (p) => given.push(p));
    const first = picture.jpeg();
    expect(picture.jpeg()).toBe(first);
    picture.retire();
    const jpeg = await first;
    expect(given).toHaveLength(1);
    expect(await picture.jpeg()).toBe(jpeg);
    // Scaled afterwards from that JPEG.
    expect(await picture.scaledJpeg(160, 80)).toMatchObject({ width: 160, height: 90 });
  });

  it("hands out the camera's own JPEG as it came", async () => {
    const cameraJpeg = await sharp(Buffer.from(rampImage().data), {
      raw: { width: 320, height: 180, channels: 3 },
    })
      .jpeg({ quality: 70 })
      .toBuffer();
    const withPixels = FramePicture.ofFrame(rampImage(), cameraJpeg, 95, () => {});
    expect(await withPixels.jpeg()).toBe(cameraJpeg);
    const only = FramePicture.ofJpeg(cameraJpeg);
    expect(await only.jpeg()).toBe(cameraJpeg);
    expect(await only.scaledJpeg(64, 80)).toMatchObject({ width: 64, height: 36 });
  });
});
