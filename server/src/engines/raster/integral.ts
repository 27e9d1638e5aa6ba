/** Integral images (summed-area tables): the sum over any window in four look-ups. */

/** The sum over [x0, x1) x [y0, y1) from an integral image of row length W. */
export function windowSum(s: Float64Array, W: number, x0: number, y0: number, x1: number, y1: number): number {
  return (
    (s[y1 * W + x1] as number) - (s[y0 * W + x1] as number) - (s[y1 * W + x0] as number) + (s[y0 * W + x0] as number)
  );
}

/**
 * The integral image of a w x h plane: (w + 1) x (h + 1) sums, row and column 0 zero, to read with windowSum (W = w + 1).
 */
export function integralImage(plane: ArrayLike<number>, w: number, h: number): Float64Array {
  const W = w + 1;
  const s = new Float64Array(W * (h + 1));
  for (let y = 0; y < h; y++) {
    let row = 0;
    for (let x = 0; x < w; x++) {
      row += plane[y * w + x] as number;
      const o = (y + 1) * W + x + 1;
      s[o] = (s[o - W] as number) + row;
    }
  }
  return s;
}
