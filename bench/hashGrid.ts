/**
 * The grid a game developer with an unbounded world writes instead of bench/grid.ts's dense one: the same
 * cells of side r, hashed into a table of about 2 n buckets, so a few camps far apart cost what they would
 * cost side by side (the dense grid widens its cells past CELLS_PER_POINT cells per point, and its cells then
 * hold whole camps). Rebuilt from scratch every frame by counting sort into bucket order, then each point
 * joined with the later points of its own cell and with the points of the four cells of its
 * half-neighbourhood (east, and the three above), each found through its bucket and told from the other
 * cells hashed there by its coordinates. A contender of W6 (bench/pairs.ts), written as a competent user
 * would write it; not part of the library.
 *
 * Limits, as the dense grid's: the radius is fixed per rebuild, nothing is incremental, a dense cell joins
 * all its points with each other, and squares of radii below about 1e-144 or above 1e154 are out of its
 * range. Cell coordinates are whole doubles (a world may be wider than 2^31 cells); the hash takes their low
 * 32 bits.
 */

import {
  type Coordinates,
  type CountOutput,
  checkBuild,
  checkOutputs,
  handOver,
  narrowestCell,
  RARE,
  rarePush,
  type SumOutput,
} from './grid';

export class HashGrid {
  /** Side of a cell at the last build (>= the radius), and log2 of the buckets. */
  cell = 0;
  bits = 0;
  bucketStart = new Int32Array(0);
  bucketOf = new Int32Array(0);
  /** Per slot, in bucket order: the point's index, its coordinates and its cell's. */
  ids = new Int32Array(0);
  xs = new Float64Array(0);
  ys = new Float64Array(0);
  cx = new Float64Array(0);
  cy = new Float64Array(0);
  count = new Int32Array(0);
  sumX = new Float64Array(0);
  sumY = new Float64Array(0);

  /**
   * The crowd's call with exactly the rule of the tree's querySeparationInto (bench/grid.ts's separationInto
   * says it): counts and pushes of points 0..n-1 into entries 0..n-1 of the outputs; returns the number of
   * unordered pairs within `radius` (closed).
   * @throws RangeError for a radius that is not a finite number >= 0, n past the arrays or the outputs, or
   *   coordinates that are not finite.
   */
  separationInto(
    xs: Coordinates,
    ys: Coordinates,
    n: number,
    radius: number,
    counts: CountOutput,
    sumX: SumOutput,
    sumY: SumOutput,
  ): number {
    checkOutputs('HashGrid', n, counts, sumX, sumY);
    this.build(xs, ys, n, radius);
    this.count.fill(0, 0, n);
    this.sumX.fill(0, 0, n);
    this.sumY.fill(0, 0, n);
    let pairs = 0;
    const r2 = radius * radius;
    const inverse = 1 / radius;
    for (let i = 0; i < n; i++) pairs += this.joinPoint(i, r2, inverse);
    handOver(this, n, counts, sumX, sumY);
    return pairs;
  }

  /**
   * The buckets of the cell last joined and of its four half-neighbours (a cell's points mostly follow each
   * other in their bucket: each is hashed once per run of them).
   */
  private readonly near = new Int32Array(5);
  private nearX = Number.NaN;
  private nearY = Number.NaN;

  /** Slot i against the later slots of its cell and the slots of its four half-neighbours; its pairs. */
  private joinPoint(i: number, r2: number, inverse: number): number {
    const x = this.cx[i];
    const y = this.cy[i];
    const near = this.near;
    if (x !== this.nearX || y !== this.nearY) {
      near[0] = this.bucket(x, y);
      near[1] = this.bucket(x + 1, y);
      near[2] = this.bucket(x - 1, y + 1);
      near[3] = this.bucket(x, y + 1);
      near[4] = this.bucket(x + 1, y + 1);
      this.nearX = x;
      this.nearY = y;
    }
    const start = this.bucketStart;
    let found = this.joinCell(i, i + 1, start[near[0] + 1], x, y, r2, inverse);
    found += this.joinCell(i, start[near[1]], start[near[1] + 1], x + 1, y, r2, inverse);
    found += this.joinCell(i, start[near[2]], start[near[2] + 1], x - 1, y + 1, r2, inverse);
    found += this.joinCell(i, start[near[3]], start[near[3] + 1], x, y + 1, r2, inverse);
    found += this.joinCell(i, start[near[4]], start[near[4] + 1], x + 1, y + 1, r2, inverse);
    return found;
  }

  /**
   * Slot i against the slots from..end-1 (of the bucket of cell (x, y)) that are in that cell: each pair
   * within reach (r2: the radius squared; inverse: 1 / radius) adds to both slots' counts and sums. Returns
   * the pairs.
   */
  private joinCell(
    i: number,
    from: number,
    end: number,
    x: number,
    y: number,
    r2: number,
    inverse: number,
  ): number {
    const { xs: sx, ys: sy, cx, cy, count, sumX: ax, sumY: ay } = this;
    const px = sx[i];
    const py = sy[i];
    let found = 0;
    for (let j = from; j < end; j++) {
      if (cx[j] !== x || cy[j] !== y) continue;
      const dx = sx[j] - px;
      const dy = sy[j] - py;
      const d2 = dx * dx + dy * dy;
      if (d2 > r2) continue;
      let ux: number;
      let uy: number;
      if (d2 > 0) {
        const w = 1 / Math.sqrt(d2) - inverse;
        ux = dx * w;
        uy = dy * w;
      } else {
        rarePush(dx, dy, inverse, this.ids[i] < this.ids[j]);
        ux = RARE[0];
        uy = RARE[1];
      }
      found++;
      count[i]++;
      ax[i] -= ux;
      ay[i] -= uy;
      count[j]++;
      ax[j] += ux;
      ay[j] += uy;
    }
    return found;
  }

  /** The bucket of cell (x, y) (whole numbers): the low 32 bits of each, mixed. */
  private bucket(x: number, y: number): number {
    const h = Math.imul(x | 0, 0x9e3779b1) ^ Math.imul((y | 0) + 0x632be5ab, 0x85ebca6b);
    return (h ^ (h >>> 15)) >>> (32 - this.bits);
  }

  /**
   * Rebuilds the table over points 0..n-1 for `radius`: cell size, buckets, counting sort into bucket order
   * (each bucket's points in index order).
   * @throws RangeError as {@link separationInto}.
   */
  build(xs: Coordinates, ys: Coordinates, n: number, radius: number): void {
    checkBuild('HashGrid', xs, ys, n, radius);
    let far = 0;
    for (let i = 0; i < n; i++) far = Math.max(far, Math.abs(xs[i]), Math.abs(ys[i]));
    if (!(far < Infinity)) throw new RangeError(`HashGrid: coordinates must be finite, got one of ${far}`);
    let cell = narrowestCell(radius, far);
    if (!(cell > 0)) cell = 1; // radius 0 and every point at the origin
    const inv = 1 / cell;
    let bits = 1;
    while (1 << bits < 2 * n && bits < 30) bits++;
    this.reserve(n, (1 << bits) + 1);
    this.cell = cell;
    this.bits = bits;
    this.nearX = this.nearY = Number.NaN;
    const buckets = 1 << bits;
    const { bucketStart: start, bucketOf, ids, xs: sx, ys: sy, cx, cy } = this;
    start.fill(0, 0, buckets + 1);
    for (let i = 0; i < n; i++) {
      const b = this.bucket(Math.floor(xs[i] * inv), Math.floor(ys[i] * inv));
      bucketOf[i] = b;
      start[b]++;
    }
    let sum = 0;
    for (let b = 0; b <= buckets; b++) {
      sum += start[b];
      start[b] = sum;
    }
    for (let i = n - 1; i >= 0; i--) {
      const slot = --start[bucketOf[i]];
      ids[slot] = i;
      sx[slot] = xs[i];
      sy[slot] = ys[i];
      cx[slot] = Math.floor(xs[i] * inv);
      cy[slot] = Math.floor(ys[i] * inv);
    }
  }

  /** Room for n points and `starts` bucket starts, grown by doubling (kept from frame to frame). */
  private reserve(n: number, starts: number): void {
    if (this.bucketStart.length < starts) {
      this.bucketStart = new Int32Array(Math.max(starts, 2 * this.bucketStart.length));
    }
    if (this.ids.length >= n) return;
    const size = Math.max(n, 2 * this.ids.length);
    this.bucketOf = new Int32Array(size);
    this.ids = new Int32Array(size);
    this.xs = new Float64Array(size);
    this.ys = new Float64Array(size);
    this.cx = new Float64Array(size);
    this.cy = new Float64Array(size);
    this.count = new Int32Array(size);
    this.sumX = new Float64Array(size);
    this.sumY = new Float64Array(size);
  }
}
