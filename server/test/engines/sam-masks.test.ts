/**
 * The decoder's four masks (engines/models/sam.ts): every click's pass gives SAM's single mask and its three
 * multimask answers, and the answer the export returns is one of them; a low-resolution mask scaled up to the photo
 * (samUpsample) is the mask the decoder itself gives at that size, and samMask draws that mask without the floats,
 * over the whole photo or only over the box samMaskBox finds for it.
 */
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { samDecode, samEmbed, samMask, samMaskBox, samUpsample } from '../../src/engines/models/sam.js';
import { decode } from '../../src/engines/raster/image.js';
import { place } from '../../src/engines/select/grow.js';
import { fixture } from '../support/server.js';

const selected = (logits: Float32Array) => Uint8Array.from(logits, (v) => (v > 0 ? 1 : 0));
function iou(a: Uint8Array, b: Uint8Array): number {
  let inter = 0;
  let union = 0;
  for (let i = 0; i < a.length; i++) {
    if (a[i] && b[i]) inter++;
    if (a[i] || b[i]) union++;
  }
  return inter / union;
}

describe('the segment-anything decoder', () => {
  it('answers four masks for a click, the one it returns among them, each scaled up as the decoder scales it', async () => {
    // A photo that is not square: the scaling must map the encoder's top-left-aligned square back to it.
    const photo = await decode(await sharp(fixture('coffee.png')).resize(900, 600).png().toBuffer());
    const embedding = await samEmbed(photo, 2);
    const answer = await samDecode(embedding, { points: [{ x: 450, y: 300, label: 1 }] }, 2);
    expect(answer.candidates).toHaveLength(4);
    const own = selected(answer.logits);
    const scaled = answer.candidates.map((c) => iou(selected(samUpsample(c.lowRes, photo)), own));
    expect(Math.max(...scaled)).toBeGreaterThan(0.98);
    // The four are different answers, not one repeated.
    expect(Math.min(...scaled)).toBeLessThan(0.9);
    for (const c of answer.candidates) {
      const drawn = Uint8Array.from(samMask(c.lowRes, photo), (v) => (v ? 1 : 0));
      expect(iou(drawn, selected(samUpsample(c.lowRes, photo)))).toBeGreaterThan(0.9999);
      // Drawn over its box alone, the mask is the same: nothing selected lies outside the box.
      const box = samMaskBox(c.lowRes, photo);
      if (!box) throw new Error('an empty answer');
      expect(box.width * box.height).toBeLessThan(photo.width * photo.height);
      expect(place(samMask(c.lowRes, photo, box), box, photo.width, photo.height)).toEqual(
        Buffer.from(drawn.map((v) => v * 255)),
      );
    }
  }, 120_000);
});
