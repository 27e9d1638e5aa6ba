/**
 * Tiling for models that cannot take a whole photo at once: tiles overlap, and each tile's output is feathered
 * into its neighbours over the overlap, so a model's edge effects (zero padding at a tile's border) fade out
 * instead of showing as seams.
 */

export interface Tile {
  x: number;
  y: number;
  width: number;
  height: number;
}

/**
 * Segments of one axis: the fewest that cover `length` with at most `size` px each and `overlap` px shared between
 * neighbours, each as short as that allows. (Full-size segments spread over the length would overlap far more: at
 * 1024 px with 512 px tiles, three 512 px segments make the model see 2.25x the pixels; three of 363 px, 1.13x.)
 */
function segments(length: number, size: number, overlap: number): { start: number; length: number }[] {
  if (length <= size) return [{ start: 0, length }];
  const n = Math.ceil((length - overlap) / (size - overlap));
  const len = Math.min(size, Math.ceil((length + (n - 1) * overlap) / n));
  const step = (length - len) / (n - 1);
  return Array.from({ length: n }, (_, i) => ({ start: Math.round(i * step), length: len }));
}

/** Tiles of at most `tileSize` px covering a `width`x`height` image, neighbours overlapping by at least `overlap`. */
export function planTiles(width: number, height: number, tileSize: number, overlap: number): Tile[] {
  if (overlap * 2 >= tileSize) throw new Error('Tile overlap must be less than half the tile size');
  const tiles: Tile[] = [];
  for (const y of segments(height, tileSize, overlap)) {
    for (const x of segments(width, tileSize, overlap)) {
      tiles.push({ x: x.start, y: y.start, width: x.length, height: y.length });
    }
  }
  return tiles;
}

/** Weight ramp of one axis: rises over `rampIn` px at the start and falls over `rampOut` px at the end. */
function ramp(length: number, rampIn: number, rampOut: number): Float32Array {
  const w = new Float32Array(length);
  for (let i = 0; i < length; i++) {
    const a = rampIn > 0 ? Math.min(1, (i + 0.5) / rampIn) : 1;
    const b = rampOut > 0 ? Math.min(1, (length - i - 0.5) / rampOut) : 1;
    w[i] = Math.min(a, b);
  }
  return w;
}

/**
 * Accumulates tile outputs (interleaved float pixels at `scale` times the tile's size) into one image. Each tile is
 * weighted by a linear ramp over the part it shares with a neighbour and 1 elsewhere, including the image borders.
 */
export class TileBlender {
  private readonly sum: Float32Array;
  private readonly weight: Float32Array;
  readonly width: number;
  readonly height: number;

  constructor(
    private readonly tiles: readonly Tile[],
    srcWidth: number,
    srcHeight: number,
    readonly channels: number,
    readonly scale: number,
  ) {
    this.width = srcWidth * scale;
    this.height = srcHeight * scale;
    this.sum = new Float32Array(this.width * this.height * channels);
    this.weight = new Float32Array(this.width * this.height);
  }

  /** How far `t` shares its left/right/top/bottom edge zone with another tile (0 where nothing overlaps). */
  private shared(t: Tile): [number, number, number, number] {
    let left = 0;
    let right = 0;
    let top = 0;
    let bottom = 0;
    for (const o of this.tiles) {
      if (o === t) continue;
      const rowsMeet = o.y < t.y + t.height && t.y < o.y + o.height;
      const colsMeet = o.x < t.x + t.width && t.x < o.x + o.width;
      if (rowsMeet && o.x < t.x && o.x + o.width > t.x) left = Math.max(left, o.x + o.width - t.x);
      if (rowsMeet && o.x > t.x && o.x < t.x + t.width) right = Math.max(right, t.x + t.width - o.x);
      if (colsMeet && o.y < t.y && o.y + o.height > t.y) top = Math.max(top, o.y + o.height - t.y);
      if (colsMeet && o.y > t.y && o.y < t.y + t.height) bottom = Math.max(bottom, t.y + t.height - o.y);
    }
    return [left, right, top, bottom];
  }

  /**
   * Adds one tile's output: `data` holds (tile.width*scale)x(tile.height*scale) pixels, interleaved ('hwc') or as
   * one plane per channel ('chw', as onnxruntime returns them).
   */
  add(tile: Tile, data: Float32Array, layout: 'hwc' | 'chw' = 'hwc'): void {
    const s = this.scale;
    const c = this.channels;
    const tw = tile.width * s;
    const th = tile.height * s;
    if (data.length !== tw * th * c) throw new Error('Tile output has the wrong size');
    const [left, right, top, bottom] = this.shared(tile);
    const wx = ramp(tw, left * s, right * s);
    const wy = ramp(th, top * s, bottom * s);
    // Offset of channel k of tile pixel i is i * pixelStride + k * channelStride.
    const pixelStride = layout === 'hwc' ? c : 1;
    const channelStride = layout === 'hwc' ? 1 : tw * th;
    for (let y = 0; y < th; y++) {
      const row = (tile.y * s + y) * this.width + tile.x * s;
      for (let x = 0; x < tw; x++) {
        const w = (wx[x] as number) * (wy[y] as number);
        const o = row + x;
        this.weight[o] = (this.weight[o] as number) + w;
        const i = (y * tw + x) * pixelStride;
        for (let k = 0; k < c; k++) {
          this.sum[o * c + k] = (this.sum[o * c + k] as number) + w * (data[i + k * channelStride] as number);
        }
      }
    }
  }

  /** The blended image as 8-bit pixels, from values in 0..1. */
  toUint8(): Buffer {
    const c = this.channels;
    const out = Buffer.alloc(this.sum.length);
    for (let p = 0; p < this.weight.length; p++) {
      const w = this.weight[p] as number;
      for (let k = 0; k < c; k++) {
        const v = w > 0 ? (this.sum[p * c + k] as number) / w : 0;
        out[p * c + k] = Math.max(0, Math.min(255, Math.round(v * 255)));
      }
    }
    return out;
  }
}
