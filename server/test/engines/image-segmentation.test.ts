import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES, fixtureBytes, fixturePixels, fromPng, recordingContext } from '../../../test-support/engine-ctx.js';
import { luma } from '../../../test-support/metrics.js';
import { iou } from '../../../test-support/selection-cases.js';
import engine from '../../src/engines/local/image-segmentation.js';

/** Hand-traced ground truth (fixtures/masks/, see fixtures/README.md), one channel, 255 = subject. */
async function groundTruth(name: string): Promise<Buffer> {
  return sharp(path.join(FIXTURES, 'masks', `${name}.png`))
    .greyscale()
    .extractChannel(0)
    .raw()
    .toBuffer();
}

async function segment(file: string, subject?: string) {
  const { ctx, progress } = recordingContext(2);
  const out = await engine.run(
    { operation: 'image-segmentation', image: fixtureBytes(file), params: subject ? { subject } : {} },
    ctx,
  );
  expect(out.images).toHaveLength(2);
  const [overlayPng, maskPng] = out.images as [Buffer, Buffer];
  expect((await sharp(maskPng).metadata()).channels).toBe(1);
  const overlay = await fromPng(overlayPng);
  const { data, info } = await sharp(maskPng).greyscale().raw().toBuffer({ resolveWithObject: true });
  const mask = { data, width: info.width, height: info.height };
  return { overlay, mask, progress, metadata: out.metadata ?? {} };
}

describe('image-segmentation engine', () => {
  afterAll(() => engine.release?.());

  it('finds the cup, saucer and spoon (not a person): IoU >= 0.85 against the hand-traced mask', async () => {
    const { mask, overlay, metadata, progress } = await segment('coffee.png');
    expect([mask.width, mask.height, overlay.width, overlay.height]).toEqual([600, 400, 600, 400]);
    const score = iou(mask.data, await groundTruth('coffee'));
    console.log(`coffee: IoU ${score.toFixed(3)}`, metadata);
    expect(score).toBeGreaterThanOrEqual(0.85);
    expect(metadata.subject).toBe('object');
    expect(new Set(progress.map((p) => p.percent)).size).toBeGreaterThan(1);

    // The overlay keeps the subject and dims the background.
    const photo = luma(await fixturePixels('coffee.png'));
    const shown = luma(overlay);
    let inside = 0;
    let outside = 0;
    let nIn = 0;
    let nOut = 0;
    for (let i = 0; i < photo.length; i++) {
      const m = mask.data[i] as number;
      const ratio = ((shown[i] as number) + 1) / ((photo[i] as number) + 1);
      if (m === 255) {
        inside += ratio;
        nIn++;
      } else if (m === 0) {
        outside += ratio;
        nOut++;
      }
    }
    expect(inside / nIn).toBeGreaterThan(0.95);
    expect(outside / nOut).toBeLessThan(0.5);
  });

  it('finds the person in a portrait, not the helmet she holds: IoU >= 0.85 against the hand-traced mask', async () => {
    const { mask, metadata } = await segment('astronaut.png');
    const score = iou(mask.data, await groundTruth('astronaut'));
    console.log(`astronaut: IoU ${score.toFixed(3)}`, metadata);
    expect(metadata.subject).toBe('person');
    expect(score).toBeGreaterThanOrEqual(0.85);
  });

  it('finds both dogs in automatic mode, each whole, and leaves out the towel under them', async () => {
    const { mask, metadata } = await segment('dogs.jpg');
    console.log('dogs:', metadata);
    expect(metadata.subject).toBe('object');
    const at = (x: number, y: number) => mask.data[y * mask.width + x] as number;
    // Upper dog's face and ear, lower dog's face and its paw on the ledge (fixtures/dogs.jpg, 426x640).
    for (const [x, y] of [
      [175, 195],
      [140, 200],
      [240, 340],
      [232, 405],
    ] as const) {
      expect(at(x, y), `dog at ${x},${y}`).toBe(255);
    }
    // The white towel hanging below the upper dog, and the wall beside them.
    for (const [x, y] of [
      [185, 285],
      [330, 250],
    ] as const) {
      expect(at(x, y), `not a dog at ${x},${y}`).toBe(0);
    }
  });

  it('segments the salient object when asked, people and what they hold alike', async () => {
    const { mask, metadata } = await segment('astronaut.png', 'object');
    expect(metadata.subject).toBe('object');
    // The helmet (lower right, below and right of the traced person) is part of the salient object.
    const helmet = mask.data[450 * 512 + 400] as number;
    expect(helmet).toBeGreaterThanOrEqual(128);
  });
});
