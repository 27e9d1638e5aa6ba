/** How grainy a photo is, for photo restoration's choice to reduce grain (local/photo-restoration.ts). */

/**
 * Film grain's standard deviation in a luminance plane, from its flattest parts: the finest diagonal Haar
 * coefficients' median (Donoho & Johnstone 1994) in each 16 x 16 block, the 10th percentile over blocks. Texture
 * raises the estimate of a whole photo (a brick wall reads as heavy grain); its flat parts show the grain alone.
 */
export function grainSigma(y: Float32Array, w: number, h: number): number {
  const B = 16;
  const estimates: number[] = [];
  const cell = new Float32Array((B / 2) * (B / 2));
  for (let by = 0; by + B <= h; by += B) {
    for (let bx = 0; bx + B <= w; bx += B) {
      let k = 0;
      for (let cy = by; cy < by + B; cy += 2) {
        for (let cx = bx; cx < bx + B; cx += 2) {
          const i = cy * w + cx;
          cell[k++] =
            Math.abs((y[i] as number) - (y[i + 1] as number) - (y[i + w] as number) + (y[i + w + 1] as number)) / 2;
        }
      }
      cell.sort();
      estimates.push((cell[cell.length >> 1] as number) / 0.6745);
    }
  }
  if (!estimates.length) return 0;
  estimates.sort((a, b) => a - b);
  return estimates[Math.floor(0.1 * (estimates.length - 1))] as number;
}
