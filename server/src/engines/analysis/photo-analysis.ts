/**
 * The measurements the recommendation rules look at (services/recommendations.ts): size, colour, brightness, noise,
 * and faces when a detector is given.
 */
import sharp from 'sharp';
import { lumaAt, type RawImage } from '../raster/image.js';
import { estimateNoiseSigma } from '../restore/nlmeans.js';

/** What the rules look at, measured on the uploaded photo. */
export interface PhotoAnalysis {
  width: number;
  height: number;
  /** 95th percentile of max(R,G,B) - min(R,G,B) over the pixels: near 0 for a black-and-white photo. */
  chromaP95: number;
  /** Mean Rec. 601 luma, 0-255. */
  meanLuma: number;
  /** Estimated standard deviation of white noise in the luma, 0-255 scale, at the photo's own resolution. */
  noiseSigma: number;
  /** Detection scores of the faces found; absent when no face detector ran. */
  faces?: number[];
}

/** A face detector (models/faces.ts, in an engine host); kept out of this module so the API need not load tfjs. */
export type FaceDetector = (
  img: RawImage,
) => Promise<{ score: number; box: [number, number, number, number]; outline: readonly unknown[] }[]>;

/** Colour and brightness are judged on a small copy; noise needs the photo's own pixels (shrinking averages it away). */
const STATS_SIZE = 256;
const NOISE_CROP = 768;
/** Faces are looked for on a copy this size: the detector works at 256 px anyway, and small faces still count. */
const FACE_SIZE = 1024;
/** Faces smaller than this share of the photo's short side are too small to enhance usefully. */
const MIN_FACE_SHARE = 0.05;
const MIN_FACE_SCORE = 0.6;

export async function analysePhoto(bytes: Buffer, detectFaces?: FaceDetector): Promise<PhotoAnalysis> {
  const base = sharp(bytes, { failOn: 'error' }).rotate();
  const meta = await base.metadata();
  const width = meta.autoOrient?.width ?? meta.width;
  const height = meta.autoOrient?.height ?? meta.height;

  const small = await base
    .clone()
    .flatten({ background: '#ffffff' })
    .toColourspace('srgb')
    .resize(STATS_SIZE, STATS_SIZE, { fit: 'inside', withoutEnlargement: true })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const { chromaP95, meanLuma } = colourStats(small.data, small.info.channels);

  // Noise: the central crop of the luma at full resolution.
  const cw = Math.min(width, NOISE_CROP);
  const ch = Math.min(height, NOISE_CROP);
  const crop = await base
    .clone()
    .flatten({ background: '#ffffff' })
    .extract({ left: (width - cw) >> 1, top: (height - ch) >> 1, width: cw, height: ch })
    .greyscale()
    .raw()
    .toBuffer({ resolveWithObject: true });
  const plane = Float32Array.from(crop.data);
  const noiseSigma = estimateNoiseSigma(plane, crop.info.width, crop.info.height);

  const analysis: PhotoAnalysis = { width, height, chromaP95, meanLuma, noiseSigma };
  if (detectFaces) {
    const { data, info } = await base
      .clone()
      .flatten({ background: '#ffffff' })
      .toColourspace('srgb')
      .resize(FACE_SIZE, FACE_SIZE, { fit: 'inside', withoutEnlargement: true })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const minSide = MIN_FACE_SHARE * Math.min(info.width, info.height);
    const faces = await detectFaces({ data, width: info.width, height: info.height, channels: 3 });
    analysis.faces = faces
      // The detector alone also fires on animal faces (the cat in chelsea.png scores 0.83); the face mesh only
      // fits a human face, so a face counts when its mesh was found too.
      .filter((f) => f.score >= MIN_FACE_SCORE && f.outline.length > 0 && Math.min(f.box[2], f.box[3]) >= minSide)
      .map((f) => f.score);
  }
  return analysis;
}

function colourStats(data: Buffer, channels: number): { chromaP95: number; meanLuma: number } {
  const n = data.length / channels;
  const hist = new Uint32Array(256);
  let lumaSum = 0;
  for (let i = 0; i < data.length; i += channels) {
    const r = data[i] as number;
    const g = (channels >= 3 ? data[i + 1] : r) as number;
    const b = (channels >= 3 ? data[i + 2] : r) as number;
    const c = Math.max(r, g, b) - Math.min(r, g, b);
    hist[c] = (hist[c] as number) + 1;
    lumaSum += channels >= 3 ? lumaAt(data, i) : r;
  }
  let seen = 0;
  let chromaP95 = 255;
  for (let c = 0; c < 256; c++) {
    seen += hist[c] as number;
    if (seen >= 0.95 * n) {
      chromaP95 = c;
      break;
    }
  }
  return { chromaP95, meanLuma: lumaSum / n };
}
