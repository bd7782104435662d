/*
 * The algorithms' scratch: one class per algorithm file that needs one (named beside each), held by the
 * tree's state (state.ts) so that two trees never share one and no two algorithms share one. Each is data
 * only, grown as needed and then reused, so a query allocates nothing. They live here, below the
 * algorithms, because the state is data: it imports no algorithm file, and every algorithm imports it.
 */

import { NearestK, NodeQueue } from './heap';
import { NodeStack } from './stack';
import type { NodeInfo } from './types';

/** query/range.ts: the circle and rectangle walks, collectAll, the array-returning queries' buffer. */
export class QueryScratch {
  /** The circle and rectangle walks. */
  readonly stack = new NodeStack();
  /** collectAll's walk. */
  readonly collect = new NodeStack();
  /** Nodes visited by the last collectAll. */
  collected = 0;
  /** The answer of the array-returning queries before it is appended to the caller's array. */
  results: Int32Array = new Int32Array(64);
}

/** leaves.ts: leavesBelow's walk and the list it fills. */
export class LeafList {
  readonly stack = new NodeStack();
  /** The leaves found by the last leavesBelow. */
  list: Int32Array = new Int32Array(64);
}

/** update/root.ts: growth and shrinking. */
export class RootScratch {
  /** someItem's walk. */
  readonly stack = new NodeStack();
  /** A rectangle being built: growFor's target, halveToItems' candidate, refitDown's extent. */
  readonly box = new Float64Array(4);
  /** halfToward's output. */
  readonly half = new Float64Array(4);
}

/**
 * moveAll's checks and pass over the ids run instead of the JavaScript ones (update/moveAll.ts) where they can:
 * CrowdQuadtree (crowd/) plugs in the WebAssembly pass. moveAll calls `inside` first, then (when nothing
 * outside the root makes it move one by one) `stay`, with the same arrays.
 */
export interface MoveKernel {
  /**
   * Takes the new positions of the ids up to maxId and answers whether every one of them (present or not) is
   * inside the root's rectangle (edges included; NaN is not): 1 yes, 0 no; or -1, taking nothing, to leave
   * the checks and the pass to JavaScript. It may hand the tree new arrays (copies of those it held): the
   * caller reads the tree's arrays after it.
   */
  inside(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): number;
  /**
   * Writes the new position of every present id (up to maxId) that stays in its leaf's loose rectangle into
   * its slot, lists the others in `leavers` (in increasing order) and returns how many; or returns -1,
   * changing nothing, to hand the pass to JavaScript. moveAll re-files the listed ids after it, in that
   * order, which gives the tree moving one by one would.
   */
  stay(xs: ArrayLike<number>, ys: ArrayLike<number>, maxId: number): number;
  /**
   * Right after a `stay` that listed `n` ids: re-files the first of them in order, exactly as moveAll's own
   * re-filing would (the same slots, blocks and free lists), and returns how many; moveAll re-files the rest.
   */
  file(n: number): number;
  /** The ids `stay` listed (valid up to its count until the next call). */
  readonly leavers: Int32Array;
  /** Their new positions, x, y per listed id (the same as xs[id], ys[id], read in the listed order). */
  readonly leaverXY: Float64Array;
}

/** update/moveAll.ts. */
export class MoveAllScratch {
  /** A faster pass plugged in by a subclass (null: the JavaScript pass runs). */
  kernel: MoveKernel | null = null;
  /** settle's walk. */
  readonly stack = new NodeStack();
  /** The point being re-filed, and the new positions' extent in refitAll. */
  readonly box = new Float64Array(4);
  /** movesMayShrink's half of the root. */
  readonly half = new Float64Array(4);
  /** stepsStayFinite's extents, four per id. */
  spans = new Float64Array(0);
  /** readMoves' copy of xs and ys, indexed by id, when they are not fixed (checks.ts isFixed). */
  movedX = new Float64Array(0);
  movedY = new Float64Array(0);
}

/** query/visit.ts: the walk's nodes, a tag per entry (depth, and for visitCircle a "covered" bit). */
export class VisitScratch {
  readonly stack = new NodeStack();
  readonly tags = new NodeStack();
  /** A walk is running (a walk from its callback is nested and gets stacks of its own). */
  visiting = false;
  readonly info: NodeInfo = { minX: 0, minY: 0, maxX: 0, maxY: 0, depth: 0, isLeaf: true, count: 0 };
}

/** query/nearest.ts: the nodes to open, nearest first, and the best k items so far. */
export class NearestScratch {
  readonly queue = new NodeQueue();
  readonly best = new NearestK();
}

/** An output of ids: Int32Array or Uint32Array (nothing narrower holds every id). */
export type IdArray = Int32Array | Uint32Array;

/**
 * A join of all pairs within a radius that runs instead of the JavaScript one (query/pairs.ts) where it can:
 * CrowdQuadtree (crowd/) plugs in the WebAssembly join. `pairsInto` returns the count, OUT_OF_ROOM when the
 * pairs do not fit, or NOT_RUN to hand the call to the JavaScript join (which then finds the same pairs).
 */
export interface PairKernel {
  pairsInto(radius: number, outA: IdArray, outB: IdArray): number;
}

/** query/pairs.ts: the join's walk and the pairs forEachPair hands out (grown as needed, then reused). */
export class PairScratch {
  /** The JavaScript join's walk. */
  readonly walk = new NodeStack(256);
  /**
   * The JavaScript join's numbers for its leaf joins: [0] the distance scale s, [1] (radius s)², [2] the
   * area past which a leaf's pairs are tested before they are stored (passing doubles to a call the engine
   * does not inline boxes them).
   */
  readonly rule = new Float64Array(3);
  /** A faster join plugged in by a subclass (null: the JavaScript join runs). */
  kernel: PairKernel | null = null;
  pairA = new Int32Array(64);
  pairB = new Int32Array(64);
  nestedPairA = new Int32Array(0);
  nestedPairB = new Int32Array(0);
  /** A forEachPair is running (a call from its callback is nested and gets buffers of its own). */
  pairing = false;
}
