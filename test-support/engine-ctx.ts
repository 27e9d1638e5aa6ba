/** Helpers for calling engines directly in tests: fixture photos as bytes or pixels, and a recording context. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import type { RawImage } from '../server/src/engines/raster/image.js';
import type { EngineContext, Progress } from '../server/src/engines/types.js';

export const FIXTURES = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures');

export function fixtureBytes(name: string): Buffer {
  return fs.readFileSync(path.join(FIXTURES, name));
}

/** A fixture as 8-bit RGB pixels, optionally resized (exactly) to width x height. */
export function fixturePixels(name: string, size?: { width: number; height: number }): Promise<RawImage> {
  return filePixels(path.join(FIXTURES, name), size);
}

/** A photo file as 8-bit RGB pixels, optionally resized (exactly) to width x height. */
export async function filePixels(file: string, size?: { width: number; height: number }): Promise<RawImage> {
  let p = sharp(fs.readFileSync(file)).removeAlpha().toColourspace('srgb');
  if (size) p = p.resize(size.width, size.height, { fit: 'fill' });
  const { data, info } = await p.raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as RawImage['channels'] };
}

export function toPng(img: RawImage): Promise<Buffer> {
  return sharp(img.data, { raw: { width: img.width, height: img.height, channels: img.channels } })
    .png({ compressionLevel: 1 })
    .toBuffer();
}

export async function fromPng(png: Buffer): Promise<RawImage> {
  const { data, info } = await sharp(png).raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height, channels: info.channels as RawImage['channels'] };
}

/** An engine context that records every progress report. */
export function recordingContext(threads = 1): { ctx: EngineContext; progress: Progress[] } {
  const progress: Progress[] = [];
  return { ctx: { progress: (p) => progress.push(p), threads, signal: new AbortController().signal }, progress };
}
