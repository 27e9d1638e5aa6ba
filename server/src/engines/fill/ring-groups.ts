/**
 * A hole's ring of colours grouped (k-means on the local mean colour) and each group judged background or a
 * neighbouring object, for the fill's source map (fill-sources.ts, which says how).
 */

/** Groups on one hole's ring at most (before merging). */
const CLUSTERS = 4;
/** Groups whose means are closer than this (8-bit levels, RGB distance) are one group. */
const MERGE = 24;
/**
 * A group covering at least this share of the ring is background wherever it lies (an object the brush overlapped
 * can fill a third of the ring: a saucer, a model rocket).
 */
const BACKGROUND_SHARE = 0.5;
/** Groups under this share of the ring are left alone (a speck, not an object). */
const MIN_SHARE = 0.04;
/** Angular bins around a hole's centre; a group on bins this far apart (of 16) lies on opposite sides. */
const BINS = 16;
const OPPOSITE = 7;
/**
 * An object's group lies at least this many (summed) spreads from every background group's mean colour (measured by
 * colourSeparation): at 1.5 a white model rocket by a beige wall (1.41 apart in plain RGB) was taken for background
 * and pasted into the hole.
 */
const SEPARATION = 1.35;
/**
 * In that separation, a group darker than a background group along the background's own colour (the same colour in
 * less light: a shadow, shade under a tree, a tree line against a lit field) counts at this share of its distance.
 * How dark a shade may be depends on the groups' spreads: finely grained sand at 0.6 of the light stays
 * background, and so does a grey tree line at 0.65 of the ground's grey (spreads 16-18); at half the light the
 * sand's shadow is still an object. A lighter group counts in full (a white model by a beige wall is an object).
 */
const SHADE_WEIGHT = 0.35;
/**
 * ... and a difference across the background's colour (another hue or saturation: an orange saucer on brown wood)
 * counts this many times: a shade keeps its colour, an object brings its own.
 */
const HUE_WEIGHT = 1.5;
/**
 * A darker group of the background's colour whose grain (relative to its brightness) is the background's is a shade
 * whatever its depth (grainedShade): within this factor of the background's grain ...
 */
const GRAIN_MATCH = 1.5;
/**
 * ... on a ground with a grain to compare: a median step between neighbours of at least this share of the ground's
 * brightness (concrete 0.04, sand 0.1; a smooth saucer 0.02, sky under 0.01, where the steps are noise).
 */
const GRAIN_FLOOR = 0.03;
/**
 * On a smooth ground (every background group's grain under GRAIN_FLOOR: sky, a backdrop, a painted wall) a darker
 * group below this share of the ground's brightness is an object, however near its colour. On the 345 seen cases the
 * smooth shades of smooth grounds lay at 0.72 of the light and above; the objects taken for shades lay at 0.48-0.57
 * (a plane's fairing against the sky, wing-pod +6.5 dB; a thumbstick on a backdrop, gamepad-stick +7.1 dB). Where part
 * of the ground is grained the shade test alone decides: a dark roof a blob crosses (castle-roof) lost 3.6 dB as an
 * object.
 */
const SMOOTH_SHADE_DEPTH = 0.6;
/**
 * On any ground, a darker group below this share of the ground's brightness with over GRAIN_CONTRAST times the
 * ground's grain is an object (deepTextured): a fir against a sunset sky (0.2 of its brightness, 4-10x its grain;
 * taken for a shade, its twigs were carried into the sky: sundown-tree 21.4 -> 24.2 dB, the only seen case it
 * changes). A dark roof by a pale sky (0.59, 16x) stays a shade, as castle-roof needs.
 */
const DEEP_DEPTH = 0.4;
const GRAIN_CONTRAST = 3;
/** A group's grain is its ring pixels' median; with fewer samples than this it is unknown. */
const GRAIN_SAMPLES = 16;

export interface Group {
  mean: [number, number, number];
  spread: number;
  foreign: boolean;
}

export interface RingGroup extends Group {
  background: boolean;
  /** Share of the ring. */
  share: number;
  /** Median grain relative to brightness on the group's ring pixels (relativeGrain), -1 if unknown. */
  grain: number;
}

/** k-means of a ring's mean colours, merged, each group judged background or object. */
export function ringGroups(
  ring: number[],
  mean: Float32Array,
  grain: Float32Array,
  w: number,
  ox: number,
  oy: number,
): Group[] {
  const m = ring.length;
  const col = (p: number, c: number) => mean[3 * p + c] as number;
  // Farthest-point start: the ring's mean, then repeatedly the pixel farthest from every centre so far.
  const centres: number[][] = [];
  const avg = [0, 1, 2].map((c) => ring.reduce((s, p) => s + col(p, c), 0) / m);
  let far = ring[0] as number;
  let farD = -1;
  for (const p of ring) {
    const d =
      (col(p, 0) - (avg[0] as number)) ** 2 +
      (col(p, 1) - (avg[1] as number)) ** 2 +
      (col(p, 2) - (avg[2] as number)) ** 2;
    if (d > farD) {
      farD = d;
      far = p;
    }
  }
  centres.push([col(far, 0), col(far, 1), col(far, 2)]);
  const nearest = new Float32Array(m).fill(Number.POSITIVE_INFINITY);
  while (centres.length < CLUSTERS) {
    const c = centres[centres.length - 1] as number[];
    let bi = -1;
    let bd = -1;
    for (let i = 0; i < m; i++) {
      const p = ring[i] as number;
      const d =
        (col(p, 0) - (c[0] as number)) ** 2 + (col(p, 1) - (c[1] as number)) ** 2 + (col(p, 2) - (c[2] as number)) ** 2;
      if (d < (nearest[i] as number)) nearest[i] = d;
      if ((nearest[i] as number) > bd) {
        bd = nearest[i] as number;
        bi = i;
      }
    }
    if (bd < MERGE * MERGE) break;
    const p = ring[bi] as number;
    centres.push([col(p, 0), col(p, 1), col(p, 2)]);
  }
  const assign = new Int32Array(m);
  for (let it = 0; it < 8; it++) {
    const sums = centres.map(() => [0, 0, 0, 0]);
    for (let i = 0; i < m; i++) {
      const p = ring[i] as number;
      let best = 0;
      let bd = Number.POSITIVE_INFINITY;
      for (let k = 0; k < centres.length; k++) {
        const c = centres[k] as number[];
        const d =
          (col(p, 0) - (c[0] as number)) ** 2 +
          (col(p, 1) - (c[1] as number)) ** 2 +
          (col(p, 2) - (c[2] as number)) ** 2;
        if (d < bd) {
          bd = d;
          best = k;
        }
      }
      assign[i] = best;
      const s = sums[best] as number[];
      for (let c = 0; c < 3; c++) s[c] = (s[c] as number) + col(p, c);
      s[3] = (s[3] as number) + 1;
    }
    for (let k = 0; k < centres.length; k++) {
      const s = sums[k] as number[];
      if ((s[3] as number) > 0) centres[k] = [0, 1, 2].map((c) => (s[c] as number) / (s[3] as number));
    }
  }
  // Merge groups whose centres are close.
  const root = centres.map((_, k) => k);
  for (let a = 0; a < centres.length; a++) {
    for (let b = 0; b < a; b++) {
      const ca = centres[a] as number[];
      const cb = centres[b] as number[];
      if (Math.hypot(...[0, 1, 2].map((c) => (ca[c] as number) - (cb[c] as number))) < MERGE)
        root[a] = root[b] as number;
    }
  }
  const stats = new Map<number, { n: number; s: number[]; s2: number; bins: number[]; grains: number[] }>();
  for (let i = 0; i < m; i++) {
    const g = root[assign[i] as number] as number;
    const p = ring[i] as number;
    const st = stats.get(g) ?? { n: 0, s: [0, 0, 0], s2: 0, bins: new Array(BINS).fill(0), grains: [] as number[] };
    const gr = grain[p] as number;
    if (gr >= 0) st.grains.push(gr);
    st.n++;
    for (let c = 0; c < 3; c++) {
      st.s[c] = (st.s[c] as number) + col(p, c);
      st.s2 += col(p, c) ** 2;
    }
    const x = p % w;
    const a = Math.atan2(Math.floor(p / w) - oy, x - ox);
    const bin = Math.min(BINS - 1, Math.floor(((a + Math.PI) / (2 * Math.PI)) * BINS));
    st.bins[bin] = (st.bins[bin] as number) + 1;
    stats.set(g, st);
  }
  let largest = -1;
  let largestN = -1;
  for (const [g, st] of stats) {
    if (st.n > largestN) {
      largestN = st.n;
      largest = g;
    }
  }
  const out: RingGroup[] = [];
  for (const [g, st] of stats) {
    const mu = st.s.map((v) => v / st.n) as [number, number, number];
    const variance = Math.max(0, st.s2 / st.n - (mu[0] ** 2 + mu[1] ** 2 + mu[2] ** 2));
    const share = st.n / m;
    const floor = Math.max(3, 0.02 * st.n);
    const occupied = st.bins.map((v, i) => (v >= floor ? i : -1)).filter((i) => i >= 0);
    let opposite = false;
    for (const a of occupied) {
      for (const b of occupied) {
        const d = Math.abs(a - b);
        if (Math.min(d, BINS - d) >= OPPOSITE) opposite = true;
      }
    }
    const background = g === largest || share >= BACKGROUND_SHARE || opposite;
    out.push({
      mean: mu,
      spread: Math.sqrt(variance) + 10,
      foreign: false,
      background,
      share,
      grain: medianGrain(st.grains),
    });
  }
  // A group between the largest and another group in colour, on opposite sides only because the edge between those
  // two runs round the hole, is their mixture at the edge (the mean colour of a window across it): dropped.
  const main = out.find((g) => g.share === Math.max(...out.map((o) => o.share)));
  const mixes = (g: (typeof out)[number]) =>
    main !== undefined &&
    out.some((f) => {
      if (f === g || f === main || f.background) return false;
      const d = [0, 1, 2].map((c) => (f.mean[c] as number) - (main.mean[c] as number));
      const e = [0, 1, 2].map((c) => (g.mean[c] as number) - (main.mean[c] as number));
      const len2 = d.reduce((a, v) => a + v * v, 0) || 1;
      const t = d.reduce((a, v, c) => a + v * (e[c] as number), 0) / len2;
      const off = Math.hypot(...[0, 1, 2].map((c) => (e[c] as number) - t * (d[c] as number)));
      return t > 0.15 && t < 0.85 && off < g.spread;
    });
  const kept = out.filter((g) => g === main || g.share >= BACKGROUND_SHARE || !mixes(g));
  markObjects(kept);
  return kept;
}

/** Marks which of a ring's groups that are not background are neighbouring objects (`foreign`). */
export function markObjects(kept: RingGroup[]): void {
  // An object stands apart from the background in colour: a group within SEPARATION spreads of a background group
  // is a shade of the background (grass in light, a tree line at the horizon, a shadow on the ground) and stays a
  // source. The distance weighs a darker shade of the background's own colour lightly and a change of hue heavily
  // (colourSeparation). A darker group of the background's colour farther than that is still a shade when it has
  // the background's grain (grainedShade: a deep shadow on concrete); it is then no object, though not background
  // either (other groups are not measured against it). On a smooth ground, with no grain to tell by, a group deeper
  // than SMOOTH_SHADE_DEPTH is an object; on any ground, so is a far darker group far more grained (deepTextured).
  const smoothGround = kept.every((b) => !b.background || (b.grain >= 0 && b.grain < GRAIN_FLOOR));
  for (const g of kept) {
    if (g.background || g.share < MIN_SHARE) continue;
    g.foreign = kept.every(
      (b) =>
        !b.background ||
        (smoothGround && Math.hypot(...g.mean) < SMOOTH_SHADE_DEPTH * Math.hypot(...b.mean)) ||
        deepTextured(g, b) ||
        (colourSeparation(g.mean, b.mean) >= SEPARATION * (g.spread + b.spread) && !grainedShade(g, b)),
    );
  }
}

/** Whether group `g` is far darker than ground `b` and much more grained (DEEP_DEPTH, GRAIN_CONTRAST). */
function deepTextured(g: RingGroup, b: RingGroup): boolean {
  return (
    g.grain >= 0 &&
    b.grain >= 0 &&
    Math.hypot(...g.mean) < DEEP_DEPTH * Math.hypot(...b.mean) &&
    g.grain > GRAIN_CONTRAST * b.grain
  );
}

/**
 * Whether group `g` is background `b` in less light by its grain: darker, of `b`'s colour (its difference across `b`
 * within SEPARATION spreads), beside a ground with a grain (GRAIN_FLOOR), with the ground's grain relative to its
 * brightness (within a factor GRAIN_MATCH). A shadow darkens the ground's grain with it, so that ratio stays; a dark
 * object has its own surface (a spoon's highlights and reflections, a smooth lid). However dark the group is.
 */
function grainedShade(g: RingGroup, b: RingGroup): boolean {
  if (g.grain < 0 || b.grain < GRAIN_FLOOR) return false;
  if (g.grain > GRAIN_MATCH * b.grain || GRAIN_MATCH * g.grain < b.grain) return false;
  const [along, across] = splitColour(g.mean, b.mean);
  return along < 0 && HUE_WEIGHT * across < SEPARATION * (g.spread + b.spread);
}

/**
 * How far colour `g` lies from a background colour `b`, in levels: the difference is split into its part along `b`
 * (lighter or darker, the same colour) and its part across `b` (another hue), weighted by SHADE_WEIGHT when `g` is
 * darker and by HUE_WEIGHT across. For grey backgrounds the part across is the tint.
 */
function colourSeparation(g: readonly number[], b: readonly number[]): number {
  const [along, across] = splitColour(g, b);
  return Math.hypot(along < 0 ? SHADE_WEIGHT * along : along, HUE_WEIGHT * across);
}

/** `g - b` split into its signed length along `b` and its length across `b` (levels). */
function splitColour(g: readonly number[], b: readonly number[]): [number, number] {
  const b0 = b[0] as number;
  const b1 = b[1] as number;
  const b2 = b[2] as number;
  const len = Math.hypot(b0, b1, b2) || 1;
  const d0 = (g[0] as number) - b0;
  const d1 = (g[1] as number) - b1;
  const d2 = (g[2] as number) - b2;
  const along = (d0 * b0 + d1 * b1 + d2 * b2) / len;
  return [along, Math.hypot(d0 - (along * b0) / len, d1 - (along * b1) / len, d2 - (along * b2) / len)];
}

/** The median of a group's grain samples, or -1 (unknown) with fewer than GRAIN_SAMPLES. */
function medianGrain(v: number[]): number {
  if (v.length < GRAIN_SAMPLES) return -1;
  const s = Float64Array.from(v).sort();
  return s[s.length >> 1] as number;
}
