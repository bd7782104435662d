/*
 * The walk over pairs of nodes (a "dual-tree" walk) that every all-pairs join shares: the rules (how far
 * apart two nodes are, which of two nodes to split) and the list of the pairs of leaves within reach of
 * each other at a radius, which the crowd's kernels scan (crowd/separation.ts; its WebAssembly twin is
 * crowd/kernels/walk.ts, the same walk and the same marks). The JavaScript join of queryPairsInto
 * (pairs.ts) walks the same way, joining each pair of leaves as it meets it.
 *
 * The walk starts from the pair (root, root). A pair (n, n) stands for the pairs inside one subtree: an inner
 * node pushes each child with itself and each pair of distinct children within reach. A pair (a, b) of
 * distinct nodes stands for the pairs across two disjoint subtrees: the node with the larger rectangle is
 * split and each of its children within reach is paired with the other. Each unordered pair of leaves is
 * reached at most once. "Within reach" uses the nodes' loose rectangles, which hold every item of the
 * subtree, so the answer is exact with looseness too.
 */

import { distanceScale } from '../core/distance';
import { NodeStack } from '../core/stack';
import type { TreeState } from '../core/state';

/** Squared gap between the rectangles of nodes a and b (0 when they touch or overlap), differences times s. */
export function gap2(r: Float64Array, a: number, b: number, s: number): number {
  const pa = a << 2;
  const pb = b << 2;
  const dx = Math.max(0, r[pb] - r[pa + 2], r[pa] - r[pb + 2]) * s;
  const dy = Math.max(0, r[pb + 1] - r[pa + 3], r[pa + 1] - r[pb + 3]) * s;
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

/** A leaf pair is "sparse" where a leaf's longer side exceeds this many radii (see leafPairsWithin). */
export const SPARSE = 1.5;
/**
 * ... and "wide" past this many: the JavaScript kernels' threshold (the WebAssembly kernels take their own:
 * SEPARATION_WIDE_SIDE in crowd/wasm.ts for the fused call, PAIR_WIDE_SIDE in crowd/pairs.ts for the join).
 */
export const WIDE_SIDE = 3;
/** The flag of a wide pair on its first leaf's number, and the mask that removes it (node numbers < 2^30). */
export const WIDE = 1 << 30;
export const NODE = WIDE - 1;

/** A tree's list of leaf pairs (leafPairsWithin), kept while the tree's structure and the radius stay. */
export class LeafPairList {
  readonly walk = new NodeStack(256);
  /** Leaf pairs of the last walk, stride 2 (a leaf with itself is (leaf, leaf)), sorted by first leaf. */
  leafPairs = new Int32Array(1024);
  /** sortByFirst's scratch: per node, where its pairs go; and the other list buffer. */
  firstAt = new Int32Array(0);
  sorted = new Int32Array(0);
  /** The tree version, radius and pair count the list was made for (version -1: none yet). */
  listVersion = -1;
  listRadius = 0;
  listPairs = 0;
}

/**
 * Lists the pairs of leaves within reach of each other at `radius` (each unordered pair once, every leaf
 * with itself) into `lp.leafPairs`, grouped by first leaf; returns how many pairs of leaves. Where a leaf of
 * the pair is more than {@link SPARSE} radii wide, many candidates are out of reach: the pair is stored as
 * (a, ~b) and the kernels test each candidate before any math (where leaves are about a radius wide, as in
 * a dense crowd, doing the math on every candidate without a branch is faster). Past {@link WIDE_SIDE}
 * radii the pair is stored as (a | WIDE, ~b): the JavaScript kernels also skip the items of a out of reach
 * of b, pair by pair. The list is made again only when the tree's version or the radius changed.
 */
export function leafPairsWithin(t: TreeState, radius: number, lp: LeafPairList): number {
  if (lp.listVersion === t.version && lp.listRadius === radius) return lp.listPairs;
  const n = walkLeafPairs(t, radius, lp);
  sortByFirst(lp, n, t.nodeTop);
  lp.listVersion = t.version;
  lp.listRadius = radius;
  lp.listPairs = n;
  return n;
}

/** leafPairsWithin's walk: the pairs of leaves within reach, marked, in the order met. */
function walkLeafPairs(t: TreeState, radius: number, lp: LeafPairList): number {
  const rect = t.nodeLoose;
  const child = t.nodeChild;
  const s = distanceScale(radius);
  const r2 = radius * s * (radius * s);
  let stack = lp.walk.items;
  let list = lp.leafPairs;
  let n = 0;
  let sp = 0;
  stack[sp++] = 0;
  stack[sp++] = 0;
  while (sp > 0) {
    const b = stack[--sp];
    const a = stack[--sp];
    const ca = child[a];
    const cb = child[b];
    if (ca < 0 && cb < 0) {
      if (2 * n + 2 > list.length) {
        const grown = new Int32Array(list.length * 2);
        grown.set(list);
        list = grown;
        lp.leafPairs = list;
      }
      // Leaves wider than the radius: many candidates are out of reach, so the kernels test before any
      // math (~b marks such a pair); far wider (a | WIDE): they also skip the items of a far from b.
      const longer = Math.max(side(rect, a), side(rect, b));
      list[2 * n] = longer > WIDE_SIDE * radius ? a | WIDE : a;
      list[2 * n + 1] = longer > SPARSE * radius ? ~b : b;
      n++;
      continue;
    }
    if (a === b) {
      stack = lp.walk.room(sp, 20);
      for (let i = ca; i < ca + 4; i++) {
        stack[sp++] = i;
        stack[sp++] = i;
        for (let j = i + 1; j < ca + 4; j++) {
          if (gap2(rect, i, j, s) > r2) continue;
          stack[sp++] = i;
          stack[sp++] = j;
        }
      }
      continue;
    }
    const split = splitLarger(rect, child, a, b);
    const other = split === a ? b : a;
    const c = child[split];
    stack = lp.walk.room(sp, 8);
    for (let k = c; k < c + 4; k++) {
      if (gap2(rect, k, other, s) > r2) continue;
      stack[sp++] = k;
      stack[sp++] = other;
    }
  }
  return n;
}

/**
 * Sorts the first `n` leaf pairs of the list by their first leaf (a counting sort over the node numbers
 * below `nodes`). The WebAssembly module walks and groups its own copy (crowd/kernels/walk.ts: the groups
 * in the walk's depth-first order of the leaves, which keeps consecutive rows near in space).
 */
function sortByFirst(lp: LeafPairList, n: number, nodes: number): void {
  if (lp.firstAt.length < nodes + 1) lp.firstAt = new Int32Array(Math.max(nodes + 1, lp.firstAt.length * 2));
  if (lp.sorted.length < lp.leafPairs.length) lp.sorted = new Int32Array(lp.leafPairs.length);
  const at = lp.firstAt;
  const list = lp.leafPairs;
  const out = lp.sorted;
  at.fill(0, 0, nodes + 1);
  for (let k = 0; k < n; k++) at[(list[2 * k] & NODE) + 1]++;
  for (let v = 0; v < nodes; v++) at[v + 1] += at[v];
  for (let k = 0; k < n; k++) {
    const q = at[list[2 * k] & NODE]++;
    out[2 * q] = list[2 * k];
    out[2 * q + 1] = list[2 * k + 1];
  }
  lp.sorted = list;
  lp.leafPairs = out;
}

/** The longer side of node n's rectangle. */
function side(r: Float64Array, n: number): number {
  const p = n << 2;
  return Math.max(r[p + 2] - r[p], r[p + 3] - r[p + 1]);
}
