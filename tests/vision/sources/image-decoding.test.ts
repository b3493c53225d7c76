import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { createDeflate } from 'node:zlib';
import fc from 'fast-check';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultSyntheticProfile } from '../../../src/synth/calibration.ts';
import { createSource } from '../../../src/vision/sources/create-source.ts';
import {
  decodeCameraJpeg,
  decodeRgb,
  ImageTooLargeError,
  jpegFrameSize,
  MAX_IMAGE_PIXELS,
} from '../../../src/vision/sources/image-decoding.ts';
import { readImageFile } from '../../../src/vision/sources/image-files.ts';
import { parseScenarioText } from '../../../src/table/scenario.ts';

/**
 * Issue 15, point 5: pictures from outside cannot make Vedette allocate what they claim. A PNG of
 * about 220 KB that says it is 15,000 × 15,000 pixels (decoded: 675 MB of RGB, and about 4 GB in
 * the old path) is refused from its header, with its size; then a fuzz pass over damaged PNGs
 * and JPEGs: each is decoded within the limit or refused with an Error, never more.
 */

const dir = mkdtempSync(join(tmpdir(), 'vedette-images-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(bytes: Buffer): number {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff]! ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type: string, data: Buffer): Buffer {
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const out = Buffer.alloc(8 + data.length + 4);
  out.writeUInt32BE(data.length, 0);
  body.copy(out, 4);
  out.writeUInt32BE(crc32(body), 8 + data.length);
  return out;
}

/** A valid greyscale PNG of width × height black pixels, compressed row by row (never in memory whole). */
async function pngBomb(width: number, height: number): Promise<Buffer> {
  const row = Buffer.alloc(width + 1); // filter byte 0, then black
  const rows = Readable.from(
    (function* () {
      for (let y = 0; y < height; y++) yield row;
    })(),
  );
  const parts: Buffer[] = [];
  await new Promise<void>((resolve, reject) => {
    const deflate = createDeflate({ level: 9 });
    deflate.on('data', (b: Buffer) => parts.push(b));
    deflate.on('end', resolve);
    deflate.on('error', reject);
    rows.pipe(deflate);
  });
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8; // bit depth
  ihdr[9] = 0; // greyscale
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', Buffer.concat(parts)),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

describe('issue 15.5: decompression bombs', () => {
  const bomb = join(dir, 'bomb.png');
  beforeAll(async () => {
    const bytes = await pngBomb(15_000, 15_000);
    writeFileSync(bomb, bytes);
    console.log(`bomb: a ${(bytes.length / 1024).toFixed(0)} KiB PNG claiming 15000 × 15000 pixels`);
    // It is a real PNG: libvips reads its header (and would decode it, given 675 MB).
    const meta = await sharp(bomb, { limitInputPixels: false }).metadata();
    expect([meta.width, meta.height, meta.format]).toEqual([15_000, 15_000, 'png']);
  }, 60_000);

  it('readImageFile refuses it from its header, with its size', async () => {
    const refusal = await readImageFile(bomb).then(
      () => null,
      (err: unknown) => err,
    );
    expect(refusal).toBeInstanceOf(ImageTooLargeError);
    expect(String((refusal as Error).message)).toMatch(
      /bomb\.png is 15000 × 15000 pixels \(225 Mpx\).*at most 67 Mpx/,
    );
  });

  it('`--images` and `--folder` refuse it before the server starts', async () => {
    const scenario = parseScenarioText(readFileSync('scenarios/prestonpans-demo.json', 'utf8'));
    const profile = join(dir, 'camera.json');
    writeFileSync(profile, JSON.stringify(defaultSyntheticProfile('1080p')));
    for (const spec of [
      { kind: 'images' as const, paths: [bomb], cameraPath: profile },
      { kind: 'folder' as const, dir, cameraPath: profile },
    ])
      await expect(createSource(spec, scenario)).rejects.toThrow(/15000 × 15000 pixels/);
  });

  it('a picture within the limit still decodes', async () => {
    const ok = join(dir, 'ok.png');
    await sharp({ create: { width: 320, height: 200, channels: 3, background: '#123456' } })
      .png()
      .toFile(ok);
    const image = await readImageFile(ok);
    expect([image.width, image.height, image.channels, image.data.length]).toEqual([
      320,
      200,
      3,
      320 * 200 * 3,
    ]);
  });
});

describe('issue 15.5: JPEG frame headers', () => {
  it('jpegFrameSize reads the size sharp reads, for baseline and progressive JPEGs', async () => {
    for (const [width, height, progressive] of [
      [1920, 1080, false],
      [640, 480, true],
      [17, 9, false],
    ] as const) {
      const jpeg = await sharp({ create: { width, height, channels: 3, background: '#808080' } })
        .withMetadata()
        .jpeg({ progressive })
        .toBuffer();
      expect(jpegFrameSize(jpeg)).toEqual({ width, height });
    }
    expect(jpegFrameSize(Buffer.from('not a jpeg'))).toBeNull();
    expect(jpegFrameSize(Buffer.from([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });
});

describe('fuzz: damaged pictures (issue 15)', () => {
  let png: Buffer;
  let jpeg: Buffer;
  beforeAll(async () => {
    const base = sharp({ create: { width: 96, height: 64, channels: 3, background: '#4a6b2f' } });
    png = await base.clone().png().toBuffer();
    jpeg = await base.clone().jpeg({ quality: 80 }).toBuffer();
  });

  interface Damage {
    readonly flips: ReadonlyArray<{ readonly at: number; readonly xor: number }>;
    readonly cut: number | undefined;
    readonly claim: { readonly width: number; readonly height: number } | undefined;
  }
  /** A damaged copy: bytes flipped, the file cut short, or the header's size claims changed. */
  const sometimes = <T>(arb: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> =>
    fc.oneof({ arbitrary: fc.constant(undefined), weight: 3 }, { arbitrary: arb, weight: 1 });
  const damage: fc.Arbitrary<Damage> = fc.record({
    flips: fc.array(fc.record({ at: fc.nat(), xor: fc.integer({ min: 1, max: 255 }) }), { maxLength: 3 }),
    cut: sometimes(fc.nat()),
    claim: sometimes(
      fc.record({ width: fc.integer({ min: 0, max: 0xffff }), height: fc.integer({ min: 0, max: 0xffff }) }),
    ),
  });

  function damaged(original: Buffer, kind: 'png' | 'jpeg', d: Damage): Buffer {
    const bytes = Buffer.from(original);
    if (d.claim) {
      if (kind === 'png') {
        bytes.writeUInt32BE(d.claim.width * 4000, 16); // up to 262 million pixels across
        bytes.writeUInt32BE(d.claim.height * 4000, 20);
      } else {
        const sof = bytes.findIndex((b, i) => b === 0xff && bytes[i + 1] === 0xc0);
        if (sof > 0) {
          bytes.writeUInt16BE(d.claim.height, sof + 5);
          bytes.writeUInt16BE(d.claim.width, sof + 7);
        }
      }
    }
    for (const f of d.flips) bytes[f.at % bytes.length]! ^= f.xor;
    return d.cut === undefined ? bytes : bytes.subarray(0, d.cut % bytes.length);
  }

  for (const kind of ['png', 'jpeg'] as const) {
    it(`decodes every damaged ${kind} within the limit or refuses it with an Error`, async () => {
      const outcomes = { decoded: 0, tooLarge: 0, refused: 0 };
      await fc.assert(
        fc.asyncProperty(damage, async (d) => {
          const bytes = damaged(kind === 'png' ? png : jpeg, kind, d);
          if (kind === 'jpeg') {
            const size = jpegFrameSize(bytes);
            if (size) expect(size.width * size.height).toBeLessThanOrEqual(0xffff * 0xffff);
          }
          try {
            const image = await decodeRgb(bytes, `damaged ${kind}`);
            expect(image.width * image.height).toBeLessThanOrEqual(MAX_IMAGE_PIXELS);
            expect(image.data.length).toBe(image.width * image.height * 3);
            outcomes.decoded++;
          } catch (err) {
            expect(err).toBeInstanceOf(Error);
            if (err instanceof ImageTooLargeError) outcomes.tooLarge++;
            else outcomes.refused++;
          }
        }),
        { numRuns: 300, seed: 0x15f5 },
      );
      console.log(`image fuzz (${kind}, 300 cases): ${JSON.stringify(outcomes)}`);
      expect(outcomes.tooLarge).toBeGreaterThan(0);
    });
  }
});

describe('a camera JPEG decoded as it is', () => {
  it('is the same RGB, byte for byte, as decoding it through an sRGB conversion; a CMYK JPEG is converted', async () => {
    const photo = readFileSync(join(import.meta.dirname, '../../camera/fixtures/charuco-real/img_00.jpg'));
    const convert = (jpeg: Buffer) =>
      sharp(jpeg).removeAlpha().toColourspace('srgb').raw().toBuffer({ resolveWithObject: true });
    for (const quality of [60, 90])
      for (const chromaSubsampling of ['4:2:0', '4:4:4']) {
        const jpeg = await sharp(photo)
          .resize(640, 360, { fit: 'fill' })
          .jpeg({ quality, chromaSubsampling })
          .toBuffer();
        const fast = await decodeCameraJpeg(jpeg, 640 * 360);
        const slow = await convert(jpeg);
        expect([fast.width, fast.height, fast.data.length]).toEqual([640, 360, 640 * 360 * 3]);
        expect(Buffer.compare(Buffer.from(fast.data), slow.data)).toBe(0);
      }
    // A grey and a CMYK JPEG come out as the same sRGB too.
    const grey = await sharp(photo).resize(320, 180).toColourspace('b-w').jpeg().toBuffer();
    const cmyk = await sharp(photo).resize(320, 180).toColourspace('cmyk').jpeg().toBuffer();
    expect((await sharp(cmyk).metadata()).channels).toBe(4);
    for (const jpeg of [grey, cmyk]) {
      const fast = await decodeCameraJpeg(jpeg, 320 * 180);
      expect(fast.data.length).toBe(320 * 180 * 3);
      expect(Buffer.compare(Buffer.from(fast.data), (await convert(jpeg)).data)).toBe(0);
    }
    await expect(decodeCameraJpeg(cmyk, 1000)).rejects.toThrow(/pixel limit/i);
  });
});
