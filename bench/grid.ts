/**
 * The structure a game developer writes instead of a tree for "every agent finds its neighbours within one
 * fixed radius each frame": a uniform grid rebuilt from scratch every frame by counting sort. A contender of
 * W6 (bench/pairs.ts: all pairs within r) and of the crowd frame (bench/scene.ts), written as a competent
 * user would write it, at its fastest; not part of the library.
 *
 * Storage (every array kept between frames and grown by doubling, so a frame allocates nothing):
 * - cells: `cols` x `rows` squares of side `cell` (>= the radius) from the points' lower-left corner, row by
 *   row, each row followed by one padding cell that stays empty, and one empty row on top. Cell (cx, cy) is
 *   number cy * (cols + 1) + cx.
 * - `cellStart[c]` .. `cellStart[c + 1]`: the slots of cell c (cells' starts by a prefix sum of the counts).
 * - per slot, in cell order: `ids` (the point's index), `xs`, `ys` (its coordinates, copied so the join
 *   reads memory in order) and the join's accumulators `count`, `sumX`, `sumY`. Within a cell the slots
 *   keep the points' order (the scatter is stable).
 * - `cellOf`: per point, its cell (computed once, read again by the scatter).
 *
 * The join: each cell with itself (slot j > i) and its half-neighbourhood (east, and the three cells of the
 * row above), so every pair is met once. With the padding column, "this cell and the next" and "the three
 * cells above" are each one contiguous run of slots: two plain loops per point, no bounds tests.
 *
 * Limits, honestly: the radius is fixed per rebuild (a frame at another radius rebuilds; a grid made for one
 * radius answers no other); nothing is incremental (every frame pays the O(n) rebuild even if nothing
 * moved); a dense cluster costs the same as in any grid (a cell of k points joins k² / 2 pairs with
 * itself); squared distances are plain double arithmetic, so radii whose square under- or overflows (below
 * about 1e-144 or above 1e154, where the tree scales its differences) are out of its range; coordinates must
 * be finite and their span too.
 */

/** Point coordinates, read by index. */
export type Coordinates = Float32Array | Float64Array;
/** Per-point neighbour counts. */
export type CountOutput = Int32Array | Uint32Array | Float32Array | Float64Array;
/** Per-point separation sums. */
export type SumOutput = Float32Array | Float64Array;

/**
 * At most about this many cells per point: past it (a bounding box large relative to the radius, e.g. a few
 * agents spread over a whole world) the cells grow to the box's side / sqrt(CELLS_PER_POINT n), so the rebuild
 * and the walk over the cells stay O(n). A real user with an unbounded world would hash the cells into a
 * table of about n buckets instead (a sparse grid), or fix the world's bounds and cell once at load.
 */
export const CELLS_PER_POINT = 2;

/**
 * The narrowest cell for `radius` where the largest coordinate's magnitude is `far`: wider than the radius by
 * 2^-46 of the radius plus `far` (some 64-128 units in their last place), so that the rounding of a
 * coordinate's quotient by the cell, a few units in the last place, can never put two points within the
 * radius two cells apart. Both grids' rule (bench/hashGrid.ts's too).
 */
export function narrowestCell(radius: number, far: number): number {
  return radius + (radius + far) * 2 ** -46;
}

/**
 * A grid's build arguments (`grid`: the class, for the message): a radius that is a finite number >= 0, and
 * n an integer from 0 to the coordinates' length; else a RangeError naming the value.
 */
export function checkBuild(grid: string, xs: Coordinates, ys: Coordinates, n: number, radius: number): void {
  if (!(radius >= 0 && radius < Infinity)) {
    throw new RangeError(`${grid}: radius must be a finite number >= 0, got ${radius}`);
  }
  if (!Number.isInteger(n) || n < 0 || n > xs.length || n > ys.length) {
    throw new RangeError(
      `${grid}: n must be an integer from 0 to the coordinates' length (${Math.min(xs.length, ys.length)}), got ${n}`,
    );
  }
}

/** A grid's fused call's outputs: each at least n long, else a RangeError naming `grid` (the class). */
export function checkOutputs(
  grid: string,
  n: number,
  counts: CountOutput,
  sumX: SumOutput,
  sumY: SumOutput,
): void {
  if (counts.length < n || sumX.length < n || sumY.length < n) {
    throw new RangeError(
      `${grid}: outputs of lengths ${counts.length}, ${sumX.length}, ${sumY.length} are too short for n = ${n}`,
    );
  }
}

/** A grid's per-slot accumulators (slots 0..n-1, each the point `ids[slot]`) written to the per-point outputs. */
export function handOver(
  slots: { ids: Int32Array; count: Int32Array; sumX: Float64Array; sumY: Float64Array },
  n: number,
  counts: CountOutput,
  sumX: SumOutput,
  sumY: SumOutput,
): void {
  const { ids, count, sumX: ax, sumY: ay } = slots;
  for (let k = 0; k < n; k++) {
    const id = ids[k];
    counts[id] = count[k];
    sumX[id] = ax[k];
    sumY[id] = ay[k];
  }
}

/** rarePush's answer: the push's x and y. */
export const RARE = new Float64Array(2);

/**
 * The push of a pair whose square is 0 (the rule of the tree's querySeparationInto, shared by both grids) into
 * RARE: coincident points push along x by one unit, the lower index (`lowerFirst`: the pair's first point
 * has it) to -x, so the first point's push is returned as (1, 0) or (-1, 0) for the second to add and the
 * first to take off; a square that underflowed (differences below 1e-154) takes the exact weight, as the
 * tree's.
 */
export function rarePush(dx: number, dy: number, inverse: number, lowerFirst: boolean): void {
  if (dx === 0 && dy === 0) {
    RARE[0] = lowerFirst ? 1 : -1;
    RARE[1] = 0;
    return;
  }
  const w = 1 / Math.hypot(dx, dy) - inverse;
  RARE[0] = dx * w;
  RARE[1] = dy * w;
}

export class UniformGrid {
  /** Side of a cell at the last build (>= the radius). */
  cell = 0;
  cols = 0;
  rows = 0;
  /** Points and radius of the last build. */
  n = 0;
  radius = 0;
  cellStart = new Int32Array(0);
  cellOf = new Int32Array(0);
  ids = new Int32Array(0);
  xs = new Float64Array(0);
  ys = new Float64Array(0);
  count = new Int32Array(0);
  sumX = new Float64Array(0);
  sumY = new Float64Array(0);

  /**
   * Number of pairs of points 0..n-1 within `radius` of each other (closed: distance <= radius), each
   * unordered pair once. Rebuilds the grid, then joins; O(n + pairs tested).
   * @throws RangeError for a radius that is not a finite number >= 0, n past the arrays, or coordinates
   *   that are not finite.
   */
  countPairs(xs: Coordinates, ys: Coordinates, n: number, radius: number): number {
    this.build(xs, ys, n, radius);
    const { cellStart: start, xs: sx, ys: sy } = this;
    const stride = this.cols + 1;
    const r2 = radius * radius;
    let pairs = 0;
    // Padding cells are empty, so every cell of the grid can be walked as one run.
    for (let c = 0, end = this.rows * stride; c < end; c++) {
      const s = start[c];
      const e = start[c + 1];
      if (s === e) continue;
      const east = start[c + 2];
      const aboveFrom = start[c + stride - 1];
      const aboveTo = start[c + stride + 2];
      for (let i = s; i < e; i++) {
        const x = sx[i];
        const y = sy[i];
        for (let j = i + 1; j < east; j++) {
          const dx = sx[j] - x;
          const dy = sy[j] - y;
          if (dx * dx + dy * dy <= r2) pairs++;
        }
        for (let j = aboveFrom; j < aboveTo; j++) {
          const dx = sx[j] - x;
          const dy = sy[j] - y;
          if (dx * dx + dy * dy <= r2) pairs++;
        }
      }
    }
    return pairs;
  }

  /**
   * The crowd's call, with exactly the rule of the tree's querySeparationInto: for every point p of 0..n-1
   * and every other point q within `radius` (closed), `counts[p]` += 1 and (sumX[p], sumY[p]) -= (q - p)
   * (1 / d - 1 / r) (a push away from q of length (r - d) / r); coincident points push along x by one unit,
   * the lower index to -x. Writes entries 0..n-1 of the outputs; returns the number of unordered pairs.
   * Rebuilds the grid, then joins; O(n + pairs tested).
   * @throws RangeError as {@link countPairs}, or for an output shorter than n.
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
    checkOutputs('UniformGrid', n, counts, sumX, sumY);
    this.build(xs, ys, n, radius);
    this.count.fill(0, 0, n);
    this.sumX.fill(0, 0, n);
    this.sumY.fill(0, 0, n);
    const pairs = this.joinSums(radius);
    handOver(this, n, counts, sumX, sumY);
    return pairs;
  }

  /** The fused join of the last build into the per-slot accumulators (zeroed); returns the pairs. */
  private joinSums(radius: number): number {
    const { cellStart: start, xs: sx, ys: sy, count, sumX: ax, sumY: ay } = this;
    const stride = this.cols + 1;
    const r2 = radius * radius;
    const inverse = 1 / radius;
    let pairs = 0;
    for (let c = 0, end = this.rows * stride; c < end; c++) {
      const s = start[c];
      const e = start[c + 1];
      if (s === e) continue;
      const east = start[c + 2];
      const aboveFrom = start[c + stride - 1];
      const aboveTo = start[c + stride + 2];
      for (let i = s; i < e; i++) {
        const x = sx[i];
        const y = sy[i];
        let found = 0;
        let px = 0;
        let py = 0;
        // Two runs of slots: this cell after i and the east cell, then the three cells above.
        for (let j = i + 1, to = east; ; j = aboveFrom, to = aboveTo) {
          for (; j < to; j++) {
            const dx = sx[j] - x;
            const dy = sy[j] - y;
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
            px -= ux;
            py -= uy;
            count[j]++;
            ax[j] += ux;
            ay[j] += uy;
          }
          if (to === aboveTo) break;
        }
        count[i] += found;
        ax[i] += px;
        ay[i] += py;
        pairs += found;
      }
    }
    return pairs;
  }

  /**
   * Rebuilds the grid over points 0..n-1 for `radius`: bounds, cell size, counting sort into cell order.
   * @throws RangeError as {@link countPairs}.
   */
  build(xs: Coordinates, ys: Coordinates, n: number, radius: number): void {
    checkBuild('UniformGrid', xs, ys, n, radius);
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < n; i++) {
      // Math.min / max carry a NaN through to the check below.
      minX = Math.min(minX, xs[i]);
      maxX = Math.max(maxX, xs[i]);
      minY = Math.min(minY, ys[i]);
      maxY = Math.max(maxY, ys[i]);
    }
    if (n === 0) minX = minY = maxX = maxY = 0;
    const spanX = maxX - minX;
    const spanY = maxY - minY;
    if (!Number.isFinite(spanX + spanY)) {
      throw new RangeError(
        `UniformGrid: coordinates must be finite with a finite span, got x in [${minX}, ${maxX}], y in [${minY}, ${maxY}]`,
      );
    }
    const far = Math.max(-minX, maxX, -minY, maxY, 0);
    let cell = narrowestCell(radius, far);
    if ((spanX / cell + 1) * (spanY / cell + 1) > CELLS_PER_POINT * n) {
      cell = Math.max(cell, Math.max(spanX, spanY) / Math.sqrt(CELLS_PER_POINT * n));
    }
    if (!(cell > 0)) cell = 1; // radius 0 and every point at the origin
    const inv = 1 / cell;
    const cols = Math.floor(spanX * inv) + 1;
    const rows = Math.floor(spanY * inv) + 1;
    const stride = cols + 1;
    const cells = stride * (rows + 1);
    this.reserve(n, cells + 1);
    const { cellStart: start, cellOf, ids, xs: sx, ys: sy } = this;
    start.fill(0, 0, cells + 1);
    for (let i = 0; i < n; i++) {
      // Both quotients are >= 0 and below cols, rows: truncation is the floor.
      const c = (((ys[i] - minY) * inv) | 0) * stride + (((xs[i] - minX) * inv) | 0);
      cellOf[i] = c;
      start[c]++;
    }
    // Inclusive prefix sum: start[c] is where cell c ends; the scatter below counts it down to its start.
    let sum = 0;
    for (let c = 0; c <= cells; c++) {
      sum += start[c];
      start[c] = sum;
    }
    // Backwards, so each cell keeps its points in index order.
    for (let i = n - 1; i >= 0; i--) {
      const slot = --start[cellOf[i]];
      ids[slot] = i;
      sx[slot] = xs[i];
      sy[slot] = ys[i];
    }
    this.cell = cell;
    this.cols = cols;
    this.rows = rows;
    this.n = n;
    this.radius = radius;
  }

  /** Room for n points and `starts` cell starts, grown by doubling (kept from frame to frame). */
  private reserve(n: number, starts: number): void {
    if (this.cellStart.length < starts) {
      this.cellStart = new Int32Array(Math.max(starts, 2 * this.cellStart.length));
    }
    if (this.ids.length >= n) return;
    const size = Math.max(n, 2 * this.ids.length);
    this.cellOf = new Int32Array(size);
    this.ids = new Int32Array(size);
    this.xs = new Float64Array(size);
    this.ys = new Float64Array(size);
    this.count = new Int32Array(size);
    this.sumX = new Float64Array(size);
    this.sumY = new Float64Array(size);
  }
}
