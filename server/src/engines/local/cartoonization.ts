import { defineEngine } from '../define.js';
import { loadOpenCv, type OpenCv, withMats } from '../models/opencv.js';
import { warmWithSmallJob } from '../models/warm.js';
import { processFitted } from '../raster/fit.js';
import { decode, encodePng, type RawImage } from '../raster/image.js';

/**
 * Cartoon: the classic pipeline on OpenCV.js. Repeated bilateral filtering flattens texture while keeping edges; a
 * k-means palette (in Lab, so it follows perceived colour, skin tones included) turns the result into flat colour
 * regions; outlines are the dark side of a difference of Gaussians of the grey image after it too is flattened, so
 * they follow contours (eyes, mouth, hair, an animal's outline) and not the texture of fur or skin, and pieces too
 * short to be a contour are dropped (inkLines). Analysis runs on a copy of at most ANALYSIS_SIDE pixels
 * (outlines keep the same weight at any size); colours are assigned at full resolution.
 */

const ANALYSIS_SIDE = 640;
const MAX_PIXELS = 12_000_000;
const COLOURS = 16;
/** The outline colour (grey level). */
export const INK = 24;
/**
 * Outlines, at the analysis size. The grey image is flattened by a bilateral pass (grey-level sigma
 * FLATTEN_SIGMA_COLOUR) before the difference of Gaussians (DOG_SIGMA, and 1.6x it) is thresholded at
 * -DOG_THRESHOLD; pieces spanning under MIN_LINE px are dropped. Chosen by looking at the quality bench's tuning
 * cartoons (bench:quality, QUALITY_SET=tuning) and their blotch share (0.2-0.8% at these values): sigma 1 drew thin,
 * broken contours, 1.5 lines wider than a pen's; more flattening (2-3 passes, grey sigma 35-40) washed a small
 * face's eyes out of the outlines; a lower threshold (1-2) drew more of fur's hairs (up to 2x the blotches).
 */
const FLATTEN_SIGMA_COLOUR = 30;
const DOG_SIGMA = 1.2;
const DOG_THRESHOLD = 2.5;
const MIN_LINE = 20;

export interface CartoonResult {
  image: RawImage;
  colours: number;
}

function toMat(cv: OpenCv, img: RawImage, track: <M extends { delete(): void }>(m: M) => M) {
  const mat = track(new cv.Mat(img.height, img.width, cv.CV_8UC3));
  mat.data.set(img.data);
  return mat;
}

export function cartoonize(cv: OpenCv, photo: RawImage, progress: (percent: number) => void): CartoonResult {
  const rgb = photo.channels === 3 ? photo : toRgb(photo);
  const { width: w, height: h } = rgb;
  const n = w * h;
  return withMats((track) => {
    const src = toMat(cv, rgb, track);
    const scale = Math.min(1, ANALYSIS_SIDE / Math.max(w, h));
    const aw = Math.max(2, Math.round(w * scale));
    const ah = Math.max(2, Math.round(h * scale));
    const analysis = track(new cv.Mat());
    cv.resize(src, analysis, new cv.Size(aw, ah), 0, 0, cv.INTER_AREA);

    // Flatten texture: bilateral passes at half the analysis size, then back to full size.
    let a = track(new cv.Mat());
    cv.resize(analysis, a, new cv.Size(Math.max(1, aw >> 1), Math.max(1, ah >> 1)), 0, 0, cv.INTER_AREA);
    let b = track(new cv.Mat());
    for (let i = 0; i < 4; i++) {
      cv.bilateralFilter(a, b, 9, 30, 7);
      [a, b] = [b, a];
    }
    progress(35);
    const smooth = track(new cv.Mat());
    cv.resize(a, smooth, new cv.Size(w, h), 0, 0, cv.INTER_LINEAR);
    const lab = track(new cv.Mat());
    cv.cvtColor(smooth, lab, cv.COLOR_RGB2Lab);

    // Palette: k-means on a sample of Lab pixels of the smoothed photo.
    const labData: Uint8Array = lab.data;
    const step = Math.max(1, Math.floor(n / 8000));
    const count = Math.floor(n / step);
    const samples = track(new cv.Mat(count, 3, cv.CV_32F));
    const sd: Float32Array = samples.data32F;
    for (let i = 0; i < count; i++) for (let c = 0; c < 3; c++) sd[i * 3 + c] = labData[i * step * 3 + c] as number;
    const k = Math.min(COLOURS, count);
    const labels = track(new cv.Mat());
    const centers = track(new cv.Mat());
    cv.setRNGSeed(1);
    const criteria = new cv.TermCriteria(cv.TermCriteria_EPS + cv.TermCriteria_MAX_ITER, 15, 1);
    cv.kmeans(samples, k, labels, criteria, 2, cv.KMEANS_PP_CENTERS, centers);
    const cen = Float32Array.from(centers.data32F as Float32Array);
    progress(60);

    // Every pixel to its nearest palette entry; each entry's colour is the mean colour of its pixels.
    const label = new Uint8Array(n);
    const sums = new Float64Array(k * 4);
    const smoothData: Uint8Array = smooth.data;
    for (let i = 0; i < n; i++) {
      const l0 = labData[i * 3] as number;
      const l1 = labData[i * 3 + 1] as number;
      const l2 = labData[i * 3 + 2] as number;
      let best = 0;
      let bestD = Number.POSITIVE_INFINITY;
      for (let j = 0; j < k; j++) {
        const d0 = l0 - (cen[j * 3] as number);
        const d1 = l1 - (cen[j * 3 + 1] as number);
        const d2 = l2 - (cen[j * 3 + 2] as number);
        const d = d0 * d0 + d1 * d1 + d2 * d2;
        if (d < bestD) {
          bestD = d;
          best = j;
        }
      }
      label[i] = best;
      for (let c = 0; c < 3; c++)
        sums[best * 4 + c] = (sums[best * 4 + c] as number) + (smoothData[i * 3 + c] as number);
      sums[best * 4 + 3] = (sums[best * 4 + 3] as number) + 1;
    }
    const palette = new Uint8Array(k * 3);
    for (let j = 0; j < k; j++) {
      const m = Math.max(1, sums[j * 4 + 3] as number);
      for (let c = 0; c < 3; c++) palette[j * 3 + c] = Math.round((sums[j * 4 + c] as number) / m);
    }
    progress(75);

    // Outlines: the dark side of a difference of Gaussians of the grey analysis image, flattened first so that fur
    // and skin texture draw no lines; pieces too short to be a contour are dropped.
    const gray = track(new cv.Mat());
    cv.cvtColor(analysis, gray, cv.COLOR_RGB2GRAY);
    const flat = track(new cv.Mat());
    cv.bilateralFilter(gray, flat, 9, FLATTEN_SIGMA_COLOUR, 5);
    const edgesSmall = inkLines(cv, flat, track);
    const edges = track(new cv.Mat());
    cv.resize(edgesSmall, edges, new cv.Size(w, h), 0, 0, cv.INTER_LINEAR);
    const ink: Uint8Array = edges.data;

    const out = Buffer.alloc(n * 3);
    for (let i = 0; i < n; i++) {
      // ink is 255 on paper, 0 on a line; in between on the anti-aliased rim of a scaled-up line.
      const paper = (ink[i] as number) / 255;
      const j = label[i] as number;
      for (let c = 0; c < 3; c++) {
        out[i * 3 + c] = Math.round((palette[j * 3 + c] as number) * paper + INK * (1 - paper));
      }
    }
    return { image: { data: out, width: w, height: h, channels: 3 }, colours: k };
  });
}

/**
 * Ink lines (0 on a 255 paper mask): where a difference of Gaussians of the grey image is below -DOG_THRESHOLD, the
 * dark side of an edge, as an inker draws it. Pieces that span fewer than MIN_LINE pixels are dots and dashes left
 * by texture, not contours, and are dropped.
 */
function inkLines(cv: OpenCv, grey: OpenCv, track: <M extends { delete(): void }>(m: M) => M): OpenCv {
  const f = track(new cv.Mat());
  grey.convertTo(f, cv.CV_32F);
  const narrow = track(new cv.Mat());
  const wide = track(new cv.Mat());
  cv.GaussianBlur(f, narrow, new cv.Size(0, 0), DOG_SIGMA);
  cv.GaussianBlur(f, wide, new cv.Size(0, 0), DOG_SIGMA * 1.6);
  const d: Float32Array = narrow.data32F;
  const e: Float32Array = wide.data32F;
  const lines = track(new cv.Mat(grey.rows, grey.cols, cv.CV_8UC1));
  const l: Uint8Array = lines.data;
  for (let i = 0; i < l.length; i++) l[i] = (d[i] as number) - (e[i] as number) < -DOG_THRESHOLD ? 255 : 0;
  const labels = track(new cv.Mat());
  const stats = track(new cv.Mat());
  const centroids = track(new cv.Mat());
  const count = cv.connectedComponentsWithStats(lines, labels, stats, centroids, 8, cv.CV_32S);
  const st: Int32Array = stats.data32S;
  const keep = new Uint8Array(count);
  for (let j = 1; j < count; j++) {
    keep[j] =
      Math.max(st[j * 5 + cv.CC_STAT_WIDTH] as number, st[j * 5 + cv.CC_STAT_HEIGHT] as number) >= MIN_LINE ? 1 : 0;
  }
  const lab: Int32Array = labels.data32S;
  const paper = track(new cv.Mat(grey.rows, grey.cols, cv.CV_8UC1));
  const p: Uint8Array = paper.data;
  for (let i = 0; i < p.length; i++) p[i] = keep[lab[i] as number] ? 0 : 255;
  return paper;
}

function toRgb(img: RawImage): RawImage {
  const n = img.width * img.height;
  const data = Buffer.alloc(n * 3);
  for (let i = 0; i < n; i++) {
    for (let c = 0; c < 3; c++) data[i * 3 + c] = img.data[i * img.channels + (img.channels >= 3 ? c : 0)] as number;
  }
  return { data, width: img.width, height: img.height, channels: 3 };
}

export default defineEngine('cartoonization', {
  async run(input, ctx) {
    ctx.progress({ stage: 'Loading', percent: 2 });
    const cv = await loadOpenCv();
    ctx.progress({ stage: 'Reading the photo', percent: 8 });
    const photo = await decode(input.image);
    ctx.progress({ stage: 'Flattening colours', percent: 12 });
    let colours = 0;
    // Very large photos are drawn at MAX_PIXELS and scaled back: a cartoon gains nothing from more, and OpenCV.js
    // would hold several full-size copies in its WebAssembly heap.
    const { image, scale } = await processFitted(photo, MAX_PIXELS, (img) => {
      const result = cartoonize(cv, img, (percent) =>
        ctx.progress({ stage: percent < 75 ? 'Flattening colours' : 'Drawing outlines', percent }),
      );
      colours = result.colours;
      return result.image;
    });
    ctx.progress({ stage: 'Encoding', percent: 90 });
    const png = await encodePng(image);
    return {
      images: [png],
      metadata: {
        method: 'bilateral filter, k-means palette (Lab), difference-of-Gaussians outlines',
        colours,
        workScale: Math.round(scale * 1000) / 1000,
      },
    };
  },
  /** Loads OpenCV.js (it compiles its WebAssembly, ~0.6 s) and draws once, when the engine host starts. */
  warm: warmWithSmallJob,
});
