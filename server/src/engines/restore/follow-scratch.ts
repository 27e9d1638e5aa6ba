/**
 * A found scratch followed past its ends (docs/quality.md, "Finding marks"). Where a scratch crosses busy parts its
 * segments no longer stand out of the texture and the detector loses it; knowing where it runs and which way, the
 * search along its course can ask for less: from each end, step by step along the direction of its last `span`
 * pixels, onto the strongest top-hat pixel within 2 px of the course, which must reach `bar` and stand out of the
 * top-hat 4–5 px to either side (a scratch is a ridge; texture is as strong beside it). The course is re-aimed along
 * the steps taken every `span` steps, and follows the ridge by at most FOLLOW_DRIFT px aside per step, so that it
 * keeps to a gently curved scratch and does not turn onto the line it meets. It ends where fewer than FOLLOW_SHARE
 * of the last `span` steps found the ridge; the ridge pixels up to the last one found (and their neighbours that
 * reach `bar`) are the scratch's continuation at that end.
 */

/**
 * At most this many px aside per step (8.5°). On the seen photos 0.5 turned scratches onto tripod legs (the camera
 * photo's rest fell by 2.5 dB); 0.3 and 0.15 found as much, 0.05 less.
 */
const FOLLOW_DRIFT = 0.15;
/** A step's ridge stands out of the top-hat beside it this many times. Without it the search ran on through grass. */
const FOLLOW_SIDE = 2;
/** The share of the last `span` steps that must find the ridge; 0.55 and 0.85 moved the seen photos by ±0.2 points. */
const FOLLOW_SHARE = 0.7;

export interface Continuation {
  pixels: number[];
  /** Its direction, in [0, π) from the x axis (y down), as the detector's angles are. */
  angle: number;
}

/** The continuations of the scratch `pixels` past its two ends, on the top-hat `t` (w x h). */
export function followScratch(
  t: Float32Array,
  w: number,
  h: number,
  pixels: number[],
  span: number,
  bar: number,
): Continuation[] {
  const xs = pixels.map((p) => p % w);
  const ys = pixels.map((p) => Math.floor(p / w));
  const axis = principal(xs, ys);
  const along = pixels.map((_, i) => (xs[i] as number) * axis.dx + (ys[i] as number) * axis.dy);
  // A reduction, not Math.min(...along): a long scratch on a large photo has more pixels than a call takes arguments.
  const [lo, hi] = along.reduce(([a, b], v) => [Math.min(a, v), Math.max(b, v)], [Infinity, -Infinity]);
  const ends: Continuation[] = [];
  for (const outward of [-1, 1]) {
    // The end: the scratch's last `span` px along its axis, and their direction, pointing out of the scratch.
    const end = along.flatMap((v, i) => ((outward > 0 ? v >= hi - span : v <= lo + span) ? [i] : []));
    if (end.length < 3) continue;
    let { dx, dy } = principal(
      end.map((i) => xs[i] as number),
      end.map((i) => ys[i] as number),
    );
    if ((dx * axis.dx + dy * axis.dy) * outward < 0) [dx, dy] = [-dx, -dy];
    const tip = end.reduce((a, b) =>
      (xs[b] as number) * dx + (ys[b] as number) * dy > (xs[a] as number) * dx + (ys[a] as number) * dy ? b : a,
    );
    let [cx, cy] = [xs[tip] as number, ys[tip] as number];
    const ridges: number[] = [];
    const found: boolean[] = [];
    const course: [number, number][] = [];
    let misses = 0;
    let last = -1;
    while (misses <= (1 - FOLLOW_SHARE) * span && ridges.length < w + h) {
      if (course.length >= span && course.length % span === 0) {
        const aim = principal(
          course.slice(-span).map(([x]) => x),
          course.slice(-span).map(([, y]) => y),
        );
        [dx, dy] = aim.dx * dx + aim.dy * dy >= 0 ? [aim.dx, aim.dy] : [-aim.dx, -aim.dy];
      }
      const [px, py] = [cx + dx, cy + dy];
      // The strongest pixel across the course, within 2 px of it.
      let ridge = -1;
      for (let o = -2; o <= 2; o++) {
        const [x, y] = [Math.round(px - o * dy), Math.round(py + o * dx)];
        if (x >= 0 && y >= 0 && x < w && y < h && (ridge < 0 || (t[y * w + x] as number) > (t[ridge] as number)))
          ridge = y * w + x;
      }
      if (ridge < 0) break;
      const [rx, ry] = [ridge % w, Math.floor(ridge / w)];
      const v = t[ridge] as number;
      const hit = v >= bar && v >= FOLLOW_SIDE * beside(t, w, h, rx, ry, dx, dy);
      ridges.push(ridge);
      found.push(hit);
      if (hit) last = ridges.length - 1;
      misses += hit ? 0 : 1;
      if (found.length > span && !found[found.length - 1 - span]) misses--;
      const aside = Math.max(-FOLLOW_DRIFT, Math.min(FOLLOW_DRIFT, (rx - px) * -dy + (ry - py) * dx));
      [cx, cy] = [px - aside * dy, py + aside * dx];
      course.push([cx, cy]);
    }
    const out = new Set<number>();
    for (const ridge of ridges.slice(0, last + 1)) {
      const x = ridge % w;
      for (let oy = -w; oy <= w; oy += w)
        for (let ox = -1; ox <= 1; ox++) {
          const q = ridge + oy + ox;
          if (x + ox >= 0 && x + ox < w && q >= 0 && q < t.length && (t[q] as number) >= bar) out.add(q);
        }
    }
    const angle = Math.atan2(dy, dx);
    if (out.size) ends.push({ pixels: [...out], angle: angle < 0 ? angle + Math.PI : angle });
  }
  return ends;
}

/** The mean top-hat 4 and 5 px to either side of (x, y), across the direction (dx, dy). */
function beside(t: Float32Array, w: number, h: number, x: number, y: number, dx: number, dy: number): number {
  let sum = 0;
  let n = 0;
  for (const o of [-5, -4, 4, 5]) {
    const [sx, sy] = [Math.round(x - o * dy), Math.round(y + o * dx)];
    if (sx < 0 || sy < 0 || sx >= w || sy >= h) continue;
    sum += t[sy * w + sx] as number;
    n++;
  }
  return n ? sum / n : 0;
}

/** The principal direction (a unit vector) of a set of points. */
function principal(xs: number[], ys: number[]): { dx: number; dy: number } {
  const n = xs.length;
  const mx = xs.reduce((a, b) => a + b, 0) / n;
  const my = ys.reduce((a, b) => a + b, 0) / n;
  let [xx, yy, xy] = [0, 0, 0];
  for (let i = 0; i < n; i++) {
    const [ex, ey] = [(xs[i] as number) - mx, (ys[i] as number) - my];
    xx += ex * ex;
    yy += ey * ey;
    xy += ex * ey;
  }
  const angle = 0.5 * Math.atan2(2 * xy, xx - yy);
  return { dx: Math.cos(angle), dy: Math.sin(angle) };
}
