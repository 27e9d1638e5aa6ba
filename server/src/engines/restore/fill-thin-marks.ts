/**
 * Fills thin marks (scratches, dust) from the pixels around them by normalised convolution (Knutsson & Westin
 * 1993): each marked pixel becomes the Gaussian-weighted mean of the unmarked pixels near it, with a wider Gaussian
 * where a mark is too deep for the narrow one to reach across. Marks a few pixels wide are bridged smoothly, without
 * copying texture from elsewhere that may not belong there. Only marked pixels are computed; the rest is unchanged.
 */
export function fillThinMarks(
  data: Buffer,
  w: number,
  h: number,
  channels: number,
  mask: Uint8Array,
  onProgress?: (fraction: number) => void,
): Buffer {
  const out = Buffer.from(data);
  let pending: number[] = [];
  for (let i = 0; i < mask.length; i++) if (mask[i]) pending.push(i);
  const sigmas = [1, 3, 9];
  const acc = new Float64Array(channels);
  for (let s = 0; s < sigmas.length && pending.length; s++) {
    const sigma = sigmas[s] as number;
    const last = s === sigmas.length - 1;
    const r = Math.ceil(2.5 * sigma);
    const g = new Float64Array(2 * r + 1);
    let sum = 0;
    for (let i = -r; i <= r; i++) sum += g[i + r] = Math.exp(-(i * i) / (2 * sigma * sigma));
    for (let i = 0; i < g.length; i++) g[i] = (g[i] as number) / sum;
    const next: number[] = [];
    for (const i of pending) {
      const x = i % w;
      const y = (i - x) / w;
      let weight = 0;
      acc.fill(0);
      for (let dy = -r; dy <= r; dy++) {
        const yy = y + dy;
        if (yy < 0 || yy >= h) continue;
        const gy = g[dy + r] as number;
        for (let dx = -r; dx <= r; dx++) {
          const xx = x + dx;
          if (xx < 0 || xx >= w) continue;
          const j = yy * w + xx;
          if (mask[j]) continue;
          const wt = gy * (g[dx + r] as number);
          weight += wt;
          for (let c = 0; c < channels; c++) acc[c] = (acc[c] as number) + wt * (data[j * channels + c] as number);
        }
      }
      // Enough known pixels within reach at this scale (or the last scale: take what there is).
      if (weight >= 0.08 || (last && weight > 0)) {
        for (let c = 0; c < channels; c++) out[i * channels + c] = Math.round((acc[c] as number) / weight);
      } else {
        next.push(i);
      }
    }
    pending = next;
    onProgress?.((s + 1) / sigmas.length);
  }
  return out;
}
