import { describe, expect, it } from 'vitest';
import { codeBook, dictionaryCodes } from '../../src/vision/code-book.ts';
import { LearnedBlurs } from '../../src/vision/learned-blurs.ts';
import { DEFAULT_TEMPLATE_DECODER } from '../../src/vision/template-decoder.ts';
import { at, BLUR, drawTag } from './drawn-tag.ts';

/**
 * The camera's blur and the reading blur are learned apart: the sheets teach the first, small
 * tags the second, and neither moves the other. Tags drawn by hand under a Gaussian blur of
 * σ 1.4 px (drawn-tag.ts): one with 4 px cells stands in for a sheet, one with 1.6 px cells for a
 * small tag.
 */
describe('the learned blurs', () => {
  it('keep the sheets’ blur for measuring and teach the reading blur from small tags', async () => {
    const id = 42;
    const codes = await dictionaryCodes('aruco_mip_36h12');
    const book = codeBook(codes, [id]);
    const sheet = await drawTag(id, 4);
    const small = await drawTag(id, 1.6);
    const decoder = DEFAULT_TEMPLATE_DECODER;
    const blurs = new LearnedBlurs();
    expect(blurs.readingPx).toBe(blurs.cameraPx);

    // Three sheet readings (each counts as two) make the camera's blur stand.
    for (let i = 0; i < 3; i++) blurs.learnFromSheet(sheet, at(0, 0, 32), book, id, decoder);
    const camera = blurs.cameraPx;
    expect(Math.abs(camera - BLUR)).toBeLessThan(0.2);
    expect(blurs.readingPx).toBe(camera);
    // Once it stands, sheets teach nothing more (they are read every frame).
    blurs.learnFromSheet(small, at(0, 0, 8 * 1.6), book, id, decoder);
    expect(blurs.cameraPx).toBe(camera);

    // Tags with large cells are read at any blur: they do not teach the reading blur.
    for (let i = 0; i < 8; i++) blurs.learnFromTag(sheet, at(0, 0, 32), 4.5, book, id, decoder);
    expect(blurs.readingPx).toBe(camera);

    // Six small tags a frame until the reading blur stands; the camera's does not move.
    blurs.nextFrame();
    for (let i = 0; i < 5; i++) blurs.learnFromTag(small, at(0, 0, 8 * 1.6), 1.6, book, id, decoder);
    expect(blurs.readingPx).toBe(camera);
    blurs.learnFromTag(small, at(0, 0, 8 * 1.6), 1.6, book, id, decoder);
    const reading = blurs.readingPx;
    expect(reading).not.toBe(camera);
    expect(Math.abs(reading - BLUR)).toBeLessThan(0.3);
    expect(blurs.cameraPx).toBe(camera);

    // Then two a frame: a third in the same frame changes nothing.
    blurs.nextFrame();
    blurs.learnFromTag(small, at(0.3, 0, 8 * 1.6), 1.6, book, id, decoder);
    blurs.learnFromTag(small, at(0, 0.3, 8 * 1.6), 1.6, book, id, decoder);
    const afterTwo = blurs.readingPx;
    blurs.learnFromTag(small, at(0.6, 0.6, 8 * 1.6), 1.6, book, id, decoder);
    expect(blurs.readingPx).toBe(afterTwo);
  });
});
