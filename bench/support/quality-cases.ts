/**
 * The quality bench's cases for photo restoration and HDR enhancement (bench/quality.ts): which photos, what damage or
 * exposure each gets, and the truth to score against. Held-out cases (bench/quality/held-out/) were fixed and
 * committed before either method was tuned; tuning cases (bench/quality/tuning/ and the product tests' fixtures) are
 * the ones a change may be tuned on. Photos and licences: bench/quality/CREDITS.md.
 */
import path from 'node:path';
import sharp from 'sharp';
import { decode, type RawImage } from '../../server/src/engines/raster/image.js';
import { seededRandom } from '../../server/src/engines/raster/random.js';

const QUALITY = path.resolve(import.meta.dirname, '../quality');
const FIXTURES = path.resolve(import.meta.dirname, '../../fixtures');

/**
 * `held-out` judged the restoration and HDR methods of issue 45 and is seen now; each later held-out set was committed
 * before the change it judged ran on it. A tool has cases in the sets made for it only.
 */
export const CASE_SETS = [
  'held-out',
  'held-out-2',
  'held-out-3',
  'held-out-4',
  'held-out-5',
  'held-out-6',
  'held-out-7',
  'held-out-8',
  'held-out-9',
  'held-out-10',
  'held-out-11',
  'held-out-12',
  'tuning',
] as const;
export type CaseSet = (typeof CASE_SETS)[number];

/** A photo by its place: `held-out/x.jpg`, `tuning/x.png` (under bench/quality) or `fixtures/x.png`. */
export async function loadPhoto(where: string): Promise<RawImage> {
  const file = where.startsWith('fixtures/')
    ? path.join(FIXTURES, where.slice('fixtures/'.length))
    : path.join(QUALITY, where);
  return decode(await sharp(file).toBuffer());
}

// ---------------------------------------------------------------------------------------------------------------
// Restoration: clean grey photos given scratches and dust specks, truth known.
// ---------------------------------------------------------------------------------------------------------------

export interface RestorationCase {
  name: string;
  photo: string;
  seed: number;
}

/** A held-out set of greyscale photos, `<set>/<name>-grey.jpg`, their seeds counted from `seed`. */
function greySet(set: CaseSet, seed: number, names: string[]): RestorationCase[] {
  return names.map((name, i) => ({ name, photo: `${set}/${name}-grey.jpg`, seed: seed + i }));
}

export const RESTORATION_CASES: Partial<Record<CaseSet, RestorationCase[]>> = {
  'held-out': greySet('held-out', 101, ['meadow', 'leaf', 'summit']),
  'held-out-2': greySet('held-out-2', 111, ['cables', 'dandelions', 'brushes']),
  'held-out-3': greySet('held-out-3', 121, ['stream', 'castle', 'tvleaves']),
  'held-out-4': greySet('held-out-4', 131, ['canyon', 'abbey', 'motorcycle', 'pier']),
  'held-out-5': greySet('held-out-5', 141, ['forest', 'hotel', 'raccoon', 'deck', 'jetty']),
  'held-out-6': greySet('held-out-6', 151, ['squirrel', 'pagoda', 'aloe', 'leuven']),
  'held-out-7': greySet('held-out-7', 161, ['samoyeds', 'railing', 'billiards', 'clock', 'towers']),
  'held-out-8': greySet('held-out-8', 171, ['hound', 'facade', 'openbook', 'lonetree', 'catroom']),
  'held-out-9': greySet('held-out-9', 181, ['lamps', 'kite', 'nuthatch', 'gamepad', 'rabbit']),
  'held-out-10': greySet('held-out-10', 191, ['calculator', 'chameleon', 'lake', 'seeds', 'wine']),
  'held-out-11': greySet('held-out-11', 211, ['airport', 'bassguitar', 'citrus', 'hummingbird', 'raft']),
  'held-out-12': greySet('held-out-12', 221, ['appleflower', 'headphones', 'ridges', 'tank', 'waves']),
  tuning: [
    { name: 'camera', photo: 'fixtures/camera.png', seed: 201 },
    { name: 'brick', photo: 'tuning/brick.png', seed: 202 },
    { name: 'gravel', photo: 'tuning/gravel.png', seed: 203 },
  ],
};

export interface DamagedPhoto {
  clean: RawImage;
  damaged: RawImage;
  /** Where a scratch (1) or a speck (2) covers at least a quarter of the pixel: the damaged pixels. */
  damage: Uint8Array;
  /** 1 more than 2 px away from any pixel a mark touches at all: the undamaged rest. */
  rest: Uint8Array;
}

/** Marks drawn per photo, and their sizes in pixels (the photos are 512-768 px on their long side). */
const SCRATCHES = 8;
const SPECKS = 40;
const SCRATCH_WIDTH = [1, 3] as const;
const SPECK_RADIUS = [1, 3] as const;

/**
 * Long, gently curved scratches (half bright, half dark, 1-3 px wide, 40-90% of the photo's height, mostly near
 * vertical as film scratches run) and round dust specks (1-3 px radius, half bright, half dark), drawn anti-aliased
 * over a grey photo. Bright marks go towards 235-250, dark ones towards 10-35, at 85-100% opacity. No grain is added:
 * the photo around the marks is the truth as it is.
 */
export async function damageGrey(clean: RawImage, seed: number): Promise<DamagedPhoto> {
  const { width: w, height: h } = clean;
  const rnd = seededRandom(seed);
  const u = (a: number, b: number) => a + (b - a) * rnd();
  const marks: { svg: string; tone: number; kind: 1 | 2 }[] = [];
  for (let i = 0; i < SCRATCHES; i++) {
    const angle = i < 6 ? Math.PI / 2 + u(-0.3, 0.3) : u(0, Math.PI);
    const length = u(0.4, 0.9) * Math.min(w, h) * (i < 6 ? 1 : 1.2);
    const x0 = u(0.1, 0.9) * w;
    const y0 = u(0.05, 0.45) * h;
    const x1 = x0 + Math.cos(angle) * length;
    const y1 = y0 + Math.sin(angle) * length;
    const cx = (x0 + x1) / 2 + u(-0.05, 0.05) * w;
    const cy = (y0 + y1) / 2 + u(-0.05, 0.05) * h;
    const width = u(...SCRATCH_WIDTH);
    const opacity = u(0.85, 1);
    marks.push({
      svg: `<path d="M${x0.toFixed(1)},${y0.toFixed(1)} Q${cx.toFixed(1)},${cy.toFixed(1)} ${x1.toFixed(1)},${y1.toFixed(1)}" fill="none" stroke="#fff" stroke-opacity="${opacity.toFixed(2)}" stroke-width="${width.toFixed(2)}" stroke-linecap="round"/>`,
      tone: i % 2 ? u(10, 35) : u(235, 250),
      kind: 1,
    });
  }
  for (let i = 0; i < SPECKS; i++) {
    const r = u(...SPECK_RADIUS);
    marks.push({
      svg: `<circle cx="${u(0, w).toFixed(1)}" cy="${u(0, h).toFixed(1)}" r="${r.toFixed(2)}" fill="#fff" fill-opacity="${u(0.85, 1).toFixed(2)}"/>`,
      tone: i % 2 ? u(10, 35) : u(235, 250),
      kind: 2,
    });
  }
  const grey = Float32Array.from({ length: w * h }, (_, i) => clean.data[i * clean.channels] as number);
  const out = Float32Array.from(grey);
  const touched = new Uint8Array(w * h);
  const damage = new Uint8Array(w * h);
  for (const mark of marks) {
    const alpha = await sharp(
      Buffer.from(`<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">${mark.svg}</svg>`),
    )
      .ensureAlpha()
      .extractChannel(3)
      .raw()
      .toBuffer();
    for (let i = 0; i < w * h; i++) {
      const a = (alpha[i] as number) / 255;
      if (!a) continue;
      out[i] = (out[i] as number) * (1 - a) + mark.tone * a;
      touched[i] = 1;
      if (a >= 0.25) damage[i] = mark.kind;
    }
  }
  const rest = new Uint8Array(w * h).fill(1);
  for (let i = 0; i < w * h; i++) {
    if (!touched[i]) continue;
    const x = i % w;
    const y = (i - x) / w;
    for (let dy = -2; dy <= 2; dy++)
      for (let dx = -2; dx <= 2; dx++)
        if (x + dx >= 0 && x + dx < w && y + dy >= 0 && y + dy < h) rest[(y + dy) * w + x + dx] = 0;
  }
  const toRgb = (plane: Float32Array) => {
    const data = Buffer.alloc(w * h * 3);
    for (let i = 0; i < w * h; i++) data.fill(Math.round(plane[i] as number), 3 * i, 3 * i + 3);
    return { data, width: w, height: h, channels: 3 } as RawImage;
  };
  return { clean: toRgb(grey), damaged: toRgb(out), damage, rest };
}

// ---------------------------------------------------------------------------------------------------------------
// HDR: underexposed photos (truth: the photo before darkening), low-key and well-exposed or backlit photos as shot.
// ---------------------------------------------------------------------------------------------------------------

export type HdrKind = 'underexposed' | 'low-key' | 'well-exposed' | 'backlit';

export interface HdrCase {
  name: string;
  photo: string;
  kind: HdrKind;
  /** How an underexposed case is made from the photo: code values scaled, or linear light scaled by 2^-stops. */
  darken?: { codeScale: number } | { stops: number };
}

export const HDR_CASES: Partial<Record<CaseSet, HdrCase[]>> = {
  'held-out': [
    { name: 'dragonfly x0.35', photo: 'held-out/dragonfly.jpg', kind: 'underexposed', darken: { codeScale: 0.35 } },
    {
      name: 'orange flower x0.35',
      photo: 'held-out/orange-flower.jpg',
      kind: 'underexposed',
      darken: { codeScale: 0.35 },
    },
    { name: 'seeds -2.5 EV', photo: 'held-out/seeds.jpg', kind: 'underexposed', darken: { stops: 2.5 } },
    { name: 'dusk lake', photo: 'held-out/dusk-lake.jpg', kind: 'low-key' },
    { name: 'moss', photo: 'held-out/moss.jpg', kind: 'low-key' },
    { name: 'veins', photo: 'held-out/veins.jpg', kind: 'well-exposed' },
    { name: 'orange flower', photo: 'held-out/orange-flower.jpg', kind: 'well-exposed' },
    { name: 'summit (sun in frame)', photo: 'held-out/summit.jpg', kind: 'backlit' },
  ],
  tuning: [
    { name: 'coffee x0.35', photo: 'fixtures/coffee.png', kind: 'underexposed', darken: { codeScale: 0.35 } },
    { name: 'chelsea -2 EV', photo: 'fixtures/chelsea.png', kind: 'underexposed', darken: { stops: 2 } },
    { name: 'astronaut x0.5', photo: 'fixtures/astronaut.png', kind: 'underexposed', darken: { codeScale: 0.5 } },
    { name: 'hubble deep field', photo: 'tuning/hubble.jpg', kind: 'low-key' },
    { name: 'astronaut', photo: 'fixtures/astronaut.png', kind: 'well-exposed' },
    { name: 'coffee', photo: 'fixtures/coffee.png', kind: 'well-exposed' },
    { name: 'rocket (dusk)', photo: 'fixtures/rocket.jpg', kind: 'backlit' },
  ],
};

const toLinear = (v: number) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4);
const toCode = (v: number) => (v <= 0.0031308 ? 12.92 * v : 1.055 * v ** (1 / 2.4) - 0.055);

/** The case's input: the photo darkened as the case says, or as it is. */
export function hdrInput(photo: RawImage, c: HdrCase): RawImage {
  const d = c.darken;
  if (!d) return photo;
  const table = Uint8Array.from({ length: 256 }, (_, v) =>
    Math.round('codeScale' in d ? v * d.codeScale : 255 * toCode(toLinear(v / 255) * 2 ** -d.stops)),
  );
  return { ...photo, data: Buffer.from(photo.data.map((v) => table[v] as number)) };
}
