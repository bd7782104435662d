/**
 * All pairs within a radius: a self-join of the tree over pairs of nodes (a "dual-tree" walk).
 *
 * The walk starts from the pair (root, root). A pair (n, n) stands for the pairs inside one subtree: a leaf
 * joins its own items (i < j), an inner node pushes each child with itself and each pair of distinct
 * children within reach. A pair (a, b) of distinct nodes stands for the pairs across two disjoint
 * subtrees: two leaves join item by item, otherwise the node with the larger rectangle is split and each
 * of its children within reach is paired with the other. Each unordered pair of leaves is reached at most
 * once, so every pair of items is reported exactly once. "Within reach" uses the nodes' loose rectangles,
 * which hold every item of the subtree, so the answer is exact with looseness too.
 *
 * PairJoin is the JavaScript join: the reference, and the fallback. Where the WebAssembly kernel compiles,
 * and unless setSeparationKernel('js') asks otherwise, pairsInto hands the join to it (kernels/pairs.ts
 * over the fused call's leaf-pair walk, docs/crowd.md), which finds the same pairs.
 */

import { lengthOf, NAME } from './checks';
import { distanceScale } from './distance';
import { pointRectDist2 } from './geometry';
import { KernelRoomError } from './kernels/wasmLayout';
import { SeparationScratch, SPARSE, wasmKernel } from './separation';
import { NodeStack } from './stack';
import type { TreeState } from './state';

/** Squared gap between the rectangles of nodes a and b (0 when they touch or overlap), differences times s. */
export function gap2(r: Float64Array, a: number, b: number, s: number): number {
  const pa = a << 2;
  const pb = b << 2;
  const dx = Math.max(0, r[pb] - r[pa + 2], r[pa] - r[pb + 2]) * s;
  const dy = Math.max(0, r[pb + 1] - r[pa + 3], r[pa + 1] - r[pb + 3]) * s;
  return dx * dx + dy * dy;
}

/**
 * Past this many radii (the longer side of either leaf) the WebAssembly join takes a pair of leaves as a
 * row of its own and skips the items of one leaf out of reach of the other's items (kernels/pairs.ts);
 * below it, a leaf's pairs are one row. 5, not the fused call's 3 (WIDE_SIDE): the pair join's exact pass
 * is cheaper than the fused call's push math, so rows pay off up to wider leaves (clustered 10,000 at
 * r = 10, whose leaves are 3.1 radii wide: 1.65 ms at 3, 1.40 ms at 5; the other W6 rows unchanged).
 */
export const PAIR_WIDE_SIDE = 5;

/** What {@link PairJoin.run} returns when the pairs do not fit in the outputs. */
export const OUT_OF_ROOM = -1;

/** The join's traversal stack, reused from call to call: one per tree, so a join allocates nothing. */
export class PairJoin {
  private readonly walk = new NodeStack(256);

  /**
   * Writes every unordered pair of distinct items within `radius` (closed) into outA / outB
   * (ids) and returns the count, or {@link OUT_OF_ROOM} when they would not fit (the outputs' contents are
   * then unspecified). Fewer than two items: 0. The arrays are the tree's (layout: state.ts):
   * `rect` the loose rectangles (stride 4), `child`, `count`, `start` per node, `xy` and `ids` per slot.
   */
  run(
    rect: Float64Array,
    child: Int32Array,
    count: Int32Array,
    start: Int32Array,
    xy: Float64Array,
    ids: Int32Array,
    radius: number,
    outA: Int32Array | Uint32Array,
    outB: Int32Array | Uint32Array,
  ): number {
    const cap = Math.min(lengthOf(outA), lengthOf(outB));
    // Every difference times s (1 at ordinary radii, see distanceScale): squares cannot overflow or underflow.
    const s = distanceScale(radius);
    const r2 = radius * s * (radius * s);
    // Write every candidate and step past the hits only (no branch to mispredict) where about a third or
    // more of the candidates are hits: where the circle of radius r covers a third of the leaf's area.
    // Where hits are rare, a predicted branch costs less than the stores.
    const dense = (3 * Math.PI * r2) / (s * s);
    let stack = this.walk.items;
    let found = 0;
    if (count[0] < 2) return 0;
    let sp = 0;
    stack[sp++] = 0;
    stack[sp++] = 0;
    while (sp > 0) {
      const b = stack[--sp];
      const a = stack[--sp];
      const ca = child[a];
      if (a === b) {
        if (ca < 0) {
          // One leaf with itself: i < j.
          const sa = start[a];
          const e = sa + count[a];
          const m = e - sa;
          if (area(rect, a) < dense && found + ((m * (m - 1)) >> 1) <= cap) {
            // Room for every pair: write each and step past the hits only (no branch to mispredict).
            // The other id is read before the stores: after a store to a typed array the compiled code
            // re-checks every typed array it touches next, so loads go first (3-5% off the join).
            for (let i = sa; i < e - 1; i++) {
              const x = xy[i << 1];
              const y = xy[(i << 1) + 1];
              const id = ids[i];
              for (let j = i + 1; j < e; j++) {
                const dx = (xy[j << 1] - x) * s;
                const dy = (xy[(j << 1) + 1] - y) * s;
                const other = ids[j];
                outA[found] = id;
                outB[found] = other;
                found += +(dx * dx + dy * dy <= r2);
              }
            }
            continue;
          }
          for (let i = sa; i < e - 1; i++) {
            const x = xy[i << 1];
            const y = xy[(i << 1) + 1];
            const id = ids[i];
            for (let j = i + 1; j < e; j++) {
              const dx = (xy[j << 1] - x) * s;
              const dy = (xy[(j << 1) + 1] - y) * s;
              if (dx * dx + dy * dy <= r2) {
                if (found === cap) return OUT_OF_ROOM;
                outA[found] = id;
                outB[found++] = ids[j];
              }
            }
          }
          continue;
        }
        stack = this.walk.room(sp, 20);
        for (let i = ca; i < ca + 4; i++) {
          if (count[i] === 0) continue;
          if (count[i] > 1) {
            stack[sp++] = i;
            stack[sp++] = i;
          }
          for (let j = i + 1; j < ca + 4; j++) {
            if (count[j] === 0 || gap2(rect, i, j, s) > r2) continue;
            stack[sp++] = i;
            stack[sp++] = j;
          }
        }
        continue;
      }
      const cb = child[b];
      if (ca < 0 && cb < 0) {
        // Two leaves: every item of a against every item of b.
        const sa = start[a];
        const ea = sa + count[a];
        const sb = start[b];
        const eb = sb + count[b];
        const pb = b << 2;
        const bMinX = rect[pb];
        const bMinY = rect[pb + 1];
        const bMaxX = rect[pb + 2];
        const bMaxY = rect[pb + 3];
        if (area(rect, b) < dense && found + (ea - sa) * (eb - sb) <= cap) {
          if (far2(rect, a, b, s) <= r2) {
            // Every item of a is within reach of every item of b: no distance to compute.
            for (let i = sa; i < ea; i++) {
              const id = ids[i];
              for (let j = sb; j < eb; j++) {
                const other = ids[j];
                outA[found] = id;
                outB[found++] = other;
              }
            }
            continue;
          }
          for (let i = sa; i < ea; i++) {
            const x = xy[i << 1];
            const y = xy[(i << 1) + 1];
            // Skip an item whose own distance to b's rectangle is already too far.
            if (pointRectDist2(x, y, bMinX, bMinY, bMaxX, bMaxY, s) > r2) continue;
            const id = ids[i];
            for (let j = sb; j < eb; j++) {
              const dx = (xy[j << 1] - x) * s;
              const dy = (xy[(j << 1) + 1] - y) * s;
              const other = ids[j];
              outA[found] = id;
              outB[found] = other;
              found += +(dx * dx + dy * dy <= r2);
            }
          }
          continue;
        }
        for (let i = sa; i < ea; i++) {
          const x = xy[i << 1];
          const y = xy[(i << 1) + 1];
          if (pointRectDist2(x, y, bMinX, bMinY, bMaxX, bMaxY, s) > r2) continue;
          const id = ids[i];
          for (let j = sb; j < eb; j++) {
            const dx = (xy[j << 1] - x) * s;
            const dy = (xy[(j << 1) + 1] - y) * s;
            if (dx * dx + dy * dy <= r2) {
              if (found === cap) return OUT_OF_ROOM;
              outA[found] = id;
              outB[found++] = ids[j];
            }
          }
        }
        continue;
      }
      const split = splitLarger(rect, child, a, b);
      const other = split === a ? b : a;
      const c = child[split];
      stack = this.walk.room(sp, 8);
      for (let k = c; k < c + 4; k++) {
        if (count[k] === 0 || gap2(rect, k, other, s) > r2) continue;
        stack[sp++] = k;
        stack[sp++] = other;
      }
    }
    return found;
  }
}

/** Squared largest distance between a point of node a's rectangle and a point of node b's, times s². */
function far2(r: Float64Array, a: number, b: number, s: number): number {
  const pa = a << 2;
  const pb = b << 2;
  const dx = Math.max(r[pa + 2] - r[pb], r[pb + 2] - r[pa]) * s;
  const dy = Math.max(r[pa + 3] - r[pb + 1], r[pb + 3] - r[pa + 1]) * s;
  return dx * dx + dy * dy;
}

/** The area of node n's rectangle. */
export function area(r: Float64Array, n: number): number {
  const p = n << 2;
  return (r[p + 2] - r[p]) * (r[p + 3] - r[p + 1]);
}

/**
 * Of two distinct nodes a and b of the dual-tree walk (at least one inner), the one to split: the inner node
 * with the larger rectangle (a leaf is never split).
 */
export function splitLarger(r: Float64Array, child: Int32Array, a: number, b: number): number {
  return child[a] < 0 || (child[b] >= 0 && area(r, b) > area(r, a)) ? b : a;
}

/** pairs.ts's scratch: the join's stack and the pairs forEachPair hands out (grown as needed, then reused). */
export class PairScratch {
  readonly join = new PairJoin();
  /** separation.ts: the fused join's walk, leaf-pair list and per-slot sums. */
  readonly separation = new SeparationScratch();
  pairA = new Int32Array(64);
  pairB = new Int32Array(64);
  nestedPairA = new Int32Array(0);
  nestedPairB = new Int32Array(0);
  /** A forEachPair is running (a call from its callback is nested and gets buffers of its own). */
  pairing = false;
}

/** Every pair within `radius` into outA / outB (checked); {@link OUT_OF_ROOM} when they are too short. */
export function pairsInto(
  t: TreeState,
  radius: number,
  outA: Int32Array | Uint32Array,
  outB: Int32Array | Uint32Array,
): number {
  if (t.size < 2) return 0;
  const pool = t.pool;
  const wasm = wasmKernel();
  if (wasm !== null) {
    try {
      // The kernel walks the leaf pairs itself (the walk of the fused call, whose list it shares).
      return wasm.pairs(
        pool.xy,
        pool.ids,
        pool.top,
        t.nodeStart,
        t.nodeCount,
        t.nodeLoose,
        t.nodeChild,
        t.nodeTop,
        t.pairs.separation.serial,
        t.version,
        radius,
        distanceScale(radius),
        SPARSE,
        PAIR_WIDE_SIDE,
        outA,
        outB,
      );
    } catch (e) {
      // The kernel's memory cannot hold this call (a radius far wider than the leaves): the JavaScript join.
      if (!(e instanceof KernelRoomError)) throw e;
    }
  }
  return t.pairs.join.run(
    t.nodeLoose,
    t.nodeChild,
    t.nodeCount,
    t.nodeStart,
    pool.xy,
    pool.ids,
    radius,
    outA,
    outB,
  );
}

/**
 * Every pair within `radius` into the tree's own pair buffers (the nested pair when `nested`), grown by
 * fours until they fit; returns the count.
 */
export function pairsInBuffers(t: TreeState, radius: number, nested: boolean): number {
  const scratch = t.pairs;
  let a = nested ? new Int32Array(64) : scratch.pairA;
  let b = nested ? new Int32Array(64) : scratch.pairB;
  let found = pairsInto(t, radius, a, b);
  while (found === OUT_OF_ROOM) {
    a = new Int32Array(a.length * 4);
    b = new Int32Array(b.length * 4);
    found = pairsInto(t, radius, a, b);
  }
  if (nested) {
    scratch.nestedPairA = a;
    scratch.nestedPairB = b;
  } else {
    scratch.pairA = a;
    scratch.pairB = b;
  }
  return found;
}

/**
 * Finds every pair within `radius` (checked), then calls `callback(a, b)` for each; throws if the tree's
 * node structure changed during the calls.
 */
export function forEachPair(t: TreeState, radius: number, callback: (a: number, b: number) => void): void {
  const scratch = t.pairs;
  // A nested call (from inside a callback) gets buffers of its own so the outer one's pairs survive.
  const nested = scratch.pairing;
  const n = pairsInBuffers(t, radius, nested);
  const a = nested ? scratch.nestedPairA : scratch.pairA;
  const b = nested ? scratch.nestedPairB : scratch.pairB;
  const version = t.version;
  scratch.pairing = true;
  try {
    for (let i = 0; i < n; i++) {
      callback(a[i], b[i]);
      if (t.version !== version) throw new Error(`${NAME}: the tree's structure changed during forEachPair`);
    }
  } finally {
    if (!nested) scratch.pairing = false;
  }
}
