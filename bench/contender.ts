import type { Points } from './data';

/**
 * How the harness talks to an index. Each contender writes its own loops (one per workload), so every hot
 * loop is monomorphic and uses the contender's fastest documented API; the harness only calls these methods
 * once per batch.
 */
export interface Built {
  /** Verification path: appends the ids within `r` of (x, y) (inclusive) to `out`, in any order. */
  collect(x: number, y: number, r: number, out: number[]): void;
  /** Timed W2/W4 path: one circle query at each centre from..to-1; returns the total number of hits. */
  queryCentres(cx: Float64Array, cy: Float64Array, from: number, to: number, r: number): number;
  /** Timed W3/W5 path: point i = 0, stride, 2 stride, ... < n queries r at its own position; total hits. */
  queryPoints(xs: Float64Array, ys: Float64Array, n: number, stride: number, r: number): number;
  /**
   * Ways to bring the index up to date after the game moved every point (positions in xs, ys). Each mode
   * is timed separately in W4; W5 uses the mode that was fastest in W4.
   */
  readonly updates: readonly UpdateMode[];
}

export interface UpdateMode {
  /** e.g. 'move', 'rebuild', 'remove+insert', 'none'. */
  readonly label: string;
  sync(xs: Float64Array, ys: Float64Array, n: number): void;
  /**
   * Untimed frames W4 runs before its check and timing, where a mode needs more than the timing's warm-up
   * to reach its steady speed (a kernel's once-a-frame host code, which the engine optimises late).
   */
  readonly warmFrames?: number;
}

export interface Contender {
  /** Row label. */
  readonly name: string;
  /** Options it was given (printed under the tables). */
  readonly options: string;
  /** Builds an index over p (timed in W1). Ids are 0..n-1. */
  build(p: Points): Built;
}
