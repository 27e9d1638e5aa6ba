import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fixturePixels, fromPng, recordingContext, toPng } from '../../../test-support/engine-ctx.js';
import { gradientMagnitude, luma } from '../../../test-support/metrics.js';
import engine from '../../src/engines/local/pencil-sketch.js';
import type { RawImage } from '../../src/engines/raster/image.js';
import { edgeAndFlat, hueAt, meanWhere, median } from '../support/image-stats.js';

async function sketch(photo: RawImage, style: string) {
  const { ctx, progress } = recordingContext();
  const out = await engine.run({ operation: 'pencil-sketch', image: await toPng(photo), params: { style } }, ctx);
  const png = out.images[0] as Buffer;
  return { image: await fromPng(png), bands: (await sharp(png).metadata()).channels, progress };
}

/**
 * Strokes: the drawing's gradient on the photo's strongest edges against its smoothest half. Gradients, not
 * darkness, because shading and colour darken smooth areas too.
 */
function strokeContrast(photo: RawImage, drawing: RawImage): { onEdges: number; onFlat: number } {
  const { edges, flat } = edgeAndFlat(photo);
  const grad = gradientMagnitude(luma(drawing), drawing.width, drawing.height);
  return { onEdges: meanWhere(grad, edges), onFlat: meanWhere(grad, flat) };
}

/** Mean sketch value over the darkest and the brightest quarter of the photo: shading survives. */
function shading(photo: RawImage, drawing: RawImage): { inShadow: number; inLight: number } {
  const y = luma(photo);
  const sorted = Float32Array.from(y).sort();
  const q1 = sorted[Math.floor(sorted.length / 4)] as number;
  const q3 = sorted[Math.floor((sorted.length * 3) / 4)] as number;
  const s = luma(drawing);
  return {
    inShadow: meanWhere(
      s,
      Uint8Array.from(y, (v) => (v <= q1 ? 1 : 0)),
    ),
    inLight: meanWhere(
      s,
      Uint8Array.from(y, (v) => (v >= q3 ? 1 : 0)),
    ),
  };
}

describe('pencil sketch engine', () => {
  for (const name of ['astronaut.png', 'coffee.png']) {
    it(`draws ${name} in graphite: grey, white paper, dark strokes on the edges, some shading`, async () => {
      const photo = await fixturePixels(name);
      const { image, bands, progress } = await sketch(photo, 'graphite');
      expect([image.width, image.height]).toEqual([photo.width, photo.height]);
      expect(bands).toBe(1);
      const paper = median(luma(image));
      const photoMedian = median(luma(photo));
      const { onEdges, onFlat } = strokeContrast(photo, image);
      const { inShadow, inLight } = shading(photo, image);
      console.log(
        `${name} graphite: median ${paper} (photo ${photoMedian.toFixed(0)}), stroke gradient on edges ${onEdges.toFixed(1)} vs flat ${onFlat.toFixed(1)}, shadow ${inShadow.toFixed(0)} vs light ${inLight.toFixed(0)}`,
      );
      // Mostly paper, unlike the photo's own grey version.
      expect(paper).toBeGreaterThan(185);
      expect(paper).toBeGreaterThan(photoMedian + 40);
      expect(onEdges).toBeGreaterThan(3 * onFlat);
      expect(inLight - inShadow).toBeGreaterThan(10);
      expect(new Set(progress.map((p) => p.percent)).size).toBeGreaterThan(1);
    });
  }

  it('draws in coloured pencil: the photo’s hues on light paper, strokes on the edges', async () => {
    const photo = await fixturePixels('astronaut.png');
    const { image, bands } = await sketch(photo, 'colored');
    expect(bands).toBe(3);
    let hueDiff = 0;
    let coloured = 0;
    let chroma = 0;
    for (let i = 0; i < photo.width * photo.height; i++) {
      const o = i * 3;
      const r = photo.data[o] as number;
      const g = photo.data[o + 1] as number;
      const b = photo.data[o + 2] as number;
      chroma += Math.max(...image.data.subarray(o, o + 3)) - Math.min(...image.data.subarray(o, o + 3));
      if (Math.max(r, g, b) - Math.min(r, g, b) < 60) continue;
      let d = Math.abs(hueAt(photo.data, o) - hueAt(image.data, o));
      if (d > 180) d = 360 - d;
      hueDiff += d;
      coloured++;
    }
    const { onEdges, onFlat } = strokeContrast(photo, image);
    const paper = median(luma(image));
    console.log(
      `coloured: mean hue difference ${(hueDiff / coloured).toFixed(1)} deg over ${coloured} colourful pixels, mean chroma ${(chroma / (photo.width * photo.height)).toFixed(1)}, median ${paper.toFixed(0)}, gradient on edges ${onEdges.toFixed(1)} vs flat ${onFlat.toFixed(1)}`,
    );
    expect(hueDiff / coloured).toBeLessThan(20);
    expect(chroma / (photo.width * photo.height)).toBeGreaterThan(15);
    expect(paper).toBeGreaterThan(median(luma(photo)) + 30);
    expect(onEdges).toBeGreaterThan(3 * onFlat);
  });
});
