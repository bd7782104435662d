/**
 * The correctness checker: every contender's answers are compared with brute force before (and after) it is
 * timed. A wrong answer throws `Mismatch`, which bench.ts prints before exiting non-zero.
 *
 * Two checks per query set:
 * - sorted id sets equal to a plain brute-force scan, on every query when that is affordable, otherwise on
 *   an evenly spaced sample (the budget is BRUTE_BUDGET point-distance tests per query set);
 * - for every query, an order-free fingerprint (count and a 32-bit sum of mixed ids) equal to that of an
 *   exact x-sorted sweep. The sweep applies the very same test as brute force (`dx * dx + dy * dy <= r * r`)
 *   to every point in a slightly widened x window, and is itself checked against brute force on the sample.
 */
import type { Built } from './contender';

/** Point-distance tests brute force may spend on the sample of one query set. */
const BRUTE_BUDGET = 6e7;

export class Mismatch extends Error {
  override name = 'Mismatch';
}

/** Where a check happened, for the error message. */
export interface CheckSite {
  readonly workload: string;
  readonly data: string;
  readonly n: number;
}

/** The ids within r of (x, y) by a linear scan, ascending. */
export function bruteCircle(
  xs: Float64Array,
  ys: Float64Array,
  n: number,
  x: number,
  y: number,
  r: number,
): number[] {
  const r2 = r * r;
  const res: number[] = [];
  for (let i = 0; i < n; i++) {
    const dx = xs[i] - x;
    const dy = ys[i] - y;
    if (dx * dx + dy * dy <= r2) res.push(i);
  }
  return res;
}

/** A 32-bit mix of an id (so that sums of mixed ids make a good order-free fingerprint). */
function mix(id: number): number {
  let h = Math.imul(id ^ (id >>> 16), 0x7feb352d);
  h = Math.imul(h ^ (h >>> 15), 0x846ca68b);
  return (h ^ (h >>> 16)) | 0;
}

function hashIds(ids: ArrayLike<number>, from: number, to: number): number {
  let h = 0;
  for (let k = from; k < to; k++) h = (h + mix(ids[k])) | 0;
  return h;
}

/** Exact circle queries by sweeping a window of the points sorted by x. */
class SweepOracle {
  private readonly order: Int32Array;
  private readonly sortedX: Float64Array;

  constructor(
    private readonly xs: Float64Array,
    private readonly ys: Float64Array,
    n: number,
  ) {
    const idx = Array.from({ length: n }, (_, i) => i);
    idx.sort((a, b) => xs[a] - xs[b]);
    this.order = Int32Array.from(idx);
    this.sortedX = new Float64Array(n);
    for (let k = 0; k < n; k++) this.sortedX[k] = xs[this.order[k]];
  }

  /** Appends the ids within r of (x, y) to res (unsorted). */
  query(x: number, y: number, r: number, res: number[]): void {
    const { order, sortedX, xs, ys } = this;
    const r2 = r * r;
    // the window is widened a little so rounding can never hide a point the exact test would accept
    const slack = 1e-9 * (Math.abs(x) + r + 1);
    const lo = x - r - slack;
    const hi = x + r + slack;
    let a = 0;
    let b = sortedX.length;
    while (a < b) {
      const m = (a + b) >>> 1;
      if (sortedX[m] < lo) a = m + 1;
      else b = m;
    }
    for (let k = a; k < sortedX.length && sortedX[k] <= hi; k++) {
      const i = order[k];
      const dx = xs[i] - x;
      const dy = ys[i] - y;
      if (dx * dx + dy * dy <= r2) res.push(i);
    }
  }
}

function describeDiff(expected: number[], got: number[]): string {
  const want = new Set(expected);
  const have = new Set(got);
  const missing = expected.filter((id) => !have.has(id)).slice(0, 5);
  const extra = got.filter((id) => !want.has(id)).slice(0, 5);
  const dupes = got.length - have.size;
  return `expected ${expected.length} ids, got ${got.length}; missing e.g. [${missing.join(', ')}], extra e.g. [${extra.join(', ')}]${dupes ? `, ${dupes} duplicates` : ''}`;
}

/**
 * The right answers for one query set (centres qx, qy; one radius) over one set of positions. Built once,
 * then used to check every contender.
 */
export class Expectation {
  readonly counts: Int32Array;
  readonly hashes: Int32Array;
  private readonly sample: Map<number, number[]> = new Map();
  readonly sampleStride: number;

  constructor(
    private readonly site: CheckSite,
    xs: Float64Array,
    ys: Float64Array,
    n: number,
    private readonly qx: Float64Array,
    private readonly qy: Float64Array,
    private readonly qcount: number,
    private readonly r: number,
  ) {
    const oracle = new SweepOracle(xs, ys, n);
    this.counts = new Int32Array(qcount);
    this.hashes = new Int32Array(qcount);
    const res: number[] = [];
    for (let q = 0; q < qcount; q++) {
      res.length = 0;
      oracle.query(qx[q], qy[q], r, res);
      this.counts[q] = res.length;
      this.hashes[q] = hashIds(res, 0, res.length);
    }
    this.sampleStride = Math.max(1, Math.ceil((qcount * n) / BRUTE_BUDGET));
    for (let q = 0; q < qcount; q += this.sampleStride) {
      const ids = bruteCircle(xs, ys, n, qx[q], qy[q], r);
      // the oracle must agree with brute force wherever both ran
      if (ids.length !== this.counts[q] || hashIds(ids, 0, ids.length) !== this.hashes[q]) {
        throw new Mismatch(`${this.where('sweep oracle', q)}: the sweep disagrees with brute force`);
      }
      this.sample.set(q, ids);
    }
  }

  /** Total hits over queries 0, stride, 2 stride, ... (what a timed pass over them must return). */
  total(stride = 1): number {
    let t = 0;
    for (let q = 0; q < this.qcount; q += stride) t += this.counts[q];
    return t;
  }

  private where(who: string, q: number): string {
    const { workload, data, n } = this.site;
    return `${who} is wrong in ${workload} ${data} N=${n}: circle (${this.qx[q]}, ${this.qy[q]}) r=${this.r} [query ${q}]`;
  }

  /**
   * Checks the answer from `built` to every query (every `stride`-th one: brute force itself is only
   * checked where it is timed); throws Mismatch naming `who` on the first wrong one.
   */
  check(built: Built, who: string, stride = 1): void {
    const got: number[] = [];
    for (let q = 0; q < this.qcount; q += stride) {
      got.length = 0;
      built.collect(this.qx[q], this.qy[q], this.r, got);
      const expected = this.sample.get(q);
      if (expected) {
        const sorted = got.slice().sort((a, b) => a - b);
        let same = sorted.length === expected.length;
        for (let k = 0; same && k < sorted.length; k++) same = sorted[k] === expected[k];
        if (!same) throw new Mismatch(`${this.where(who, q)}: ${describeDiff(expected, sorted)}`);
      } else if (got.length !== this.counts[q] || hashIds(got, 0, got.length) !== this.hashes[q]) {
        throw new Mismatch(
          `${this.where(who, q)}: expected ${this.counts[q]} ids (fingerprint ${this.hashes[q]}), got ${got.length} (fingerprint ${hashIds(got, 0, got.length)})`,
        );
      }
    }
  }

  /** A timed pass must return the same total as the answers checked above. */
  checkTotal(total: number, stride: number, who: string): void {
    const want = this.total(stride);
    if (total !== want) {
      const { workload, data, n } = this.site;
      throw new Mismatch(
        `${who} is wrong in ${workload} ${data} N=${n} r=${this.r}: the timed pass found ${total} hits in all, expected ${want}`,
      );
    }
  }
}

/** Per-id neighbour counts and separation sums (querySeparationInto's outputs). */
export interface SeparationOutput {
  readonly counts: ArrayLike<number>;
  readonly sumX: ArrayLike<number>;
  readonly sumY: ArrayLike<number>;
}

/**
 * Throws Mismatch unless `got` has `want`'s counts for ids 0..n-1 exactly and its sums within `relative` of
 * their scale (a sum of `count` pushes, each at most 1 long, added in another order; 1e-9 for float64 sums,
 * about 1e-7 where both were rounded to float32).
 */
export function checkSeparation(
  where: string,
  want: SeparationOutput,
  got: SeparationOutput,
  n: number,
  relative = 1e-9,
): void {
  for (let id = 0; id < n; id++) {
    const count = want.counts[id];
    if (got.counts[id] !== count) {
      throw new Mismatch(`${where}: id ${id} has ${got.counts[id]} neighbours, expected ${count}`);
    }
    const limit = relative * Math.max(1, count);
    const ex = Math.abs(got.sumX[id] - want.sumX[id]);
    const ey = Math.abs(got.sumY[id] - want.sumY[id]);
    // written so that a NaN fails too
    if (!(ex <= limit && ey <= limit)) {
      throw new Mismatch(
        `${where}: id ${id}'s sums (${got.sumX[id]}, ${got.sumY[id]}), expected (${want.sumX[id]}, ${want.sumY[id]})`,
      );
    }
  }
}
