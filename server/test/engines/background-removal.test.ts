/**
 * The transparent cut-out as a visitor downloads it: the subject keeps the photo's colours where it is opaque, and
 * the background that was removed cannot be read back out of the file (its fully transparent pixels hold black).
 */
import { describe, expect, it } from 'vitest';
import { fixturePixels, fromPng, recordingContext, toPng } from '../../../test-support/engine-ctx.js';
import engine from '../../src/engines/local/background-removal.js';

describe('background removal, transparent cut-out', () => {
  it('keeps the subject’s colours and stores nothing of the removed background', async () => {
    const photo = await fixturePixels('astronaut.png');
    const { ctx } = recordingContext(2);
    const params = { background: 'transparent', output: 'image', crop: false };
    const out = await engine.run({ operation: 'background-removal', image: await toPng(photo), params }, ctx);
    const cut = await fromPng(out.images[0] as Buffer);
    expect([cut.width, cut.height, cut.channels]).toEqual([photo.width, photo.height, 4]);

    let transparent = 0;
    let leaked = 0;
    let opaque = 0;
    let changed = 0;
    for (let i = 0; i < photo.width * photo.height; i++) {
      const a = cut.data[i * 4 + 3] as number;
      const rgb = [0, 1, 2].map((c) => cut.data[i * 4 + c] as number);
      if (a === 0) {
        transparent++;
        if (rgb.some((v) => v !== 0)) leaked++;
      } else if (a === 255) {
        opaque++;
        if (rgb.some((v, c) => v !== photo.data[i * 3 + c])) changed++;
      }
    }
    // The wall and the flag behind her are cut away (a large share of the frame), and none of them is in the file.
    expect(transparent / (photo.width * photo.height)).toBeGreaterThan(0.2);
    expect(leaked).toBe(0);
    // She is there, in the photo's own colours.
    expect(opaque / (photo.width * photo.height)).toBeGreaterThan(0.2);
    expect(changed).toBe(0);
  }, 120_000);
});
