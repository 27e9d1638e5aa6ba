/**
 * Synthetic old-photo damage for the restoration tests: light and dark scratches (long, thin, gently curved),
 * dust specks and fibres, drawn as anti-aliased SVG shapes, then film grain. Seeded, so every run is the same.
 */
import sharp from 'sharp';
import type { RawImage } from '../../src/engines/raster/image.js';
import { seededRandom } from '../../src/engines/raster/random.js';

export interface Damaged {
  image: RawImage;
  /** One byte per pixel: 1 where a scratch or speck covers at least a quarter of the pixel. */
  drawn: Uint8Array;
  /** The same, for the long scratches only. */
  scratches: Uint8Array;
}

async function coverage(svg: string, w: number, h: number): Promise<Float32Array> {
  const alpha = await sharp(Buffer.from(svg))
    .resize(w, h, { fit: 'fill' })
    .ensureAlpha()
    .extractChannel(3)
    .raw()
    .toBuffer();
  return Float32Array.from(alpha, (v) => v / 255);
}

export async function damagePhoto(clean: RawImage, seed: number, grainSigma = 10): Promise<Damaged> {
  const { width: w, height: h, channels } = clean;
  const rnd = seededRandom(seed);
  const u = (a: number, b: number) => a + (b - a) * rnd();
  const s = Math.max(w, h) / 512;
  const shapes = { light: [] as string[], dark: [] as string[], scratch: [] as string[] };

  for (let i = 0; i < 7; i++) {
    // Mostly near-vertical, as film and print scratches run; a few at any angle.
    const angle = i < 5 ? Math.PI / 2 + u(-0.25, 0.25) : u(0, Math.PI);
    const length = u(0.35, 0.85) * h;
    const x0 = u(0.1, 0.9) * w;
    const y0 = u(0.05, 0.5) * h;
    const x1 = x0 + Math.cos(angle) * length;
    const y1 = y0 + Math.sin(angle) * length;
    const cx = (x0 + x1) / 2 + u(-0.04, 0.04) * w;
    const cy = (y0 + y1) / 2 + u(-0.04, 0.04) * h;
    const path = `<path d="M${x0},${y0} Q${cx},${cy} ${x1},${y1}" fill="none" stroke="#fff" stroke-width="${u(1, 2.5) * s}" stroke-linecap="round" opacity="${u(0.85, 1)}"/>`;
    (i % 3 === 2 ? shapes.dark : shapes.light).push(path);
    shapes.scratch.push(path);
  }
  for (let i = 0; i < 60; i++) {
    const speck = `<ellipse cx="${u(0, w)}" cy="${u(0, h)}" rx="${u(0.8, 3.5) * s}" ry="${u(0.8, 3) * s}" transform-origin="center" fill="#fff"/>`;
    (i % 4 === 3 ? shapes.dark : shapes.light).push(speck);
  }
  for (let i = 0; i < 6; i++) {
    const x = u(0, w);
    const y = u(0, h);
    const fibre = `<path d="M${x},${y} q${u(-12, 12) * s},${u(-12, 12) * s} ${u(-25, 25) * s},${u(-25, 25) * s}" fill="none" stroke="#fff" stroke-width="${s}"/>`;
    shapes.light.push(fibre);
  }
  const svg = (parts: string[]) =>
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${parts.join('')}</svg>`;
  const [light, dark, scratch] = await Promise.all([
    coverage(svg(shapes.light), w, h),
    coverage(svg(shapes.dark), w, h),
    coverage(svg(shapes.scratch), w, h),
  ]);

  const data = Buffer.alloc(clean.data.length);
  const drawn = new Uint8Array(w * h);
  const scratches = new Uint8Array(w * h);
  for (let i = 0; i < w * h; i++) {
    const a = light[i] as number;
    const b = dark[i] as number;
    drawn[i] = a >= 0.25 || b >= 0.25 ? 1 : 0;
    scratches[i] = (scratch[i] as number) >= 0.25 ? 1 : 0;
    // One grain value per pixel, so a grey photo stays grey.
    const g = grainSigma * Math.sqrt(-2 * Math.log(rnd() || Number.MIN_VALUE)) * Math.cos(2 * Math.PI * rnd());
    for (let c = 0; c < channels; c++) {
      let v = clean.data[i * channels + c] as number;
      v = v * (1 - a) + 245 * a;
      v = v * (1 - b) + 25 * b;
      data[i * channels + c] = Math.max(0, Math.min(255, Math.round(v + g)));
    }
  }
  return { image: { ...clean, data }, drawn, scratches };
}
