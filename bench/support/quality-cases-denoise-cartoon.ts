/**
 * The quality bench's cases for denoising and cartoonization (bench/quality.ts). Held-out cases were fixed and
 * committed before either method was changed; tuning cases are the ones a change may be tuned on. The photos are the
 * fill bench's (bench/fill/photos, credited in bench/fill/CREDITS.md) and the product tests' fixtures.
 */
import path from 'node:path';
import sharp from 'sharp';
import { decode, type RawImage } from '../../server/src/engines/raster/image.js';
import type { CaseSet } from './quality-cases.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** A photo by its place in the repository: `bench/fill/photos/x.jpg`, `fixtures/x.png`. */
export async function loadRepoPhoto(where: string): Promise<RawImage> {
  return decode(await sharp(path.join(ROOT, where)).toBuffer());
}

/** A rectangle of the photo, in pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/**
 * Denoising: the photo given white Gaussian noise of sigma 25 (per channel, seeded), the truth known. `texture` is
 * the fur or foliage the texture ratio is measured on, placed by eye on the photo (the whole photo when absent).
 */
export interface DenoiseCase {
  name: string;
  photo: string;
  seed: number;
  texture?: Box;
}

export const DENOISE_SIGMA = 25;

export const DENOISE_CASES: Partial<Record<CaseSet, DenoiseCase[]>> = {
  'held-out': [
    {
      name: 'raccoon fur',
      photo: 'bench/fill/photos/raccoon.jpg',
      seed: 301,
      texture: { x: 20, y: 20, w: 250, h: 180 },
    },
    {
      name: 'raccoon leaves',
      photo: 'bench/fill/photos/raccoon.jpg',
      seed: 301,
      texture: { x: 100, y: 300, w: 250, h: 170 },
    },
    { name: 'tabby fur', photo: 'bench/fill/photos/tabby.jpg', seed: 302, texture: { x: 300, y: 300, w: 200, h: 200 } },
    {
      name: 'lapdog fur',
      photo: 'bench/fill/photos/lapdog.jpg',
      seed: 303,
      texture: { x: 40, y: 330, w: 400, h: 120 },
    },
    {
      name: 'squirrel fur',
      photo: 'bench/fill/photos/squirrel.jpg',
      seed: 304,
      texture: { x: 140, y: 200, w: 100, h: 120 },
    },
    { name: 'grass', photo: 'bench/fill/photos/grass.jpg', seed: 305 },
  ],
  tuning: [
    { name: 'chelsea', photo: 'fixtures/chelsea.png', seed: 401 },
    { name: 'dogs', photo: 'fixtures/dogs.jpg', seed: 402 },
    { name: 'rabbit', photo: 'bench/fill/photos/rabbit.jpg', seed: 403 },
    { name: 'forest', photo: 'bench/fill/photos/forest.jpg', seed: 404 },
  ],
};

/** Cartoonization: photos of fur and faces, the cases where blotches and lost features showed. */
export interface CartoonCase {
  name: string;
  photo: string;
}

export const CARTOON_CASES: Partial<Record<CaseSet, CartoonCase[]>> = {
  'held-out-2': [
    { name: 'portrait (face)', photo: 'bench/quality/held-out-2/portrait-close.jpg' },
    { name: 'smile (face, hair)', photo: 'bench/quality/held-out-2/smile-frames.jpg' },
    { name: 'couple (faces)', photo: 'bench/quality/held-out-2/couple-bar.jpg' },
    { name: 'dog (dark fur)', photo: 'bench/quality/held-out-2/blackdog-close.jpg' },
  ],
  'held-out': [
    { name: 'hopper (face)', photo: 'bench/fill/photos/hopper.jpg' },
    { name: 'raccoon (fur, face)', photo: 'bench/fill/photos/raccoon.jpg' },
    { name: 'blackdog (dark fur)', photo: 'bench/fill/photos/blackdog.jpg' },
    { name: 'samoyeds (white fur)', photo: 'bench/fill/photos/samoyeds.jpg' },
    { name: 'lapdog (fur, face)', photo: 'bench/fill/photos/lapdog.jpg' },
  ],
  tuning: [
    { name: 'chelsea (fur)', photo: 'fixtures/chelsea.png' },
    { name: 'astronaut (face)', photo: 'fixtures/astronaut.png' },
    { name: 'dogs (fur)', photo: 'fixtures/dogs.jpg' },
    { name: 'rabbit (fur)', photo: 'bench/fill/photos/rabbit.jpg' },
    { name: 'catroom', photo: 'bench/fill/photos/catroom.jpg' },
  ],
};
