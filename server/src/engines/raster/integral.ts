/** Integral images (summed-area tables): the sum over any window in four look-ups. */

/** The sum over [x0, x1) x [y0, y1) from an integral image of row length W. */
export function windowSum(s: Float64Array, W: number, x0: number, y0: number, x1: number, y1: number): number {
  return (
    (s[y1 * W + x1] as number) - (s[y0 * W + x1] as number) - (s[y1 * W + x0] as number) + (s[y0 * W + x0] as number)
  );
}
