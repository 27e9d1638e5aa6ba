import { describe, expect, it } from 'vitest';
import { engineFill, lineKept, namedFillCase, scoreFill, teleaFill } from '../../../test-support/fill-cases.js';
import engine from '../../src/engines/local/image-inpainting.js';

/** Luma above which a pixel of the rocket-mast case belongs to the mast (the evening sky stays far below). */
const MAST_LUMA = 100;

describe('inpainting continues structure across the painted area (bench/fill.ts cases)', () => {
  it("carries a cup's white rim across a painted-over patch instead of leaving a brown smear", async () => {
    const c = await namedFillCase('coffee-cup');
    const fill = await engineFill(engine, c.photoWithObject, c.hole);
    const telea = await teleaFill(c.photoWithObject, c.hole);
    const ours = scoreFill(c, fill);
    const base = scoreFill(c, telea);
    console.log('cup rim: ours', ours, 'cv.inpaint', base);
    expect(ours.db).toBeGreaterThan(base.db + 2.5);
    expect(ours.texture).toBeGreaterThan(0.75);
    expect(base.texture).toBeLessThan(0.65);
  });

  it('carries a thin mast across a painted-over patch of sky, where cv.inpaint lets it fade', async () => {
    const c = await namedFillCase('rocket-mast');
    const fill = await engineFill(engine, c.photoWithObject, c.hole);
    const telea = await teleaFill(c.photoWithObject, c.hole);
    const ours = { ...scoreFill(c, fill), mast: lineKept(c, fill, MAST_LUMA) };
    const base = { ...scoreFill(c, telea), mast: lineKept(c, telea, MAST_LUMA) };
    console.log('mast: ours', ours, 'cv.inpaint', base);
    expect(ours.mast).toBeGreaterThan(0.6);
    expect(base.mast).toBeLessThan(0.4);
    expect(ours.texture).toBeGreaterThan(0.6);
  });
});
