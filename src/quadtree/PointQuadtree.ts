/*
 * The public surface of the library: argument checks at the entry, then one call into the algorithm files
 * (one file per algorithm, each a function over the tree's TreeState: see state.ts for the storage layout).
 */

import {
  checkCallback,
  checkCoordinate,
  checkId,
  checkIdArray,
  checkOptions,
  checkOutArray,
  checkRadius,
  checkSeparate,
  circleArg,
  DEFAULTS,
  describe,
  lengthOf,
  MAX_ID,
  mustBe,
  NAME,
  notANumber,
  rectArg,
} from './core/checks';
import { holds } from './core/geometry';
import { compactPool } from './core/leaves';
import { ensureIdCapacity, resetNodes } from './core/nodes';
import { INTERNALS, TreeState } from './core/state';
import type { Bounds, QuadtreeOptions, QueryStats } from './core/types';
import { nearestInto } from './query/nearest';
import { forEachPair, OUT_OF_ROOM, pairsInBuffers, pairsInto } from './query/pairs';
import { appendResults, circleInto, rectInto, resultBuffer } from './query/range';
import { buildFrom } from './update/build';
import { insertItem, removeItem } from './update/insert';
import { moveOut, moveWithin } from './update/move';
import { moveAll } from './update/moveAll';
import { growFor, isGrown, onRootEdge, outsideInitial, shrinkRoot } from './update/root';

/**
 * The storage of a tree, as `tree[INTERNALS]()` hands it out: for the invariant checker in debug.ts and for
 * tests, never for application code (it is not exported from index.ts). It is the tree's own state (read
 * it, do not write it); the layout is described in state.ts and ItemPool.ts.
 */
export type QuadtreeInternals = Readonly<TreeState>;

/** The key of the internal accessor (see {@link QuadtreeInternals}); defined beside the state, state.ts. */
export { INTERNALS };

/**
 * A dynamic point quadtree with leaf-only storage, for integer ids at (x, y).
 *
 * Each leaf holds at most `maxItems` items unless it is too small to split (`minSize`); inner nodes hold
 * none. Inserting or moving a point outside the root grows the root by doubling. Queries are exact:
 * circles and rectangles are closed (points on the boundary are found).
 *
 * Every method validates its arguments first and throws before changing anything, so a tree is never left
 * half-changed. An id, coordinate, radius, `k` or `maxDistance` that is not a number at all (null, a string,
 * a boolean, an array, an object with `valueOf`, a BigInt, a Symbol) is a `TypeError` naming the argument;
 * nothing is converted, so no `valueOf` of the caller's is ever called. So is an input array of `from` or
 * `moveAll` that is not an object with a numeric length, a callback that is not a function, and an `out`
 * that is not an array (for the `*Into` twins: not an Int32Array or Uint32Array). A number out of range
 * (NaN, an infinity, a negative radius, a negative length) is a `RangeError`, as each method's `@throws`
 * says. `from` and `moveAll` read each entry of their arrays once, so an array that changes during the
 * call (a Proxy, a view of a SharedArrayBuffer that a worker writes) cannot put an unchecked value in.
 */
export class PointQuadtree {
  /** Largest id accepted by {@link PointQuadtree.insert} (33,554,431). */
  static readonly MAX_ID = MAX_ID;
  /** The options' defaults: `maxItems`, `minSize`, `looseness` (frozen). */
  static readonly DEFAULTS = DEFAULTS;

  /** Figures of the last queryCircle / queryRect / nearest. Reused: read it before the next query. */
  readonly lastQuery: QueryStats = { nodesVisited: 0, pointsTested: 0, found: 0 };

  /** Nodes, items, id tables and each algorithm's scratch (state.ts). */
  private readonly t: TreeState;
  /**
   * The coordinates an entry point hands to the algorithms: passing doubles to a function the engine does
   * not inline boxes them (a heap allocation per call), so they go in this array: [0, 1] the point being
   * inserted or moved (the callees call it `p`), [2..5] the query's shape (`q`).
   */
  private readonly arg = new Float64Array(6);

  /**
   * @param options - root rectangle and split rules; see {@link QuadtreeOptions}.
   * @throws RangeError if the bounds are not finite or empty (`minX >= maxX` or `minY >= maxY`), if
   *   `maxItems` is not an integer >= 1, if `minSize` is not a finite number > 0, or if `looseness` is
   *   not a finite number >= 0.
   */
  constructor(options: QuadtreeOptions) {
    this.t = new TreeState(checkOptions(options));
    resetNodes(this.t);
  }

  /**
   * Builds a tree from parallel arrays in one pass (much faster than inserting one by one). The root is
   * `options.bounds`, grown by doubling until it covers every point. `ids[i]` is at (`xs[i]`, `ys[i]`).
   * Each entry is read once, so an input that changes during the call (a Proxy, a view of a
   * SharedArrayBuffer that another thread writes) is checked and built as one snapshot.
   * @throws TypeError if `ids`, `xs` or `ys` is not an object with a numeric length (null, a number, a
   *   string, `{}`), or an id or coordinate is not a number; RangeError on bad options, a length that is
   *   not an integer >= 0, arrays of different lengths, a bad id or a non-finite coordinate; Error on a
   *   repeated id.
   */
  static from(
    options: QuadtreeOptions,
    ids: ArrayLike<number>,
    xs: ArrayLike<number>,
    ys: ArrayLike<number>,
  ): PointQuadtree {
    const tree = new PointQuadtree(options);
    buildFrom(tree.t, ids, xs, ys);
    return tree;
  }

  /** A leaf holding more than this many items splits (when it is at least twice `minSize`). Read-only. */
  get maxItems(): number {
    return this.t.maxItems;
  }

  /** No node is split into quadrants narrower or shallower than this, in world units. Read-only. */
  get minSize(): number {
    return this.t.minSize;
  }

  /**
   * How far (world units) an item may move outside its leaf's rectangle before move() re-files it into
   * another leaf. 0 (the default) keeps every item inside its leaf's rectangle. Read-only.
   */
  get looseness(): number {
    return this.t.looseness;
  }

  /** Number of items in the tree. */
  get size(): number {
    return this.t.size;
  }

  /** The current root rectangle (a copy). It starts as `options.bounds` and may have grown. */
  get bounds(): Bounds {
    const b = this.t.nodeBounds;
    return { minX: b[0], minY: b[1], maxX: b[2], maxY: b[3] };
  }

  /**
   * Increments whenever the node structure changes (split, merge, root growth, clear, rebuild).
   * A move inside a leaf does not change it: redraw node gizmos only when it changed.
   */
  get version(): number {
    return this.t.version;
  }

  /** Whether `id` is in the tree. Any value that is not a valid id is simply not in it. */
  has(id: number): boolean {
    const slots = this.t.idSlot;
    return typeof id === 'number' && id >>> 0 === id && id < slots.length && slots[id] >= 0;
  }

  /**
   * Adds `id` at (x, y). Points outside the root grow it (by doubling, or by a refit to the items' extent
   * where doubling would overflow). Amortised O(depth).
   * @throws TypeError if `id`, x or y is not a number; RangeError if `id` is not an integer from 0 to
   *   {@link PointQuadtree.MAX_ID}, if x or y is not finite, or if the items' extent with (x, y) is not a
   *   finite number of units across; Error if `id` is already in the tree.
   */
  insert(id: number, x: number, y: number): void {
    checkId(id);
    if (this.has(id))
      throw new Error(`${NAME}: id ${id} is already in the tree (use move to change its position)`);
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    const t = this.t;
    const p = this.arg;
    p[0] = x;
    p[1] = y;
    if (t.pool.compactDue) compactPool(t);
    growFor(t, p);
    ensureIdCapacity(t, id);
    if (id >= t.idTop) t.idTop = id + 1;
    insertItem(t, id, p);
    t.size++;
  }

  /**
   * Moves `id` to (x, y). When the point stays in its leaf only its coordinates are rewritten; otherwise it
   * is re-filed, with the same split and merge rules as remove + insert. Points outside the root grow it;
   * a move that re-files its item may shrink a grown root again, as remove does.
   * @throws RangeError if `id` is not a valid id, or x or y is not finite; Error if `id` is not in the tree.
   */
  move(id: number, x: number, y: number): void {
    // Kept small so engines inline it into the caller's loop: no call, no boxed coordinates.
    const t = this.t;
    const slot = typeof id === 'number' && id >>> 0 === id && id < t.idSlot.length ? t.idSlot[id] : -1;
    if (slot >= 0 && Number.isFinite(x) && Number.isFinite(y)) {
      const lb = t.nodeLoose;
      const b = t.idLeaf[id] << 2;
      // Still inside the leaf's (loose) rectangle? (nodeLoose of the root is the root.)
      if (holds(x, y, lb[b], lb[b + 1], lb[b + 2], lb[b + 3], lb[2], lb[3])) {
        // A root leaf or a refitted root may shrink as its items move (rare: see moveWithin).
        if (b === 0 || t.refitted) {
          moveWithin(t, slot, x, y, b === 0);
          return;
        }
        t.pool.xy[slot << 1] = x;
        t.pool.xy[(slot << 1) + 1] = y;
        return;
      }
      // Out of its leaf: the point goes on in the scratch array, never as an argument (where this is inlined
      // into the caller's loop, a number handed to a function that is not would be boxed: 16 bytes a move).
      this.arg[0] = x;
      this.arg[1] = y;
      moveOut(t, id, this.arg);
      return;
    }
    // An id not in the tree or a coordinate that is not a finite number (named before the scratch array
    // converts anything: a Float64Array would turn null into 0). Apart, to keep this small enough to inline.
    refuseMove(this, id, x, y);
  }

  /**
   * Moves every item at once: each id in the tree goes to (`xs[id]`, `ys[id]`); entries of ids not in the
   * tree are ignored (those ids stay absent). The result is the tree that calling {@link PointQuadtree.move}
   * for each present id in increasing id order gives: the same root (it grows and shrinks the same way: when
   * some point lies outside the root, or the root has grown and a stray may come back, it runs exactly
   * those moves, one by one), and with
   * `looseness` 0 the same nodes (the shape depends only on the points and the root). With `looseness` > 0
   * an item stays in its leaf while it is inside the leaf's loose rectangle, as with move, but the splits
   * and merges happen after all the moves, so which leaf holds a straying item may differ from a sequence of
   * moves (queries answer the same either way).
   *
   * Made for the frame in which everything moves: a check of the arrays (one sequential read), then one
   * pass in id order that writes each item's new position in place; only the items that left their leaf
   * are re-filed, then splits and merges are settled top down. O(largest id + nodes + moved-out items *
   * depth); allocates nothing (once its scratch buffer has grown to the tree's size). Each entry is read
   * once: xs and ys that are not typed arrays over an ArrayBuffer (plain arrays, a Proxy, views of a
   * SharedArrayBuffer that another thread writes) are first copied into a scratch of the tree's, which is
   * checked and used, so the tree never stores a value that was not checked.
   * @param xs - x of id i at index i (typed or plain array), length > the largest id in the tree.
   * @param ys - y of id i at index i.
   * @throws RangeError (before moving anything) if `xs` or `ys` is too short for the largest id in the
   *   tree, if a present id's coordinate is not finite (naming the id), or if the new positions' extent
   *   is not a finite number of units across; TypeError if `xs` or `ys` is not an object with a numeric
   *   length (null, a number, a string), or for a coordinate that is not a number. (Where
   *   moving one by one would fail halfway on such an extent but the new positions fit, the root is
   *   refitted to them instead.)
   */
  moveAll(xs: ArrayLike<number>, ys: ArrayLike<number>): void {
    moveAll(this.t, xs, ys);
  }

  /**
   * Removes `id`. Inner nodes left with `maxItems` or fewer items below them collapse into leaves. A grown
   * root shrinks back toward the constructor's bounds while the remaining items allow it.
   * @returns false if `id` was not in the tree.
   * @throws RangeError if `id` is not an integer from 0 to {@link PointQuadtree.MAX_ID}.
   */
  remove(id: number): boolean {
    checkId(id);
    if (!this.has(id)) return false;
    const t = this.t;
    if (t.pool.compactDue) compactPool(t);
    const edge = onRootEdge(t, t.idSlot[id]);
    const stray = outsideInitial(t, t.idSlot[id]);
    removeItem(t, id);
    if (isGrown(t)) shrinkRoot(t, edge, stray);
    return true;
  }

  /** Removes every item and resets the root to the constructor's bounds. Keeps allocated capacity. */
  clear(): void {
    this.t.idSlot.fill(-1);
    this.t.idTop = 0;
    this.t.size = 0;
    resetNodes(this.t);
  }

  /**
   * Finds the ids whose points satisfy `dx * dx + dy * dy <= radius * radius` (closed disc; radius 0
   * finds points exactly at the centre). Nodes farther than `radius` from the centre are pruned; nodes
   * wholly inside the disc hand over their items without per-point tests. O(log n + found) typically.
   * @param out - ids are appended to it (set `out.length = 0` to reuse one array); a new array if omitted.
   * @returns `out`. Order unspecified, no id twice.
   * @throws RangeError if x or y is not finite or radius is not a finite number >= 0; TypeError if one of
   *   them is not a number, or `out` is not an array.
   */
  queryCircle(x: number, y: number, radius: number, out: number[] = []): number[] {
    circleArg(this.arg, x, y, radius);
    checkOutArray('out', out);
    const results = resultBuffer(this.t);
    appendResults(out, results, circleInto(this.t, results, results.length, this.arg, this.lastQuery));
    return out;
  }

  /**
   * The allocation-free twin of {@link PointQuadtree.queryCircle}: writes the ids found into `out` from
   * index 0 and returns how many it wrote. Give it room for every possible answer (`out.length >= size`
   * is always enough). Entries past the returned count may be overwritten too (it is scratch space).
   * @throws TypeError if `out` is not an Int32Array or Uint32Array (a narrower type would truncate ids).
   * @throws RangeError on a bad centre or radius (as queryCircle), or when `out` fills up before the
   *   query ends (then `out` holds a partial answer; the tree is unchanged).
   */
  queryCircleInto(x: number, y: number, radius: number, out: Int32Array | Uint32Array): number {
    circleArg(this.arg, x, y, radius);
    // The length as the output check read it (the engine's own: an own `length` of out cannot lie).
    return circleInto(this.t, out, checkIdArray('out', out), this.arg, this.lastQuery);
  }

  /**
   * Finds the ids with `minX <= x <= maxX` and `minY <= y <= maxY` (closed rectangle).
   * @param out - ids are appended to it; a new array if omitted.
   * @returns `out`. Order unspecified, no id twice.
   * @throws RangeError if a value is not finite, or `minX > maxX` or `minY > maxY`; TypeError if one is
   *   not a number, or `out` is not an array.
   */
  queryRect(minX: number, minY: number, maxX: number, maxY: number, out: number[] = []): number[] {
    rectArg(this.arg, minX, minY, maxX, maxY);
    checkOutArray('out', out);
    const results = resultBuffer(this.t);
    appendResults(out, results, rectInto(this.t, results, results.length, this.arg, this.lastQuery));
    return out;
  }

  /**
   * The allocation-free twin of {@link PointQuadtree.queryRect}: writes ids into `out` from index 0 and
   * returns how many. `out.length >= size` is always enough; entries past the count may be overwritten.
   * @throws TypeError if `out` is not an Int32Array or Uint32Array (a narrower type would truncate ids).
   * @throws RangeError as queryRect, or when `out` fills up before the query ends.
   */
  queryRectInto(
    minX: number,
    minY: number,
    maxX: number,
    maxY: number,
    out: Int32Array | Uint32Array,
  ): number {
    rectArg(this.arg, minX, minY, maxX, maxY);
    return rectInto(this.t, out, checkIdArray('out', out), this.arg, this.lastQuery);
  }

  /**
   * Finds every unordered pair of distinct items within `radius` of each other (closed:
   * `dx * dx + dy * dy <= radius * radius`), each pair exactly once, and writes pair i as
   * `(outA[i], outB[i])` in no particular order (either id may come first). A self-join over the tree:
   * each leaf against itself and against the leaves within reach of it, each pair of leaves once, pruned by
   * the nodes' rectangles (grown by `looseness`, so the answer is exact with loose leaves too). In
   * JavaScript here; a CrowdQuadtree (`point-quadtree/crowd`) runs it in its WebAssembly SIMD kernel where
   * that compiles: the same pairs either way, perhaps in another order. No allocation once the tree has
   * answered one such query. Radius 0 pairs coincident points.
   * @param outA - ids, one per pair; entries past the returned count may be overwritten.
   * @param outB - the other id of each pair.
   * @returns the number of pairs.
   * @throws RangeError if `radius` is not a finite number >= 0, if outA and outB share memory (the same
   *   array, or overlapping views of one buffer: each pair's ids would overwrite each other), or if the
   *   pairs do not fit in the shorter of outA / outB (the message gives the number needed); TypeError if an
   *   output is not an Int32Array or Uint32Array. The tree is never changed.
   */
  queryPairsInto(radius: number, outA: Int32Array | Uint32Array, outB: Int32Array | Uint32Array): number {
    checkRadius('radius', radius);
    checkIdArray('outA', outA);
    checkIdArray('outB', outB);
    checkSeparate('outA', outA, 'outB', outB);
    const found = pairsInto(this.t, radius, outA, outB);
    if (found !== OUT_OF_ROOM) return found;
    const needed = pairsInBuffers(this.t, radius, this.t.pairs.pairing);
    throw new RangeError(
      `${NAME}: outA and outB (length ${Math.min(lengthOf(outA), lengthOf(outB))}) are too small for the ` +
        `${needed} pairs within radius ${describe(radius)}; give them length >= ${needed}`,
    );
  }

  /**
   * Calls `callback(a, b)` once for every unordered pair of distinct items within `radius` of each other
   * (closed), as {@link PointQuadtree.queryPairsInto} finds them. The pairs are found first, then the
   * callbacks run. Do not change the tree's node structure from the callback.
   * @throws RangeError if `radius` is not a finite number >= 0; TypeError if it is not a number or
   *   `callback` is not a function (even with fewer than two items); Error if the tree's node structure
   *   changed during the calls (the calls stop there).
   */
  forEachPair(radius: number, callback: (a: number, b: number) => void): void {
    checkRadius('radius', radius);
    checkCallback('callback', callback);
    forEachPair(this.t, radius, callback);
  }

  /**
   * Finds up to `k` ids nearest to (x, y) whose distance is `<= maxDistance`, nearest first (ties in any
   * order). Best-first search over the nodes.
   * @param out - ids are appended to it; a new array if omitted.
   * @throws RangeError if x or y is not finite, k is not a finite integer >= 0, or maxDistance is NaN or
   *   negative (Infinity is allowed and is the default); TypeError if x, y, k or maxDistance is not a number
   *   (undefined k or maxDistance is the default; null is not), or `out` is not an array.
   */
  nearest(x: number, y: number, k = 1, maxDistance = Infinity, out: number[] = []): number[] {
    checkCoordinate('x', x);
    checkCoordinate('y', y);
    if (typeof k !== 'number') notANumber('k', k);
    if (!Number.isInteger(k) || k < 0) mustBe(RangeError, 'k', 'a finite integer >= 0', k);
    if (typeof maxDistance !== 'number') notANumber('maxDistance', maxDistance);
    if (!(maxDistance >= 0)) mustBe(RangeError, 'maxDistance', 'a number >= 0', maxDistance);
    checkOutArray('out', out);
    nearestInto(this.t, x, y, k, maxDistance, out, this.lastQuery);
    return out;
  }

  /** Internal: the storage, for debug.ts's invariant checker and tests (see {@link QuadtreeInternals}). */
  [INTERNALS](): QuadtreeInternals {
    return this.t;
  }
}

/**
 * move's errors (it found `id` absent or a coordinate not a finite number): throws the error that names why,
 * by the checks move made before (has, checkId, x, then y).
 */
function refuseMove(tree: PointQuadtree, id: number, x: number, y: number): never {
  if (!tree.has(id)) {
    checkId(id);
    throw new Error(`${NAME}: cannot move id ${id}: it is not in the tree`);
  }
  checkCoordinate('x', x);
  checkCoordinate('y', y);
  throw new Error(`${NAME}: move(${id}, ${x}, ${y}) was refused, but no check named why`);
}
