/**
 * The map's enemy image, free of the DOM (the map puts {@link DensityImage.data} into an ImageData; the
 * bench and the unit tests run it in Node): a density of the enemies over a square of pixels, built in
 * passes spread over frames. A pass adds a slice of the enemies per call and, when every enemy is in, shades
 * the pixels (the darker, the more enemies in a pixel; crowd mode's "has a neighbour" on top), then paints
 * the rectangle's and the detected enemies over them. Nothing is allocated after the constructor.
 */

/** What a pass reads: the app fills one object and reuses it (the map's frame is one). */
export interface DensityInput {
  /** The ground's corner with the smallest x and z, world units: pixel (0, 0). */
  ground: { minX: number; minZ: number };
  xs: Float32Array;
  zs: Float32Array;
  count: number;
  /** Ids in the rectangle and in the detect circle, each in its first n entries. */
  rectIds: Int32Array;
  rectCount: number;
  foundIds: Int32Array;
  foundCount: number;
  /** Crowd mode's "has a neighbour" test, or null when crowd mode is off. */
  crowd: { has(id: number): boolean } | null;
}

/** Up to this many enemies each is a 2 x 2 dot. */
export const BIG_DOTS = 5000;

/** `#rrggbb` as a little-endian RGBA pixel (ImageData's byte order) with alpha `a`. */
export function pixel(hex: string, a: number): number {
  const v = Number.parseInt(hex.slice(1), 16);
  return ((a << 24) | ((v & 0xff) << 16) | (v & 0xff00) | ((v >> 16) & 0xff)) >>> 0;
}

export class DensityImage {
  /** RGBA bytes of the finished image, row by row (an ImageData's layout). */
  readonly data: Uint8ClampedArray<ArrayBuffer>;
  /** Completed passes. */
  passes = 0;
  private readonly pixels: Uint32Array;
  /** Enemies per pixel, and 1 where one of them has a crowd neighbour, for the pass under way. */
  private readonly density: Uint16Array;
  private readonly crowdMark: Uint8Array;
  /** Pixel of 0, 1, 2, 3 and 4 or more enemies. */
  private readonly shades: Uint32Array;
  // The pass under way: next id, the enemy count it started with, whether one is under way.
  private next = 0;
  private passCount = 0;
  private passing = false;
  /** Every enemy is in: the next call shades. */
  private shadeNext = false;

  /**
   * @param width pixels (world x)
   * @param height pixels (world z)
   * @param perCall enemies a call to {@link step} adds
   * @param colors pixels (see {@link pixel}) of the enemies' shades (0 to 4 or more per pixel), crowd,
   *   rectangle and detected enemies
   */
  constructor(
    readonly width: number,
    readonly height: number,
    readonly perCall: number,
    private readonly colors: { shades: readonly number[]; crowd: number; rect: number; detected: number },
  ) {
    this.data = new Uint8ClampedArray(width * height * 4);
    this.pixels = new Uint32Array(this.data.buffer);
    this.density = new Uint16Array(width * height);
    this.crowdMark = new Uint8Array(width * height);
    this.shades = Uint32Array.from(colors.shades);
  }

  /** Whether a pass is under way (its next {@link step} continues it). */
  get busy(): boolean {
    return this.passing;
  }

  /**
   * Adds the next slice of enemies (starting a pass if none is under way, or over again if the enemy count
   * changed under it); `scale` is pixels per world unit. When every enemy is in, shades the image: in the
   * same call after a short slice, else in the next call. Returns true when this call finished the image.
   */
  step(f: DensityInput, scale: number): boolean {
    const { xs, zs, count } = f;
    const size = this.width;
    if (!this.passing || count !== this.passCount) {
      this.density.fill(0);
      this.crowdMark.fill(0);
      this.next = 0;
      this.passCount = count;
      this.passing = true;
      this.shadeNext = false;
    }
    if (this.shadeNext) return this.shade(f, scale);
    const density = this.density;
    const mark = this.crowdMark;
    const crowd = f.crowd;
    const big = count > BIG_DOTS ? 0 : 1;
    const right = size - 1 - big;
    const bottom = this.height - 1 - big;
    const minX = f.ground.minX;
    const minZ = f.ground.minZ;
    const end = Math.min(count, this.next + this.perCall);
    for (let i = this.next; i < end; i++) {
      let x = ((xs[i] - minX) * scale) | 0;
      let y = ((zs[i] - minZ) * scale) | 0;
      x = x < 0 ? 0 : x > right ? right : x;
      y = y < 0 ? 0 : y > bottom ? bottom : y;
      const p = y * size + x;
      density[p]++;
      if (big) {
        density[p + 1]++;
        density[p + size]++;
        density[p + size + 1]++;
      }
      // One test per enemy, not per pair: at 100,000 crowded enemies there are close to a million pairs.
      if (crowd?.has(i)) {
        mark[p] = 1;
        if (big) {
          mark[p + 1] = 1;
          mark[p + size] = 1;
          mark[p + size + 1] = 1;
        }
      }
    }
    const added = end - this.next;
    this.next = end;
    if (end < count) return false;
    // A full slice this call: shade on the next one, so that no call does both at full cost.
    if (added > this.perCall >> 1) {
      this.shadeNext = true;
      return false;
    }
    return this.shade(f, scale);
  }

  /** Shades the counted pixels and paints the rectangle's and the detected enemies on top. */
  private shade(f: DensityInput, scale: number): boolean {
    const density = this.density;
    const mark = this.crowdMark;
    const big = f.count > BIG_DOTS ? 0 : 1;
    const px = this.pixels;
    const shades = this.shades;
    const crowdPixel = this.colors.crowd;
    for (let p = 0; p < px.length; p++) {
      const d = density[p];
      px[p] = mark[p] ? crowdPixel : shades[d > 4 ? 4 : d];
    }
    for (let k = 0; k < f.rectCount; k++) this.dot(f.rectIds[k], this.colors.rect, f, scale, big);
    for (let k = 0; k < f.foundCount; k++) this.dot(f.foundIds[k], this.colors.detected, f, scale, big);
    this.passing = false;
    this.shadeNext = false;
    this.passes++;
    return true;
  }

  /** Enemies counted in pixel (x, y) by the last finished pass (for tests; 2 x 2 dots count 4 times). */
  countAt(x: number, y: number): number {
    return this.passing ? Number.NaN : this.density[y * this.width + x];
  }

  private dot(id: number, colour: number, f: DensityInput, scale: number, big: number): void {
    const w = this.width;
    const x = Math.min(w - 1 - big, Math.max(0, ((f.xs[id] - f.ground.minX) * scale) | 0));
    const y = Math.min(this.height - 1 - big, Math.max(0, ((f.zs[id] - f.ground.minZ) * scale) | 0));
    const p = y * w + x;
    const px = this.pixels;
    px[p] = colour;
    if (big) {
      px[p + 1] = colour;
      px[p + w] = colour;
      px[p + w + 1] = colour;
    }
  }
}
